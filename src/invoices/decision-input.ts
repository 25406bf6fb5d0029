import type { createTaxDecision } from '../tax/service.js';
import { adjustmentInputOf } from '../kernel/line-adjustments.js';
import type { DocumentResource } from './document-record.js';

export type DecisionInput = Parameters<typeof createTaxDecision>[2];

/**
 * The operation a document describes, for a tax decision of its own at `date`: its buyer and its
 * lines as they stand (rates the document states are kept). A recurring run decides its generated
 * invoice with it, at the period's date; a credit note of a whole invoice, at its own date.
 */
export function decisionInputOf(draft: DocumentResource, period: string): DecisionInput {
  const address = (value: { postalCode: string | null; country: string } | null) =>
    value ? { postalCode: value.postalCode, country: value.country } : null;
  const buyer = draft.buyer;
  const taxSource = (draft.taxSource ?? 'service') as DecisionInput['taxSource'];
  return {
    taxSource,
    date: period,
    currency: 'EUR',
    ...(draft.customerId
      ? { customerId: draft.customerId }
      : {
          customer: {
            type: buyer!.type,
            name: buyer!.name,
            vatNumber: buyer!.vatNumber,
            siren: buyer!.siren,
            address: address(buyer!.address),
            deliveryAddress: address(buyer!.deliveryAddress),
          },
        }),
    lines: draft.lines.map((line) => ({
      description: line.description,
      quantity: line.quantity,
      unitPrice: line.unitPrice,
      nature: line.nature,
      ...(line.rateCategory ? { rateCategory: line.rateCategory as never } : {}),
      // The VAT a line states is the integration's to give; the engine decides it otherwise.
      ...(taxSource === 'integration' && line.vatCode !== null
        ? { vatRate: line.vatRate, vatCode: line.vatCode, vatexCode: line.vatexCode }
        : {}),
      ...(line.allowances?.length ? { allowances: line.allowances.map(adjustmentInputOf) } : {}),
      ...(line.charges?.length ? { charges: line.charges.map(adjustmentInputOf) } : {}),
    })),
  };
}
