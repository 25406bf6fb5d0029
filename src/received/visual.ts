import type { ReadDocument } from '../einvoice/cii-reader.js';
import type { BillingFrame, DocumentModel } from '../einvoice/document-model.js';
import { billingFrames } from '../einvoice/document-model.js';

/**
 * The document model the PDF renderer draws, from an invoice read off a received XML: what the
 * file left out is drawn blank rather than invented (an unknown frame shows as services, a
 * missing seller address as empty lines).
 */
export function visualModelOf(doc: ReadDocument): DocumentModel {
  const address = doc.seller.address;
  return {
    ...doc,
    typeCode: doc.typeCode === '381' ? '381' : '380',
    deliveryDate: doc.deliveryDate ?? doc.issueDate,
    currency: 'EUR',
    billingFrame: (billingFrames as readonly string[]).includes(doc.billingFrame ?? '')
      ? (doc.billingFrame as BillingFrame)
      : 'S1',
    processing: 'B2B',
    paymentMeansCode: doc.paymentMeansCode === '30' ? '30' : '58',
    seller: {
      ...doc.seller,
      siren: doc.seller.siren ?? '',
      address: {
        line1: address?.line1 ?? '',
        line2: address?.line2 ?? null,
        postalCode: address?.postalCode ?? '',
        city: address?.city ?? '',
        country: address?.country ?? '',
      },
    },
  };
}
