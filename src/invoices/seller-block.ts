import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import type { SellerBlock } from '../einvoice/document-model.js';
import type { ConformanceIssue } from '../einvoice/draft-conformance.js';
import type { SQL } from 'drizzle-orm';
import { companySeller, companySellerLookup, type CompanySeller } from '../companies/service.js';
import { sellerEstablishment, sellerEstablishmentLookup, type SellerEstablishment } from '../establishments/service.js';
import {
  lookedUpProfileSiret,
  profileCovering,
  profileCoveringLookup,
  type TaxProfile,
} from '../tax-profiles/service.js';

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
  return sellerFactsOf(identity, profile, establishment);
}

/**
 * The reads of `sellerFacts` as lookups of a bigger statement, on the operation date the statement
 * gives (the looked-up decision's): the identity, the revision in effect, its establishment.
 */
export function sellerLookups(scope: Scope, date: SQL) {
  return {
    identity: companySellerLookup(scope.companyId),
    profile: profileCoveringLookup(scope, date),
    establishment: sellerEstablishmentLookup(scope, lookedUpProfileSiret),
  };
}

/** The seller block from what `sellerFacts` or `sellerLookups` read. */
export function sellerFactsOf(
  identity: CompanySeller | null,
  profile: TaxProfile | null,
  establishment: SellerEstablishment | null,
): SellerFacts {
  if (!identity) throw new Error('the seller company vanished');
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
