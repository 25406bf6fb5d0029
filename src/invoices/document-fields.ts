import { Type } from 'typebox';
import { metadataField } from '../kernel/metadata.js';
import { buyerInput } from './buyer.js';

/** The fields of a document's body (invoice, credit note; quotes take some), as schemas. */

export const nullableString = (options: { maxLength: number; description?: string }) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], ...options });
const nullableDate = (description: string) =>
  Type.Unsafe<string | null>({ type: ['string', 'null'], format: 'date', description });

export const draftFields = {
  customerId: Type.Optional(
    Type.String({ maxLength: 255, description: 'A customer (`cus_`), or give `buyer` instead.' }),
  ),
  buyer: Type.Optional(buyerInput),
  currency: Type.Optional(Type.Literal('EUR', { description: 'EUR (the tax decisions are in euros). Default EUR.' })),
  issueDate: Type.Optional(
    nullableDate(
      'The invoice date. It is the day of finalization: numbers follow dates. Default: set at finalization.',
    ),
  ),
  dueDate: Type.Optional(
    nullableDate('Payment due date; default the issue date plus `paymentTermsDays` (30 days when neither is given).'),
  ),
  deliveryDate: Type.Optional(nullableDate('Date of delivery of the goods or of the service (BT-72).')),
  paymentTermsDays: Type.Optional(
    Type.Unsafe<number | null>({
      type: ['integer', 'null'],
      minimum: 0,
      maximum: 365,
      description: 'Days after the issue date the payment is due.',
    }),
  ),
  paymentTerms: Type.Optional(
    nullableString({
      maxLength: 1000,
      description:
        'Payment conditions printed on the invoice (discount, late-payment penalties, the EUR 40 recovery indemnity).',
    }),
  ),
  notes: Type.Optional(nullableString({ maxLength: 5000 })),
  metadata: Type.Optional(metadataField),
  taxSource: Type.Optional(
    Type.Unsafe<'service' | 'integration' | null>({
      type: ['string', 'null'],
      enum: ['service', 'integration', null],
      description: "Who states the VAT: `service` or `integration`; default the decision's.",
    }),
  ),
  taxDecisionId: Type.Optional(
    nullableString({
      maxLength: 255,
      description: 'The final tax decision (`txd_`) that backs the document at finalization.',
    }),
  ),
};
