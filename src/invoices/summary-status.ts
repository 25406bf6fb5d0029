import type { Axes, DocumentKind } from './document-axes.js';

export type SummaryStatus =
  | 'draft'
  | 'cancelled'
  | 'refunded'
  | 'partially_refunded'
  | 'paid'
  | 'refused'
  | 'credit_refused'
  | 'rejected'
  | 'suspended'
  | 'partially_paid'
  | 'approved'
  | 'received'
  | 'available'
  | 'transmitted'
  | 'deposited'
  | 'sending'
  | 'finalized';

/**
 * The summary `status`: one pure function of the three axes (LIFECYCLE.md, checked top to
 * bottom). Payment comes before transmission, which gives the contract's rows "rejected, then
 * paid in full: paid" and "paid before deposit, approval arrives: stays paid".
 */
export function summaryStatus(axes: Axes, kind: DocumentKind): SummaryStatus {
  if (axes.documentStatus === 'draft') return 'draft';
  if (axes.documentStatus === 'cancelled') return 'cancelled';
  if (axes.paymentStatus === 'refunded' || axes.paymentStatus === 'partially_refunded') return axes.paymentStatus;
  if (axes.paymentStatus === 'paid') return 'paid';
  if (axes.transmissionStatus === 'rejected' && axes.transmissionDetail === 'refused')
    return kind === 'credit_note' ? 'credit_refused' : 'refused';
  if (axes.transmissionStatus === 'rejected') return 'rejected';
  if (axes.transmissionDetail === 'suspended') return 'suspended';
  if (axes.paymentStatus === 'partially_paid') return 'partially_paid';
  if (axes.transmissionStatus === 'approved') return 'approved';
  if (axes.transmissionDetail === 'received' || axes.transmissionDetail === 'available') return axes.transmissionDetail;
  if (
    axes.transmissionStatus === 'transmitted' ||
    axes.transmissionStatus === 'deposited' ||
    axes.transmissionStatus === 'sending'
  )
    return axes.transmissionStatus;
  return 'finalized';
}
