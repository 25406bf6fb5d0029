import type { Deps } from '../deps.js';
import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { ApiError, refuse } from '../kernel/errors.js';
import { canonicalJson } from '../kernel/canonical-json.js';
import { parseIsoInstant } from '../kernel/iso-date.js';
import { toListEnvelope, type ListEnvelope, type PageRequest } from '../kernel/pagination.js';
import {
  checkCustomer,
  directoryIdentifierOf,
  directoryVerdict,
  type CustomerDraft,
  type CustomerFields,
  type CustomerType,
  type VatValidation,
  vatValidationOf,
} from './customer-checks.js';
import { isIntraEuVatNumber, verifyVatNumber } from '../vies/service.js';
import type { CustomerCreateInput, CustomerUpdateInput } from './customer-input.js';
import { companyDirectory } from '../directory/service.js';
import type { CompanyDirectory } from './directory.js';
import {
  customerRow,
  fieldsOf,
  prepareCustomer,
  recordCustomerEvent,
  toCustomer,
  type Customer,
} from './customer-records.js';
import { mapLookup, type Lookup } from '../db/lookup.js';
import {
  customerLookup,
  deleteScopeCustomers,
  findCustomer,
  insertCustomers,
  pageCustomers,
  updateCustomer as updateCustomerRow,
  type CustomerFilters,
} from './store.js';

export type { CustomerFields } from './customer-checks.js';
export { toCustomer, type Customer, type CustomerAddress } from './customer-records.js';

/**
 * VIES's word on an intra-EU VAT number (live; the sandbox's test number in test mode), asked
 * before the customer's transaction: a refusal leaves nothing written but the consultation.
 */
async function viesValidation(
  deps: Pick<Deps, 'db' | 'config'>,
  ctx: CallContext,
  vatNumber: string | null,
): Promise<VatValidation | null> {
  if (vatNumber === null || !isIntraEuVatNumber(vatNumber)) return null;
  return vatValidationOf(await verifyVatNumber(deps, ctx.scope, vatNumber, ctx.now));
}

export async function createCustomer(
  deps: Pick<Deps, 'db' | 'config'>,
  ctx: CallContext,
  input: CustomerCreateInput,
): Promise<Customer> {
  const { fields, directoryVerification } = await prepareCustomer(input, companyDirectory(deps, ctx.scope, ctx.now));
  const row = {
    ...customerRow(fields, ctx.scope, ctx.now),
    directoryVerification,
    vatValidation: await viesValidation(deps, ctx, fields.vatNumber),
  };
  await inTransaction(deps.db, ctx, async (tx) => {
    await insertCustomers(tx, [row]);
    await recordCustomerEvent(tx, ctx, 'customer.created', row);
  });
  return toCustomer(row);
}

export function customerNotFound(id: string): ApiError {
  return refuse('not_found', `No customer ${id}.`, { param: 'id' });
}

function customerDeleted(id: string): ApiError {
  return new ApiError('resource_deleted', { values: { resource: 'customer', id }, param: 'id' });
}

/** A customer of the scope; a deleted one is still answered, with `deleted: true`. */
export async function getCustomer(deps: Pick<Deps, 'db'>, scope: Scope, id: string): Promise<Customer> {
  const row = await findCustomer(deps.db, scope, id);
  if (!row) throw customerNotFound(id);
  return toCustomer(row);
}

/** `getCustomer` (deleted or not) as a lookup of a bigger statement (null: none in this environment). */
export function customerResourceLookup(scope: Scope, id: string): Lookup<Customer | null> {
  return mapLookup(customerLookup(scope, id), (row) => row && toCustomer(row));
}

export interface CustomerListQuery {
  email?: string | undefined;
  siren?: string | undefined;
  type?: CustomerType | undefined;
  /** `created` on or after: a calendar date (`2026-09-01`, UTC) or an ISO date-time. */
  dateFrom?: string | undefined;
  /** `created` on or before: a calendar date (the whole day, UTC) or an ISO date-time. */
  dateTo?: string | undefined;
}

function createdBound(value: string, param: 'date_from' | 'date_to'): Date {
  const parsed = parseIsoInstant(value);
  if (!parsed) {
    throw refuse(
      'invalid_field_value',
      `\`${param}\` must be a calendar date (2026-09-01) or an ISO 8601 date-time with its offset; got "${value}".`,
      { param },
    );
  }
  return parsed;
}

export function customerFilters(query: CustomerListQuery): CustomerFilters {
  const filters: CustomerFilters = { email: query.email, siren: query.siren?.replace(/\s/g, ''), type: query.type };
  if (query.dateFrom !== undefined) filters.createdFrom = createdBound(query.dateFrom, 'date_from');
  if (query.dateTo !== undefined) {
    const to = createdBound(query.dateTo, 'date_to');
    const calendarDate = query.dateTo.length === 10;
    filters.createdTo = calendarDate ? new Date(to.getTime() + 86_400_000) : to;
    filters.createdToInclusive = !calendarDate;
  }
  if (
    filters.createdFrom &&
    filters.createdTo &&
    filters.createdFrom >= filters.createdTo &&
    !(filters.createdToInclusive && filters.createdFrom.getTime() === filters.createdTo.getTime())
  ) {
    throw refuse('invalid_field_value', '`date_to` is before `date_from`.', { param: 'date_to' });
  }
  return filters;
}

export async function listCustomers(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  page: PageRequest,
  query: CustomerListQuery,
): Promise<ListEnvelope<Customer>> {
  const rows = await pageCustomers(deps.db, scope, page, customerFilters(query));
  return toListEnvelope(rows, page, '/v1/customers', (row) => row.id, toCustomer);
}

/** The update merged over what is stored: absent fields are kept, null clears, `address` and `metadata` are replaced whole. */
function mergeUpdate(current: CustomerFields, input: CustomerUpdateInput): CustomerDraft {
  const draft: CustomerDraft = { ...current };
  for (const [key, value] of Object.entries(input) as [keyof CustomerUpdateInput, unknown][]) {
    if (value !== undefined) (draft as unknown as Record<string, unknown>)[key] = value;
  }
  return draft;
}

// jsonb keeps no key order: compare canonical texts.
const sameFields = (a: CustomerFields, b: CustomerFields) => canonicalJson(a) === canonicalJson(b);

interface AskedVies {
  vatNumber: string | null;
  validation: VatValidation | null;
}

/**
 * VIES asked about the VAT number an update brings, before the update's transaction (no row lock
 * held through a call to the EU); undefined when the number does not change (or the update fails
 * anyway: the transaction says why).
 */
async function viesBeforeUpdate(
  deps: Pick<Deps, 'db' | 'config'>,
  ctx: CallContext,
  id: string,
  input: CustomerUpdateInput,
): Promise<AskedVies | undefined> {
  if (input.vatNumber === undefined || input.vatNumber === null) return undefined;
  const before = await findCustomer(deps.db, ctx.scope, id);
  if (!before || before.deletedAt) return undefined;
  const vatNumber = checkCustomer(mergeUpdate(fieldsOf(before), input)).vatNumber;
  if (vatNumber === before.vatNumber) return undefined;
  return { vatNumber, validation: await viesValidation(deps, ctx, vatNumber) };
}

/**
 * The directory asked about the SIRET an update brings, before the update's transaction (no row
 * lock held through a call to Sirene or the platform): the transaction then reads the kept answer.
 */
async function directoryBeforeUpdate(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  id: string,
  input: CustomerUpdateInput,
  directory: CompanyDirectory,
): Promise<void> {
  if (!ctx.scope.livemode || (input.siret === undefined && input.siren === undefined)) return;
  const before = await findCustomer(deps.db, ctx.scope, id);
  if (!before || before.deletedAt) return;
  const checked = checkCustomer(mergeUpdate(fieldsOf(before), input));
  const identifier = directoryIdentifierOf(checked);
  if (identifier === null || identifier === directoryIdentifierOf(before)) return;
  // The answer is kept (directory_checks): the transaction reads it instead of calling out.
  await (identifier === checked.siret ? directory.lookup(identifier) : directory.lookupSiren?.(identifier));
}

export async function updateCustomer(
  deps: Pick<Deps, 'db' | 'config'>,
  ctx: CallContext,
  id: string,
  input: CustomerUpdateInput,
): Promise<Customer> {
  const asked = await viesBeforeUpdate(deps, ctx, id, input);
  const directory = companyDirectory(deps, ctx.scope, ctx.now);
  await directoryBeforeUpdate(deps, ctx, id, input, directory);
  const row = await inTransaction(deps.db, ctx, async (tx) => {
    const current = await findCustomer(tx, ctx.scope, id, true);
    if (!current) throw customerNotFound(id);
    if (current.deletedAt) throw customerDeleted(id);
    const checked = checkCustomer(mergeUpdate(fieldsOf(current), input));
    // The directory is asked about a new SIRET (SIREN) only; an unchanged one keeps its markers and its check.
    const identifier = directoryIdentifierOf(checked);
    const { fields, directoryVerification } =
      identifier !== null && identifier !== directoryIdentifierOf(current)
        ? await directoryVerdict(checked, directory)
        : { fields: checked, directoryVerification: identifier === null ? null : current.directoryVerification };
    if (sameFields(fieldsOf(current), fields)) return current;
    // A new number has VIES's word (asked above, or now if it changed meanwhile); an unchanged one keeps its check.
    const vatValidation =
      fields.vatNumber === current.vatNumber
        ? current.vatValidation
        : asked?.vatNumber === fields.vatNumber
          ? asked.validation
          : await viesValidation(deps, ctx, fields.vatNumber);
    const updated = (await updateCustomerRow(tx, ctx.scope, id, {
      ...fields,
      vatValidation,
      directoryVerification,
      updated: ctx.now,
    }))!;
    await recordCustomerEvent(tx, ctx, 'customer.updated', updated);
    return updated;
  });
  return toCustomer(row);
}

export async function deleteCustomer(
  deps: Pick<Deps, 'db'>,
  ctx: CallContext,
  id: string,
): Promise<{ id: string; object: 'customer'; deleted: true }> {
  await inTransaction(deps.db, ctx, async (tx) => {
    const current = await findCustomer(tx, ctx.scope, id, true);
    if (!current) throw customerNotFound(id);
    if (current.deletedAt) throw customerDeleted(id);
    const deleted = (await updateCustomerRow(tx, ctx.scope, id, { deletedAt: ctx.now, updated: ctx.now }))!;
    await recordCustomerEvent(tx, ctx, 'customer.deleted', deleted);
  });
  return { id, object: 'customer', deleted: true };
}

/** Sandbox reset: every test customer of the company goes. */
export async function purgeTestCustomers(tx: Tx, scope: Scope): Promise<number> {
  if (scope.livemode) throw new Error('refusing to purge live customers');
  return deleteScopeCustomers(tx, scope);
}

export { importCustomers, customersImportJob, csvBodyLimit, type CustomerImport, type ImportAnswer } from './import.js';
export { seedCustomerFixtures, customerFixtures } from './fixtures.js';
