/**
 * Migration 0032 on a database holding the deposit jobs of before (`document_deposits`): every job
 * becomes a flow of the outbox (`platform_flows`, kind `invoices.deposit`) with its state, tries,
 * due time and flow id; a job held by a worker loses its lease (its tries kept: its next try
 * searches the platform first); the old table goes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createScratchDatabase } from '../support/scratch-database.js';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { migrateDatabase } from '../../src/db/database.js';

const drizzleFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

/** The migrations up to 0031 in a folder of their own. */
function migrationsUpTo31(): string {
  const folder = mkdtempSync(join(tmpdir(), 'facteur-0031-'));
  cpSync(join(drizzleFolder, 'meta'), join(folder, 'meta'), { recursive: true });
  for (const name of readdirSync(drizzleFolder).filter((file) => /^00([0-2]\d|3[01])_.*\.sql$/.test(file)))
    cpSync(join(drizzleFolder, name), join(folder, name));
  const journal = JSON.parse(readFileSync(join(drizzleFolder, 'meta/_journal.json'), 'utf8'));
  journal.entries = journal.entries.filter((entry: { idx: number }) => entry.idx <= 31);
  writeFileSync(join(folder, 'meta/_journal.json'), JSON.stringify(journal));
  return folder;
}

test('migration 0032 moves the deposit jobs into the outbox without loss: states, tries, due times, no lease kept', async () => {
  const scratch = await createScratchDatabase('facteur_deposit_migration');
  const { pool } = scratch;
  const folder = migrationsUpTo31();
  try {
    await migrate(drizzle(pool), { migrationsFolder: folder });
    await pool.query(
      `insert into document_deposits (company_id, livemode, document_id, attempt, document_kind, establishment_id, state,
         tracking_id, tries, duplicates, next_attempt_at, locked_until, lock_token, flow_id, last_error, created, updated) values
        ('co_d', true, 'inv_pending', 1, 'invoice', 'est_1', 'pending', 'inv_pending-a1', 0, 0,
          '2026-11-01T10:00:00Z', null, null, null, null, '2026-11-01T09:00:00Z', '2026-11-01T09:00:00Z'),
        ('co_d', true, 'inv_leased', 1, 'invoice', 'est_1', 'pending', 'inv_leased-a1', 1, 0,
          '2026-11-01T10:00:00Z', '2026-11-01T10:00:30Z', 'a-dead-worker', null, null, '2026-11-01T09:00:00Z', '2026-11-01T10:00:00Z'),
        ('co_d', true, 'inv_watch', 1, 'invoice', 'est_1', 'waiting_directory', 'inv_watch-a1', 2, 1,
          '2026-11-01T11:00:00Z', null, null, null, 'buyer_not_in_directory', '2026-11-01T09:00:00Z', '2026-11-01T10:00:00Z'),
        ('co_d', true, 'inv_done', 1, 'credit_note', 'est_1', 'deposited', 'inv_done-a1', 1, 0,
          null, null, null, 'flow-9', null, '2026-11-01T09:00:00Z', '2026-11-01T09:30:00Z'),
        ('co_d', false, 'inv_again', 1, 'invoice', 'est_2', 'rejected', 'inv_again-a1', 1, 0,
          null, null, null, 'flow-1', 'SYNTAX_ERROR', '2026-11-01T09:00:00Z', '2026-11-01T09:10:00Z'),
        ('co_d', false, 'inv_again', 2, 'invoice', 'est_2', 'superseded', 'inv_again-a2', 0, 0,
          null, null, null, null, null, '2026-11-01T09:20:00Z', '2026-11-01T09:40:00Z'),
        ('co_d', false, 'inv_again', 3, 'invoice', 'est_2', 'pending', 'inv_again-a3', 0, 0,
          '2026-11-01T09:40:00Z', null, null, null, null, '2026-11-01T09:40:00Z', '2026-11-01T09:40:00Z')`,
    );

    await migrateDatabase(scratch.url);

    const { rows } = await pool.query(
      `select livemode, kind, owner_id, tracking_id, establishment_id, detail, state, tries, next_attempt_at,
         locked_until, lock_token, flow_id, last_error, created, updated
       from platform_flows where company_id = 'co_d' order by tracking_id`,
    );
    const at = (iso: string) => new Date(iso);
    assert.deepEqual(
      rows.map((row) => [
        row.livemode,
        row.tracking_id,
        row.owner_id,
        row.detail,
        row.state,
        row.tries,
        row.next_attempt_at,
        row.locked_until,
        row.lock_token,
        row.flow_id,
        row.last_error,
      ]),
      [
        [
          false,
          'inv_again-a1',
          'inv_again',
          { attempt: 1, documentKind: 'invoice', duplicates: 0 },
          'failed',
          1,
          at('2026-11-01T09:10:00Z'),
          null,
          null,
          'flow-1',
          'SYNTAX_ERROR',
        ],
        [
          false,
          'inv_again-a2',
          'inv_again',
          { attempt: 2, documentKind: 'invoice', duplicates: 0 },
          'abandoned',
          0,
          at('2026-11-01T09:40:00Z'),
          null,
          null,
          null,
          null,
        ],
        [
          false,
          'inv_again-a3',
          'inv_again',
          { attempt: 3, documentKind: 'invoice', duplicates: 0 },
          'pending',
          0,
          at('2026-11-01T09:40:00Z'),
          null,
          null,
          null,
          null,
        ],
        [
          true,
          'inv_done-a1',
          'inv_done',
          { attempt: 1, documentKind: 'credit_note', duplicates: 0 },
          'deposited',
          1,
          at('2026-11-01T09:30:00Z'),
          null,
          null,
          'flow-9',
          null,
        ],
        // Held by a worker that is gone: free again, its try counted (the next one searches first).
        [
          true,
          'inv_leased-a1',
          'inv_leased',
          { attempt: 1, documentKind: 'invoice', duplicates: 0 },
          'pending',
          1,
          at('2026-11-01T10:00:00Z'),
          null,
          null,
          null,
          null,
        ],
        [
          true,
          'inv_pending-a1',
          'inv_pending',
          { attempt: 1, documentKind: 'invoice', duplicates: 0 },
          'pending',
          0,
          at('2026-11-01T10:00:00Z'),
          null,
          null,
          null,
          null,
        ],
        // Watching the directory: a pending flow due at its next look (the document's wait says why).
        [
          true,
          'inv_watch-a1',
          'inv_watch',
          { attempt: 1, documentKind: 'invoice', duplicates: 1 },
          'pending',
          2,
          at('2026-11-01T11:00:00Z'),
          null,
          null,
          null,
          'buyer_not_in_directory',
        ],
      ],
    );
    assert.ok(rows.every((row) => row.kind === 'invoices.deposit' && row.establishment_id?.startsWith('est_')));
    const { rows: table } = await pool.query(`select to_regclass('document_deposits') as found`);
    assert.equal(table[0].found, null, 'the old table is gone');
  } finally {
    rmSync(folder, { recursive: true, force: true });
    await scratch.drop();
  }
});
