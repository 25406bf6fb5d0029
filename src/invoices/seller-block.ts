import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import type { SellerBlock } from '../documents/document-model.js';
import type { ConformanceIssue } from '../documents/draft-conformance.js';
import { companySeller } from '../companies/service.js';
import { sellerEstablishment } from '../establishments/service.js';
import { profileCovering } from '../tax-profiles/service.js';

/**
 * The seller a document is issued by, as finalization freezes it: the company's legal identity
 * (`/v1/account`) and the establishment of the tax profile in effect on the decision's date, else
 * the default establishment (`/v1/establishments`). What is missing comes back as issues that
 * say where to fill it; the block then has blanks the own checks would also catch.
 */
export interface SellerFacts {
  block: SellerBlock;
  missing: ConformanceIssue[];
}

export async function sellerFacts(db: Executor, scope: Scope, date: string): Promise<SellerFacts> {
  const identity = await companySeller(db, scope.companyId);
  const profile = await profileCovering(db, scope, date);
  const establishment = await sellerEstablishment(db, scope, profile?.establishment.siret ?? null);
  const missing: ConformanceIssue[] = [];
  if (!identity.legalName)
    missing.push({
      rule: 'BR-06',
      field: 'seller.legalName',
      message: 'The seller has no legal name (BT-27): set `legalName` with `POST /v1/account`.',
    });
  if (!establishment)
    missing.push({
      rule: 'BR-08',
      field: 'seller.address',
      message:
        'The seller has no establishment, so no postal address (BG-5) nor SIRET: create one with `POST /v1/establishments`.',
    });
  const block: SellerBlock = {
    legalName: identity.legalName ?? '',
    tradeName: identity.tradeName,
    legalForm: identity.legalForm,
    shareCapital: identity.shareCapital,
    siren: identity.siren,
    siret: establishment?.siret ?? null,
    // The identity's VAT number, else the one the tax profile declared for the operation.
    vatNumber: identity.vatNumber ?? profile?.vatNumber ?? null,
    registration: identity.registration,
    address: establishment
      ? { ...establishment.address, line2: establishment.address.line2 ?? null }
      : { line1: '', line2: null, postalCode: '', city: '', country: '' },
    electronicAddress: establishment?.electronicAddress ?? null,
    contact: identity.contact,
    iban: identity.iban,
    bic: identity.bic,
  };
  return { block, missing };
}
