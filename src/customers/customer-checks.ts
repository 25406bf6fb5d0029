import { ApiError, refuse } from '../kernel/errors.js';
import { isValidSiren, isValidSiret } from '../identifiers/siren.js';
import { checkVatNumber, sirenOfVatNumber } from '../identifiers/vat-number.js';
import { checkAddress, type Address, type AddressInput } from './address.js';
import type { CompanyDirectory, NonDisclosableField } from './directory.js';
import { checkMetadata } from '../kernel/metadata.js';
import type { ViesVerdict } from '../vies/service.js';
import type { EinvoiceSyntax } from '../kernel/einvoice-syntax.js';

export const customerTypes = ['company', 'individual'] as const;
export type CustomerType = (typeof customerTypes)[number];

/** A customer's own fields, checked and normalized: what is stored. */
export interface CustomerFields {
  type: CustomerType;
  name: string;
  email: string | null;
  siren: string | null;
  siret: string | null;
  vatNumber: string | null;
  electronicAddress: string | null;
  routingCode: string | null;
  address: Address | null;
  deliveryAddress: Address | null;
  registryNonDisclosure: NonDisclosableField[];
  /** The syntax the buyer wants its e-invoices in; null: the issuing establishment's default. */
  einvoiceSyntax: EinvoiceSyntax | null;
  metadata: Record<string, unknown>;
}

/** The same fields as received (after the schema): free text, not yet checked. */
export interface CustomerDraft extends Omit<CustomerFields, 'address' | 'deliveryAddress'> {
  address: AddressInput | null;
  deliveryAddress: AddressInput | null;
}

const trimmed = (value: string | null): string | null => {
  const text = value?.trim() ?? '';
  return text === '' ? null : text;
};

/** SIREN and SIRET may be written with spaces (`732 829 320`). */
const digitsOnly = (value: string | null): string | null => {
  const text = trimmed(value);
  return text === null ? null : text.replace(/[\s.]/g, '');
};

const electronicAddressPattern = /^[A-Za-z0-9\-_.]{1,125}$/;
const routingCodePattern = /^[-_/a-zA-Z0-9]{1,100}$/;

/**
 * The rules of a customer, on the whole record (a creation, or an update merged with what was
 * stored), in the order a reader would check them; the first broken one is refused with its
 * field as `param` (under `field` when given). Pure: the directory is asked afterwards (`consultDirectory`).
 */
export function checkCustomer(draft: CustomerDraft, field?: string): CustomerFields {
  // Inside another resource (a document's inline `buyer`) every field is named under it.
  const at = (name: string) => (field ? `${field}.${name}` : name);
  const name = draft.name.trim();
  if (name === '') throw refuse('validation_error', `\`${at('name')}\` must not be blank.`, { param: at('name') });

  let siren = digitsOnly(draft.siren);
  const siret = digitsOnly(draft.siret);
  const vat = trimmed(draft.vatNumber);
  const electronicAddress = trimmed(draft.electronicAddress);
  const routingCode = trimmed(draft.routingCode);

  if (draft.type === 'individual') {
    const business = (
      [
        ['siren', siren],
        ['siret', siret],
        ['vatNumber', vat],
        ['electronicAddress', electronicAddress],
        ['routingCode', routingCode],
      ] as const
    ).find(([, value]) => value !== null);
    if (business) {
      throw refuse(
        'validation_error',
        `An \`individual\` customer (a consumer) has no \`${at(business[0])}\`; a business is \`type: company\`.`,
        { param: at(business[0]) },
      );
    }
  }

  if (siren !== null && !isValidSiren(siren)) {
    throw refuse(
      'validation_error',
      `\`${at('siren')}\` must be 9 digits with a valid check digit (Luhn), e.g. 732829320.`,
      { param: at('siren') },
    );
  }
  if (siret !== null) {
    if (!isValidSiret(siret))
      throw refuse(
        'validation_error',
        `\`${at('siret')}\` must be 14 digits with a valid check digit (Luhn), e.g. 73282932000017.`,
        { param: at('siret') },
      );
    if (siren !== null && !siret.startsWith(siren)) {
      throw refuse(
        'validation_error',
        `\`${at('siret')}\` ${siret} is not an establishment of SIREN ${siren}: a SIRET starts with its SIREN.`,
        { param: at('siret') },
      );
    }
    siren ??= siret.slice(0, 9);
  }

  let vatNumber: string | null = null;
  if (vat !== null) {
    const checked = checkVatNumber(vat);
    if (!checked.ok)
      throw refuse('validation_error', `\`${at('vatNumber')}\`: ${checked.message}`, { param: at('vatNumber') });
    vatNumber = checked.value;
    const vatSiren = sirenOfVatNumber(vatNumber);
    if (vatSiren !== null && siren !== null && vatSiren !== siren) {
      throw refuse(
        'validation_error',
        `\`${at('vatNumber')}\` ${vatNumber} belongs to SIREN ${vatSiren}, not to ${siren}.`,
        { param: at('vatNumber') },
      );
    }
    siren ??= vatSiren;
  }

  if (electronicAddress !== null) {
    if (!electronicAddressPattern.test(electronicAddress)) {
      throw refuse(
        'validation_error',
        `\`${at('electronicAddress')}\` is at most 125 characters among letters, digits, \`-\`, \`_\` and \`.\`.`,
        { param: at('electronicAddress') },
      );
    }
    if (siren !== null && !electronicAddress.startsWith(siren)) {
      throw refuse(
        'validation_error',
        `\`${at('electronicAddress')}\` must start with the SIREN ${siren} (BR-FR-22), e.g. ${siren} or ${siren}_FACTURES.`,
        { param: at('electronicAddress') },
      );
    }
  }
  if (routingCode !== null) {
    if (!routingCodePattern.test(routingCode)) {
      throw refuse(
        'validation_error',
        `\`${at('routingCode')}\` is at most 100 characters among letters, digits, \`-\`, \`_\` and \`/\`.`,
        { param: at('routingCode') },
      );
    }
    if (siret === null)
      throw refuse(
        'validation_error',
        `A \`${at('routingCode')}\` belongs to an establishment: give the \`${at('siret')}\` too.`,
        { param: at('routingCode') },
      );
  }

  const address = draft.address ? checkAddress(draft.address, at('address')) : null;
  const deliveryAddress = draft.deliveryAddress ? checkAddress(draft.deliveryAddress, at('deliveryAddress')) : null;

  checkMetadata(draft.metadata, at('metadata'));

  return {
    type: draft.type,
    name,
    email: trimmed(draft.email),
    siren,
    siret,
    vatNumber,
    electronicAddress,
    routingCode,
    address,
    deliveryAddress,
    registryNonDisclosure: [...new Set(draft.registryNonDisclosure)],
    einvoiceSyntax: draft.einvoiceSyntax ?? null,
    metadata: draft.metadata,
  };
}

/**
 * Live: what the directory said of the customer's SIRET (else its SIREN). `verified`: it
 * answered; `unverified`: no directory answered (or a CSV line, not asked yet), checked again by
 * the `customers.recheck-directory` pass; `not_found`: a re-check found it unknown or closed after
 * the customer was accepted. Null in test mode and without a SIRET or SIREN.
 */
export type DirectoryVerification = 'verified' | 'unverified' | 'not_found';

/** What the directory is asked about: the SIRET, else the SIREN (live directories only look SIRENs up). */
export function directoryIdentifierOf(fields: Pick<CustomerFields, 'siren' | 'siret'>): string | null {
  return fields.siret ?? fields.siren;
}

async function directoryEntryOf(directory: CompanyDirectory, fields: CustomerFields) {
  if (fields.siret !== null) {
    const entry = await directory.lookup(fields.siret);
    if (!entry) throw new ApiError('siret_not_found', { param: 'siret', values: { siret: fields.siret } });
    return entry;
  }
  if (fields.siren === null || !directory.lookupSiren) return null;
  const entry = await directory.lookupSiren(fields.siren);
  if (!entry)
    throw new ApiError('siret_not_found', {
      param: 'siren',
      values: { siret: fields.siren },
      hint: 'The legal unit of this SIREN is unknown to the company directory, or has ceased.',
    });
  return entry;
}

/**
 * Asks the directory about the SIRET (a live directory: else the SIREN): `siret_not_found` when it
 * does not know it; its non-disclosure markers are added to the customer's. Without a directory
 * (a CSV line in live: the re-check pass asks) the customer is kept as checked.
 */
export async function consultDirectory(
  fields: CustomerFields,
  directory: CompanyDirectory | null,
): Promise<CustomerFields> {
  return (await directoryVerdict(fields, directory)).fields;
}

/** `consultDirectory`, with what the directory's answer makes of the customer's check (live). */
export async function directoryVerdict(
  fields: CustomerFields,
  directory: CompanyDirectory | null,
): Promise<{ fields: CustomerFields; directoryVerification: DirectoryVerification | null }> {
  const entry = directory ? await directoryEntryOf(directory, fields) : null;
  if (!entry) return { fields, directoryVerification: null };
  return { fields: withMarkers(fields, entry.nonDisclosed), directoryVerification: entry.verification ?? null };
}

/** The customer's fields with the registry's non-disclosure markers added. */
export function withMarkers(fields: CustomerFields, nonDisclosed: readonly NonDisclosableField[]): CustomerFields {
  if (nonDisclosed.length === 0) return fields;
  return { ...fields, registryNonDisclosure: [...new Set([...fields.registryNonDisclosure, ...nonDisclosed])] };
}

/**
 * The check of a live customer's intra-EU VAT number with VIES: `valid` with the consultation
 * number (the proof, when the company's own VAT number could be sent as requester); `unverified`
 * when VIES did not answer (down, a member state unavailable, a time-out) or the customer came by
 * CSV import: accepted, and checked again by the `customers.recheck-vat` pass; `invalid` when a
 * re-check found the number unknown to VIES after the customer was accepted.
 */
export interface VatValidation {
  status: 'valid' | 'unverified' | 'invalid';
  /** When VIES was asked (null: not yet). */
  checkedAt: string | null;
  requestIdentifier: string | null;
  /** VIES's date of the answer. */
  requestDate: string | null;
}

/** A customer not yet checked: live, with an intra-EU VAT number, VIES still to be asked. */
export const vatValidationPending: VatValidation = {
  status: 'unverified',
  checkedAt: null,
  requestIdentifier: null,
  requestDate: null,
};

/**
 * What a VIES verdict makes of a customer's number: a number VIES does not know is refused,
 * `vat_validation_failed` (param `vatNumber`); no answer is `unverified`, never a silent yes or no.
 */
export function vatValidationOf(verdict: ViesVerdict, field?: string): VatValidation | null {
  if (verdict.outcome === 'not_checked') return null;
  if (verdict.outcome === 'invalid')
    throw new ApiError('vat_validation_failed', { param: field ? `${field}.vatNumber` : 'vatNumber' });
  return {
    status: verdict.outcome === 'valid' ? 'valid' : 'unverified',
    checkedAt: verdict.checkedAt.toISOString(),
    requestIdentifier: verdict.requestIdentifier,
    requestDate: verdict.requestDate,
  };
}
