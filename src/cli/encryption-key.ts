import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Deps } from '../deps.js';
import { resealColumns, type ColumnReseal } from '../db/sealed-columns.js';
import { inTransaction } from '../db/transaction.js';
import { refuse } from '../kernel/errors.js';
import { dataDirKeyPath, encryptionKeyOf, readEncryptionKeyFile } from '../kernel/sealed-secret.js';

/**
 * The start's step after the migrations: the stored secrets not yet in the current sealed form
 * (webhook signing secrets written in clear before migration 0025, v1 values) are sealed as v2
 * under the installation key, in one transaction. Done at start rather than on first read, so
 * no clear secret stays in the database until something happens to read it; it reads only the
 * values still to seal, so a start that finds none opens nothing.
 */
export async function sealStoredSecrets(deps: Pick<Deps, 'db' | 'config' | 'log'>): Promise<void> {
  const key = encryptionKeyOf(deps.config);
  const report = await inTransaction(deps.db, null, (tx) =>
    resealColumns(tx, { key, previousKey: null }, { pendingOnly: true }),
  );
  const resealed = Object.entries(report).filter(([, counts]) => counts.resealed > 0);
  if (resealed.length > 0)
    deps.log.info({ columns: Object.fromEntries(resealed) }, 'stored secrets sealed under the installation key');
  const unopened = Object.entries(report).filter(([, counts]) => counts.unopened > 0);
  if (unopened.length > 0)
    deps.log.error(
      { columns: Object.fromEntries(unopened) },
      'stored secrets that the installation key does not open: was FACTEUR_ENCRYPTION_KEY changed without `facteur encryption-key rotate`?',
    );
}

export interface Rotation {
  object: 'encryption_key_rotation';
  /** Per `table.column`: values sealed again under the new key, and values already under it. */
  columns: Record<string, Omit<ColumnReseal, 'unopened'>>;
}

/**
 * `facteur encryption-key rotate`: every stored secret sealed again under the configured key
 * (FACTEUR_ENCRYPTION_KEY or FACTEUR_ENCRYPTION_KEY_FILE, the new one), opened with the previous
 * key (`previousKeyFile`, by default the data directory's `encryption.key`), in one transaction.
 * A value already under the new key is left, so running it again changes nothing. When a value
 * opens with neither key, nothing is changed: the previous key given is not the right one.
 */
export async function rotateEncryptionKey(
  deps: Pick<Deps, 'db' | 'config'>,
  previousKeyFile: string | undefined,
): Promise<Rotation> {
  const key = deps.config.encryptionKey;
  if (!key)
    throw refuse(
      'missing_required_field',
      'Set FACTEUR_ENCRYPTION_KEY (or FACTEUR_ENCRYPTION_KEY_FILE) to the new key; the previous one is --previous-key-file.',
      { param: 'FACTEUR_ENCRYPTION_KEY' },
    );
  const path = previousKeyFile ? resolve(previousKeyFile) : dataDirKeyPath(deps.config.dataDir);
  if (!previousKeyFile && !existsSync(path))
    throw refuse(
      'invalid_field_value',
      `No ${path} (the data directory's key): give the previous key with --previous-key-file.`,
      { param: 'previous-key-file' },
    );
  let previousKey: Buffer;
  try {
    previousKey = readEncryptionKeyFile(path);
  } catch (error) {
    throw refuse('invalid_field_value', (error as Error).message, { param: 'previous-key-file' });
  }
  return inTransaction(deps.db, null, async (tx) => {
    const report = await resealColumns(tx, { key, previousKey }, { pendingOnly: false });
    const unopened = Object.entries(report).filter(([, counts]) => counts.unopened > 0);
    // Thrown inside the transaction: nothing is re-sealed, the old key keeps opening everything.
    if (unopened.length > 0)
      throw refuse(
        'invalid_field_value',
        `Neither key opens ${unopened.map(([column, counts]) => `${counts.unopened} value(s) of ${column}`).join(', ')}: nothing was changed. Check --previous-key-file.`,
        { param: 'previous-key-file' },
      );
    return {
      object: 'encryption_key_rotation' as const,
      columns: Object.fromEntries(
        Object.entries(report).map(([column, counts]) => [
          column,
          { resealed: counts.resealed, unchanged: counts.unchanged },
        ]),
      ),
    };
  });
}
