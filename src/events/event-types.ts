/** The event types of the contract (Events, "Event types and triggers"), plus `ping`. */
export const eventTypes = [
  'invoice.created', 'invoice.finalized', 'invoice.sent', 'invoice.sending', 'invoice.deposited', 'invoice.transmitted',
  'invoice.available', 'invoice.received', 'invoice.approved', 'invoice.refused', 'invoice.suspended', 'invoice.rejected',
  'invoice.paid', 'invoice.partially_paid', 'invoice.overdue', 'invoice.incoming.received',
  'quote.created', 'quote.sent', 'quote.viewed', 'quote.accepted', 'quote.refused', 'quote.expired', 'quote.converted',
  'credit_note.created', 'credit_note.finalized', 'credit_note.sent', 'credit_note.credit_deposited',
  'credit_note.credit_transmitted', 'credit_note.credit_approved', 'credit_note.credit_refused',
  'payment.created', 'payment.received',
  'customer.created', 'customer.updated', 'customer.deleted',
  'ereporting.submitted', 'ereporting.accepted', 'ereporting.rejected',
  'recurring_invoice.generated', 'recurring_invoice.failed',
  'export.ready',
  'subscription.created', 'subscription.cancelled', 'subscription.paused', 'subscription.renewed',
  'invoice.obligation_updated', 'credit_note.obligation_updated', 'payment.obligation_updated', 'ereporting.obligation_updated',
  'ping',
] as const;

export type EventType = (typeof eventTypes)[number];

export function isEventType(value: string): value is EventType {
  return (eventTypes as readonly string[]).includes(value);
}
