import type { Deps } from '../deps.js';
import type { SQL } from 'drizzle-orm';
import { mapLookup, type Lookup } from '../db/lookup.js';
import type { Executor, Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { isUniqueViolation } from '../db/errors.js';
import { refuse } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import { toListEnvelope, type ListEnvelope, type PageRequest } from '../kernel/pagination.js';
import { fixtureCreated, fixtureId } from '../identifiers/fixture-id.js';
import { isValidSiret } from '../identifiers/siren.js';
import { getCompany } from '../companies/service.js';
import { ApiError } from '../kernel/errors.js';
import { plans, type PlanName } from '../kernel/plans.js';
import type { EinvoiceSyntax } from '../kernel/einvoice-syntax.js';
import {
  connectionColumns,
  shownConnection,
  verifiedConnection,
  type ConnectionInput,
  type ShownConnection,
} from './platform-connection.js';
import { checkAddress, checkElectronicAddress, checkSiret, type AddressInput } from './establishment-checks.js';
import type { EstablishmentAddress } from './schema.js';
import {
  clearDefault,
  bySiretOrDefaultLookup,
  countConnected,
  deleteScopeEstablishments,
  findBySiret,
  findDefault,
  findEstablishment,
  insertEstablishment,
  lockScopeEstablishments,
  pageEstablishments,
  updateEstablishmentRow,
  type EstablishmentRow,
  connectedRows,
} from './store.js';

/**
 * The company's establishments, per environment: the SIRET and address an invoice names as its
 * seller's. The first one is the default; making another the default unsets the old one in the
 * same transaction, so a scope that has establishments always has exactly one default.
 */

export interface Establishment {
  id: string;
  object: 'establishment';
  livemode: boolean;
  siret: string;
  name: string | null;
  address: EstablishmentAddress;
  electronicAddress: string;
  einvoiceSyntax: EinvoiceSyntax;
  isDefault: boolean;
  /** The approved platform this establishment deposits to and reports through; the secret is never shown. */
  platform: ShownConnection | null;
  depositEnabled: boolean;
  ereportingEnabled: boolean;
  created: string;
  updated: string;
}

interface PlatformSwitches {
  /** `null` disconnects the establishment (its stored secret is erased). */
  platform?: ConnectionInput | null | undefined;
  depositEnabled?: boolean | undefined;
  ereportingEnabled?: boolean | undefined;
}

export interface EstablishmentInput extends PlatformSwitches {
  siret: string;
  name?: string | null | undefined;
  address: AddressInput;
  electronicAddress?: string | null | undefined;
  einvoiceSyntax?: EinvoiceSyntax | undefined;
  isDefault?: boolean | undefined;
}

export interface EstablishmentChanges extends PlatformSwitches {
  name?: string | null | undefined;
  address?: AddressInput | undefined;
  electronicAddress?: string | null | undefined;
  einvoiceSyntax?: EinvoiceSyntax | undefined;
  isDefault?: boolean | undefined;
}

/** The seller establishment as the finalization reads it. */
export interface SellerEstablishment {
  id: string;
  siret: string;
  address: EstablishmentAddress;
  electronicAddress: string;
}

export function toEstablishment(row: EstablishmentRow): Establishment {
  return {
    id: row.id,
    object: 'establishment',
    livemode: row.livemode,
    siret: row.siret,
    name: row.name,
    address: row.address,
    // BT-34 defaults to the SIREN (the directory's first-level address).
    electronicAddress: row.electronicAddress ?? row.siret.slice(0, 9),
    einvoiceSyntax: row.einvoiceSyntax as EinvoiceSyntax,
    isDefault: row.isDefault,
    platform: shownConnection(row),
    depositEnabled: row.depositEnabled,
    ereportingEnabled: row.ereportingEnabled,
    created: row.created.toISOString(),
    updated: row.updated.toISOString(),
  };
}

/** The connection columns of an establishment without a platform. */
const disconnected = {
  platformBaseUrl: null,
  platformClientId: null,
  platformClientSecret: null,
  platformTokenUrl: null,
  platformConnectedAt: null,
} satisfies Partial<EstablishmentRow>;

const notConnected = {
  ...disconnected,
  depositEnabled: false,
  ereportingEnabled: false,
} satisfies Partial<EstablishmentRow>;

/** Connected establishments count against the plan (the contract's quota of establishments). */
async function checkConnectedQuota(tx: Executor, ctx: CallContext, plan: string, except: string | null): Promise<void> {
  const limit = plans[plan as PlanName].connectedEstablishments;
  if ((await countConnected(tx, ctx.scope, except)) < limit) return;
  throw new ApiError('quota_exceeded', {
    values: {
      limit,
      metric: 'establishments connected to a platform',
      plan,
      period: ctx.now.toISOString().slice(0, 7),
    },
    hint: 'Disconnect another establishment (`platform: null`) or upgrade the plan.',
  });
}

const notFound = (id: string) => refuse('not_found', `No establishment ${id}.`, { param: 'id' });

const nameOf = (value: string | null | undefined) => {
  const name = value?.trim() ?? '';
  if (name.length > 200) throw refuse('invalid_field_value', '`name` has at most 200 characters.', { param: 'name' });
  return name === '' ? null : name;
};

function duplicate(siret: string) {
  return refuse('conflict', `SIRET ${siret} is already an establishment of this company in this environment.`, {
    param: 'siret',
  });
}

async function insertChecked(tx: Tx, ctx: CallContext, row: EstablishmentRow): Promise<void> {
  await lockScopeEstablishments(tx, ctx.scope);
  if (await findBySiret(tx, ctx.scope, row.siret)) throw duplicate(row.siret);
  const current = await findDefault(tx, ctx.scope);
  // The first establishment is the default; another asked as the default takes the mark.
  if (!current) row.isDefault = true;
  else if (row.isDefault) await clearDefault(tx, ctx.scope, ctx.now);
  await insertEstablishment(tx, row);
}

export async function createEstablishment(
  deps: Pick<Deps, 'db' | 'config' | 'resolveHost'>,
  ctx: CallContext,
  input: EstablishmentInput,
): Promise<Establishment> {
  const company = await getCompany(deps, ctx.scope.companyId);
  const siret = checkSiret(input.siret, company.siren);
  // The platform is asked before anything is written: no transaction waits on it (the quota is
  // looked at first, then again under the lock).
  if (input.platform) await checkConnectedQuota(deps.db, ctx, company.plan, null);
  const connection = input.platform ? await verifiedConnection(deps, siret, input.platform) : null;
  const id = newId('establishment', ctx.now);
  const row: EstablishmentRow = {
    ...ctx.scope,
    id,
    siret,
    name: nameOf(input.name),
    address: checkAddress(input.address),
    electronicAddress: input.electronicAddress ? checkElectronicAddress(input.electronicAddress) : null,
    einvoiceSyntax: input.einvoiceSyntax ?? 'cii',
    isDefault: input.isDefault === true,
    ...notConnected,
    ...(connection ? connectionColumns(deps, { companyId: ctx.scope.companyId, id }, connection, ctx.now) : {}),
    depositEnabled: input.depositEnabled === true,
    ereportingEnabled: input.ereportingEnabled === true,
    created: ctx.now,
    updated: ctx.now,
  };
  try {
    await inTransaction(deps.db, ctx, async (tx) => {
      await lockScopeEstablishments(tx, ctx.scope);
      if (connection) await checkConnectedQuota(tx, ctx, company.plan, null);
      await insertChecked(tx, ctx, row);
    });
  } catch (error) {
    // Two creations racing past the lock cannot happen; a unique index still has the last word.
    if (isUniqueViolation(error, 'establishments_siret')) throw duplicate(row.siret);
    throw error;
  }
  return toEstablishment(row);
}

export async function getEstablishment(deps: Pick<Deps, 'db'>, scope: Scope, id: string): Promise<Establishment> {
  const row = await findEstablishment(deps.db, scope, id);
  if (!row) throw notFound(id);
  return toEstablishment(row);
}

export async function listEstablishments(
  deps: Pick<Deps, 'db'>,
  scope: Scope,
  page: PageRequest,
): Promise<ListEnvelope<Establishment>> {
  const rows = await pageEstablishments(deps.db, scope, page);
  return toListEnvelope(rows, page, '/v1/establishments', (row) => row.id, toEstablishment);
}

/** The SIRET never changes (it is the establishment); name, address, electronic address and the default do. */
export async function updateEstablishment(
  deps: Pick<Deps, 'db' | 'config' | 'resolveHost'>,
  ctx: CallContext,
  id: string,
  changes: EstablishmentChanges,
): Promise<Establishment> {
  const fields: Partial<EstablishmentRow> = { updated: ctx.now };
  let plan: string | null = null;
  if (changes.platform) {
    const existing = await findEstablishment(deps.db, ctx.scope, id);
    if (!existing) throw notFound(id);
    plan = (await getCompany(deps, ctx.scope.companyId)).plan;
    await checkConnectedQuota(deps.db, ctx, plan, id);
    const connection = await verifiedConnection(deps, existing.siret, changes.platform);
    Object.assign(fields, connectionColumns(deps, existing, connection, ctx.now));
  } else if (changes.platform === null) Object.assign(fields, disconnected);
  if (changes.depositEnabled !== undefined) fields.depositEnabled = changes.depositEnabled;
  if (changes.ereportingEnabled !== undefined) fields.ereportingEnabled = changes.ereportingEnabled;
  if (changes.name !== undefined) fields.name = nameOf(changes.name);
  if (changes.address !== undefined) fields.address = checkAddress(changes.address);
  if (changes.einvoiceSyntax !== undefined) fields.einvoiceSyntax = changes.einvoiceSyntax;
  if (changes.electronicAddress !== undefined)
    fields.electronicAddress = changes.electronicAddress ? checkElectronicAddress(changes.electronicAddress) : null;
  const row = await inTransaction(deps.db, ctx, async (tx) => {
    await lockScopeEstablishments(tx, ctx.scope);
    const current = await findEstablishment(tx, ctx.scope, id);
    if (!current) throw notFound(id);
    if (plan !== null) await checkConnectedQuota(tx, ctx, plan, id);
    if (changes.isDefault === false && current.isDefault)
      throw refuse(
        'invalid_field_value',
        `Establishment ${id} is the default; make another one the default (\`isDefault: true\` on it) instead.`,
        { param: 'isDefault' },
      );
    if (changes.isDefault === true && !current.isDefault) {
      await clearDefault(tx, ctx.scope, ctx.now);
      fields.isDefault = true;
    }
    return updateEstablishmentRow(tx, ctx.scope, id, fields);
  });
  return toEstablishment(row);
}

/**
 * The establishment that issues a document: the one of `siret` (the tax profile's) when it is
 * one of the company's, else the default; null when the scope has none.
 */
export async function sellerEstablishment(
  db: Executor,
  scope: Scope,
  siret: string | null,
): Promise<SellerEstablishment | null> {
  const row = (siret !== null ? await findBySiret(db, scope, siret) : undefined) ?? (await findDefault(db, scope));
  return row ? sellerEstablishmentOf(row) : null;
}

/** `sellerEstablishment` as a lookup of a bigger statement, on a SIRET the statement gives (null: the default). */
export function sellerEstablishmentLookup(scope: Scope, siret: SQL): Lookup<SellerEstablishment | null> {
  return mapLookup(bySiretOrDefaultLookup(scope, siret), (row) => row && sellerEstablishmentOf(row));
}

function sellerEstablishmentOf(row: EstablishmentRow): SellerEstablishment {
  const shown = toEstablishment(row);
  return { id: row.id, siret: row.siret, address: row.address, electronicAddress: shown.electronicAddress };
}

/** Whether `siret` is one of the company's establishments in this environment. */
export async function isEstablishmentSiret(db: Executor, scope: Scope, siret: string): Promise<boolean> {
  return (await findBySiret(db, scope, siret)) !== undefined;
}

/** Sandbox reset: every test establishment goes. */
export async function purgeTestEstablishments(tx: Executor, scope: Scope): Promise<number> {
  if (scope.livemode) throw new Error('refusing to purge live establishments');
  return deleteScopeEstablishments(tx, scope);
}

/** The first establishment number of a SIREN (NIC `0001` + its key): `732829320` -> `73282932000017`. */
export function firstSiretOf(siren: string): string {
  for (let digit = 0; digit < 10; digit++) {
    const siret = `${siren}0001${digit}`;
    if (isValidSiret(siret)) return siret;
  }
  throw new Error(`no SIRET for SIREN ${siren}`);
}

/** The fixture head office of the sandbox (and of demo and test companies): documented in the README. */
export const headOfficeAddress: EstablishmentAddress = {
  line1: '10 rue de la Paix',
  line2: null,
  postalCode: '75002',
  city: 'Paris',
  country: 'FR',
};

/**
 * Sandbox reset (and the set-up of demo and test companies): the head office, default, with a
 * fixed id like every fixture, unless the scope already has establishments.
 */
export async function seedHeadOffice(tx: Executor, scope: Scope, siren: string): Promise<number> {
  if (await findDefault(tx, scope)) return 0;
  const siret = firstSiretOf(siren);
  if (await findBySiret(tx, scope, siret)) return 0;
  const created = fixtureCreated(1);
  await insertEstablishment(tx, {
    ...scope,
    id: fixtureId('establishment', scope.companyId, `head_office_${scope.livemode ? 'live' : 'test'}`, 1),
    siret,
    name: 'Siège',
    address: headOfficeAddress,
    electronicAddress: null,
    einvoiceSyntax: 'cii',
    isDefault: true,
    ...notConnected,
    created,
    updated: created,
  });
  return 1;
}

/**
 * The head office in each environment of a demo or test company, each in its own fenced
 * transaction (no request, so no idempotency mark).
 */
export async function seedHeadOffices(
  deps: Pick<Deps, 'db' | 'clock'>,
  companyId: string,
  siren: string,
  environments: readonly boolean[] = [false, true],
): Promise<void> {
  for (const livemode of environments) {
    const ctx: CallContext = {
      scope: { companyId, livemode },
      requestId: null,
      idempotencyKey: null,
      apiVersion: '',
      now: deps.clock.now(),
    };
    await inTransaction(deps.db, ctx, (tx) => seedHeadOffice(tx, ctx.scope, siren));
  }
}

/** The scope's establishments connected to a platform (the plan's quota counts them). */
export async function countConnectedEstablishments(db: Executor, scope: Scope): Promise<number> {
  return countConnected(db, scope, null);
}

/** The establishments connected to a platform, across tenants (a worker's pass), or these companies'. */
export function connectedEstablishments(
  db: Executor,
  companyIds?: readonly string[],
): Promise<{ companyId: string; livemode: boolean; id: string }[]> {
  return connectedRows(db, companyIds);
}
