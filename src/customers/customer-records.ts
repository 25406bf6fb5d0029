import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import type { CallContext } from '../db/transaction.js';
import { newId } from '../kernel/ids.js';
import { recordEvent, recordEvents } from '../webhooks/service.js';
import { territoryOf, type Address } from './address.js';
import {
  checkCustomer,
  directoryIdentifierOf,
  directoryVerdict,
  type CustomerDraft,
  type CustomerFields,
  type CustomerType,
  type DirectoryVerification,
  type VatValidation,
  vatValidationPending,
} from './customer-checks.js';
import { isIntraEuVatNumber } from '../vies/service.js';
import type { CustomerCreateInput } from './customer-input.js';
import type { CompanyDirectory, NonDisclosableField } from './directory.js';
import type { EinvoiceSyntax } from '../kernel/einvoice-syntax.js';
import type { CustomerRow } from './store.js';

/** The customer resource and the steps every creation shares (API, CSV line, fixture). */

export interface CustomerAddress extends Address {
  /** The VAT territory of the address (`FR`, `FR-COR`, `FR-GP`, `MC`, `ES-CN`, `DE`...), null when a French address lacks its postal code. */
  territory: string | null;
}

/** The customer resource. */
export interface Customer {
  id: string;
  object: 'customer';
  livemode: boolean;
  type: CustomerType;
  name: string;
  email: string | null;
  siren: string | null;
  siret: string | null;
  vatNumber: string | null;
  electronicAddress: string | null;
  routingCode: string | null;
  address: CustomerAddress | null;
  deliveryAddress: CustomerAddress | null;
  registryNonDisclosure: NonDisclosableField[];
  einvoiceSyntax: EinvoiceSyntax | null;
  /** Live, an intra-EU VAT number: what VIES said of it; null otherwise. */
  vatValidation: VatValidation | null;
  /** Live, a SIRET: what the company directory said of it; null otherwise. */
  directoryVerification: DirectoryVerification | null;
  metadata: Record<string, unknown>;
  created: string;
  updated: string;
  deleted: boolean;
}

const withTerritory = (address: Address | null): CustomerAddress | null =>
  address ? { ...address, territory: territoryOf(address) } : null;

export function toCustomer(row: CustomerRow): Customer {
  return {
    id: row.id,
    object: 'customer',
    livemode: row.livemode,
    type: row.type as CustomerType,
    name: row.name,
    email: row.email,
    siren: row.siren,
    siret: row.siret,
    vatNumber: row.vatNumber,
    electronicAddress: row.electronicAddress,
    routingCode: row.routingCode,
    address: withTerritory(row.address ?? null),
    deliveryAddress: withTerritory(row.deliveryAddress ?? null),
    registryNonDisclosure: row.registryNonDisclosure as NonDisclosableField[],
    einvoiceSyntax: (row.einvoiceSyntax as EinvoiceSyntax | null) ?? null,
    vatValidation: row.vatValidation ?? null,
    directoryVerification: (row.directoryVerification as DirectoryVerification | null) ?? null,
    metadata: row.metadata,
    created: row.created.toISOString(),
    updated: row.updated.toISOString(),
    deleted: row.deletedAt !== null,
  };
}

export function fieldsOf(row: CustomerRow): CustomerFields {
  return {
    type: row.type as CustomerType,
    name: row.name,
    email: row.email,
    siren: row.siren,
    siret: row.siret,
    vatNumber: row.vatNumber,
    electronicAddress: row.electronicAddress,
    routingCode: row.routingCode,
    address: row.address ?? null,
    deliveryAddress: row.deliveryAddress ?? null,
    registryNonDisclosure: row.registryNonDisclosure as NonDisclosableField[],
    einvoiceSyntax: (row.einvoiceSyntax as EinvoiceSyntax | null) ?? null,
    metadata: row.metadata,
  };
}

export function draftOf(input: CustomerCreateInput): CustomerDraft {
  return {
    type: input.type ?? 'company',
    name: input.name,
    email: input.email ?? null,
    siren: input.siren ?? null,
    siret: input.siret ?? null,
    vatNumber: input.vatNumber ?? null,
    electronicAddress: input.electronicAddress ?? null,
    routingCode: input.routingCode ?? null,
    address: input.address ?? null,
    deliveryAddress: input.deliveryAddress ?? null,
    registryNonDisclosure: input.registryNonDisclosure ?? [],
    einvoiceSyntax: input.einvoiceSyntax ?? null,
    metadata: input.metadata ?? {},
  };
}

/**
 * Checks a new customer and asks the directory about its SIRET: what the API and each CSV line go
 * through (a live CSV line passes no directory: the re-check pass asks, outside the import).
 */
export async function prepareCustomer(
  input: CustomerCreateInput,
  directory: CompanyDirectory | null,
): Promise<{ fields: CustomerFields; directoryVerification: DirectoryVerification | null }> {
  return directoryVerdict(checkCustomer(draftOf(input)), directory);
}

/**
 * Live, an intra-EU VAT number and a SIRET (or SIREN) start unverified: the API asks VIES and the directory
 * at once, a CSV line waits for the re-check passes.
 */
export function customerRow(fields: CustomerFields, scope: Scope, now: Date, id = newId('customer', now)): CustomerRow {
  const vatValidation =
    scope.livemode && fields.vatNumber !== null && isIntraEuVatNumber(fields.vatNumber) ? vatValidationPending : null;
  const directoryVerification = scope.livemode && directoryIdentifierOf(fields) !== null ? 'unverified' : null;
  return { ...scope, id, ...fields, vatValidation, directoryVerification, created: now, updated: now, deletedAt: null };
}

type CustomerEventType = 'customer.created' | 'customer.updated' | 'customer.deleted';

/** The contract's customer family: `id`, `object`, `livemode`. */
export async function recordCustomerEvent(
  tx: Executor,
  ctx: CallContext,
  type: CustomerEventType,
  row: CustomerRow,
): Promise<void> {
  await recordEvent(tx, ctx, type, { id: row.id, object: 'customer', livemode: row.livemode }, ctx.now);
}

/** One event per customer, in the customers' transaction, written in bulk. */
export async function recordCustomerEvents(
  tx: Executor,
  ctx: CallContext,
  type: CustomerEventType,
  rows: CustomerRow[],
): Promise<void> {
  await recordEvents(
    tx,
    ctx,
    type,
    rows.map((row) => ({ id: row.id, object: 'customer', livemode: row.livemode })),
    ctx.now,
  );
}
