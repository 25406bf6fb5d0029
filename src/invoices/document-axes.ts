/** The three status axes of an invoice or a credit note (contract, "Invoice and credit note"). */
export const documentStatuses = ['draft', 'finalized', 'cancelled'] as const;
export const transmissionStatuses = [
  'not_applicable',
  'pending',
  'sending',
  'deposited',
  'transmitted',
  'approved',
  'rejected',
] as const;
export const transmissionDetails = ['available', 'received', 'suspended', 'refused'] as const;
export const paymentStatuses = ['unpaid', 'partially_paid', 'paid', 'partially_refunded', 'refunded'] as const;

export type DocumentStatus = (typeof documentStatuses)[number];
export type TransmissionStatus = (typeof transmissionStatuses)[number];
export type TransmissionDetail = (typeof transmissionDetails)[number] | null;
export type PaymentStatus = (typeof paymentStatuses)[number];
export type DocumentKind = 'invoice' | 'credit_note';

export interface Axes {
  documentStatus: DocumentStatus;
  transmissionStatus: TransmissionStatus;
  transmissionDetail: TransmissionDetail;
  paymentStatus: PaymentStatus;
}

export const draftAxes: Axes = {
  documentStatus: 'draft',
  transmissionStatus: 'not_applicable',
  transmissionDetail: null,
  paymentStatus: 'unpaid',
};
