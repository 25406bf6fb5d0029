import { sql } from 'drizzle-orm';
import type { Executor } from './database.js';
import { isSealed, openSecret, sealSecret } from '../kernel/sealed-secret.js';

/**
 * Every column that holds a sealed secret (kernel/sealed-secret.ts), with the primary key that
 * names its rows: the writers and readers build a value's context here, and the start and the key
 * rotation walk the list to re-seal them all.
 */
export interface SealedColumn {
  table: string;
  column: string;
  /** The row's primary key columns, in order. */
  key: readonly string[];
  /** Written in clear by earlier versions (webhook signing secrets before migration 0025): sealed at start. */
  clearBefore?: true;
}

const readerKey = ['company_id', 'livemode', 'establishment_id'] as const;

export const sealedColumns = {
  platformClientSecret: { table: 'establishments', column: 'platform_client_secret', key: ['company_id', 'id'] },
  platformReaderSigningKey: { table: 'platform_readers', column: 'signing_key', key: readerKey },
  receivedReaderSigningKey: { table: 'received_readers', column: 'signing_key', key: readerKey },
  webhookSecret: { table: 'webhook_endpoints', column: 'secret', key: ['company_id', 'id'], clearBefore: true },
  webhookPreviousSecret: {
    table: 'webhook_endpoints',
    column: 'previous_secret',
    key: ['company_id', 'id'],
    clearBefore: true,
  },
  stripeSecretKey: { table: 'card_payment_providers', column: 'secret_key', key: ['company_id', 'livemode'] },
  stripeWebhookSecret: { table: 'card_payment_providers', column: 'webhook_secret', key: ['company_id', 'livemode'] },
} as const satisfies Record<string, SealedColumn>;

/** The associated data of a value of `column` in the row of primary key `key` (its values in order). */
export function sealContext(column: SealedColumn, key: readonly (string | boolean)[]): string {
  return `${column.table}.${column.column}:${key.map(String).join('/')}`;
}

/** What re-sealing did to one column. */
export interface ColumnReseal {
  /** Sealed again under the current key (a v1 value, a value under the previous key, a clear one). */
  resealed: number;
  /** Already v2 under the current key. */
  unchanged: number;
  /** Opened by neither key: left as it is. */
  unopened: number;
}

export interface ResealKeys {
  /** The key every value ends sealed with. */
  key: Buffer;
  /** The key being replaced, if any. */
  previousKey: Buffer | null;
}

/** The value sealed under `keys.key`, or 'unchanged', or null when neither key opens it. */
function resealedValue(column: SealedColumn, value: string, context: string, keys: ResealKeys): string | null {
  if (!isSealed(value)) return column.clearBefore ? sealSecret(keys.key, value, context) : null;
  if (value.startsWith('v2.')) {
    try {
      openSecret(keys.key, value, context);
      return 'unchanged';
    } catch {
      // Sealed under the previous key: opened below.
    }
  }
  for (const key of [keys.key, keys.previousKey]) {
    if (!key) continue;
    try {
      return sealSecret(keys.key, openSecret(key, value, context), context);
    } catch {
      // Not this key.
    }
  }
  return null;
}

/**
 * Re-seals the sealed columns' values as v2 under `keys.key`, in the caller's transaction (as
 * `facteur_worker`: every tenant's rows), each row locked while it is read; returns the counts per
 * `table.column`. `pendingOnly` reads only the values not yet v2 (the start: cheap, nothing
 * opened); otherwise every value is tried (the rotation). Running it twice changes nothing more.
 */
export async function resealColumns(
  tx: Executor,
  keys: ResealKeys,
  options: { pendingOnly: boolean },
): Promise<Record<string, ColumnReseal>> {
  const report: Record<string, ColumnReseal> = {};
  for (const column of Object.values(sealedColumns) as SealedColumn[]) {
    const counts: ColumnReseal = { resealed: 0, unchanged: 0, unopened: 0 };
    const table = sql.identifier(column.table);
    const target = sql.identifier(column.column);
    const keyColumns = sql.join(
      column.key.map((name) => sql.identifier(name)),
      sql`, `,
    );
    const pending = options.pendingOnly ? sql` and ${target} not like 'v2.%'` : sql``;
    const rows = await tx.execute(
      sql`select ${keyColumns}, ${target} as sealed_value from ${table} where ${target} is not null${pending} for update`,
    );
    for (const row of rows.rows as Record<string, string | boolean>[]) {
      const value = String(row.sealed_value);
      const keyValues = column.key.map((name) => row[name]!);
      const next = resealedValue(column, value, sealContext(column, keyValues), keys);
      if (next === 'unchanged') counts.unchanged += 1;
      else if (next === null) counts.unopened += 1;
      else {
        const sameRow = sql.join(
          column.key.map((name, index) => sql`${sql.identifier(name)} = ${keyValues[index]}`),
          sql` and `,
        );
        await tx.execute(sql`update ${table} set ${target} = ${next} where ${sameRow} and ${target} = ${value}`);
        counts.resealed += 1;
      }
    }
    report[`${column.table}.${column.column}`] = counts;
  }
  return report;
}
