import type { PaymentStatus } from './document-axes.js';

/** The payment axis from amounts in cents: what was collected, and what was given back. Pure. */
export function paymentStatusOf(total: number, paid: number, refunded: number): PaymentStatus {
  if (refunded > 0) return refunded >= paid ? 'refunded' : 'partially_refunded';
  if (paid <= 0) return 'unpaid';
  return paid >= total ? 'paid' : 'partially_paid';
}
