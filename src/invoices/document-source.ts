import type { DocumentSource, SellerBlock } from '../documents/document-model.js';
import type { DocumentRow } from './document-record.js';

/**
 * The frozen document as the documents capability reads it (DocumentSource): what the
 * finalization froze on the row, the seller block, and, for a credit note, the invoice it
 * corrects. Pure: the file worker reads the rows.
 */

/** What the company gives while the seller block is not yet frozen on the document. */
export interface CompanyIdentity {
  name: string;
  siren: string;
  /** From the tax profile in force at the issue date, when there is one. */
  siret: string | null;
  vatNumber: string | null;
  postalCode: string | null;
  country: string | null;
}

/**
 * The seller of a document. Until the seller is frozen on the document at finalization (its
 * `seller` column), it is built here, in this one place, from the company's name and SIREN and
 * its tax profile, with a fixed street line and city.
 */
export function sellerBlockOf(company: CompanyIdentity): SellerBlock {
  return {
    legalName: company.name,
    tradeName: null,
    legalForm: null,
    shareCapital: null,
    siren: company.siren,
    siret: company.siret,
    vatNumber: company.vatNumber,
    registration: null,
    address: {
      line1: 'Adresse non renseignée',
      line2: null,
      postalCode: company.postalCode ?? '75001',
      city: 'Paris',
      country: company.country ?? 'FR',
    },
    electronicAddress: company.siren,
    contact: null,
    iban: null,
    bic: null,
  };
}

export function documentSourceOf(
  row: DocumentRow,
  seller: SellerBlock,
  precedingInvoice: { number: string; issueDate: string } | null,
): DocumentSource {
  if (row.number === null || row.issueDate === null || row.buyer === null || row.tax === null)
    throw new Error(`document ${row.id} is not finalized`);
  const buyer = row.buyer;
  return {
    kind: row.kind === 'credit_note' ? 'credit_note' : 'invoice',
    number: row.number,
    issueDate: row.issueDate,
    dueDate: row.dueDate,
    deliveryDate: row.deliveryDate,
    paymentTerms: row.paymentTerms,
    notes: row.notes,
    amountPaid: 0,
    precedingInvoice,
    seller,
    buyer: {
      type: buyer.type,
      name: buyer.name,
      siren: buyer.siren,
      siret: buyer.siret,
      vatNumber: buyer.vatNumber,
      electronicAddress: buyer.electronicAddress,
      email: buyer.email,
      address: buyer.address,
      deliveryAddress: buyer.deliveryAddress,
    },
    lines: row.lines.map((line) => ({
      description: line.description,
      quantity: line.quantity,
      unitPrice: line.unitPrice,
      unit: line.unit,
      nature: line.nature,
      netAmount: line.netAmount,
      vatCode: line.vatCode,
      vatRate: line.vatRate,
      vatexCode: line.vatexCode,
    })),
    tax: { vatBreakdown: row.tax.vatBreakdown, mentions: row.tax.mentions, obligations: row.tax.obligations },
  };
}
