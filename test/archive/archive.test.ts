import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Harness } from '../support/harness.js';
import {
  customer,
  finalizedCreditNote,
  finalizedInvoice as finalizedWith,
  frenchBuyer,
  readyDraft,
  seller,
  documentHarness,
} from '../invoices/support.js';
import { createFileWorker } from '../../src/invoices/generation.js';
import { testCacheDir } from '../einvoice/support.js';
import pg from 'pg';

/**
 * The legal archive: live finalized documents enter their company's hash chain with their files'
 * hashes once generated; `GET .../verify` recomputes the entry, the chain up to it and the stored
 * files' hashes. Tampering is simulated as the tables' owner, the trigger disabled for the statement.
 */

const addressedBuyer = { ...frenchBuyer, electronicAddress: '732829320' };

async function finalizedInvoice(h: Harness, key: string) {
  return finalizedWith(h, key, { customerId: await customer(h, key, addressedBuyer) });
}

/**
 * As a superuser would: the append-only trigger off for one statement, in one transaction. On the
 * suite's own login (DATABASE_URL), not the service's pools, whose role owns no table.
 */
async function tamper(_h: Harness, statement: string, values: unknown[]): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query('begin');
    await client.query('alter table archive_entries disable trigger archive_entries_append_only');
    await client.query(statement, values);
    await client.query('alter table archive_entries enable trigger archive_entries_append_only');
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    await client.end();
  }
}

test('the legal archive', async (t) => {
  const h = await documentHarness();
  t.after(() => h.close());
  const companyIds: string[] = [];
  const fileWorker = createFileWorker(h.deps, { cacheDir: testCacheDir, validators: 1, companyIds });
  t.after(() => fileWorker.stop());

  /** A live seller with `count` finalized invoices whose files are generated. */
  async function archived(count: number) {
    const live = await seller(h, { env: 'live' });
    companyIds.push(live.companyId);
    const invoices = [];
    for (let index = 0; index < count; index++) invoices.push(await finalizedInvoice(h, live.key));
    assert.equal(await fileWorker.drain(), count);
    // In the chain's order (the order their files were stored in), which the tampering tests name.
    const { rows } = await h.deps.pool.query(
      'select document_id from archive_entries where company_id = $1 order by sequence',
      [live.companyId],
    );
    const order = rows.map((row: { document_id: string }) => row.document_id);
    invoices.sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
    return { ...live, invoices };
  }
  const verify = (key: string, id: string, path = 'invoices') => h.call('GET', `/v1/${path}/${id}/verify`, { key });

  await t.test('live documents enter the chain in order, each verified intact with its files', async () => {
    const { key, invoices } = await archived(3);
    const entries: any[] = [];
    for (const invoice of invoices) {
      const response = await verify(key, invoice.id);
      assert.equal(response.statusCode, 200, response.body);
      const result = response.data;
      assert.deepEqual(
        [result.object, result.status, result.intact, result.documentNumber, result.livemode],
        ['archive_verification', 'intact', true, invoice.number, true],
      );
      assert.deepEqual(
        result.checks.map((check: any) => [check.check, check.ok]),
        [
          ['entry', true],
          ['entry_hash', true],
          ['chain', true],
          ['files', true],
        ],
      );
      assert.equal(result.entry.documentId, invoice.id);
      assert.match(result.entry.entryHash, /^[0-9a-f]{64}$/);
      const read = await h.call('GET', `/v1/invoices/${invoice.id}`, { key });
      assert.deepEqual(
        result.entry.fileHashes,
        Object.fromEntries(read.data.files.map((file: any) => [file.kind, file.sha256])),
      );
      entries.push(result.entry);
    }
    // In the order they were archived (files stored), each linked to the one before.
    entries.sort((a, b) => a.sequence - b.sequence);
    assert.deepEqual(
      entries.map((entry) => entry.sequence),
      [1, 2, 3],
    );
    let previous = '0'.repeat(64);
    for (const entry of entries) {
      assert.equal(entry.previousHash, previous);
      previous = entry.entryHash;
    }
  });

  await t.test('any key may verify (no scope); another company gets not_found', async () => {
    const { companyId, invoices } = await archived(1);
    const scoped = await h.key(companyId, { env: 'live', scopes: ['customers:read'] });
    const response = await verify(scoped, invoices[0].id);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.data.status, 'intact');
    const other = await seller(h, { env: 'live' });
    const foreign = await verify(other.key, invoices[0].id);
    assert.equal(foreign.statusCode, 404);
    assert.equal(foreign.data.error.code, 'not_found');
  });

  await t.test(
    'test documents answer not archived; a draft too; a live document being generated is pending',
    async () => {
      const sandbox = await seller(h);
      companyIds.push(sandbox.companyId);
      const invoice = await finalizedInvoice(h, sandbox.key);
      assert.equal(await fileWorker.drain(), 1);
      const response = await verify(sandbox.key, invoice.id);
      assert.equal(response.statusCode, 200);
      assert.deepEqual([response.data.status, response.data.intact, response.data.entry], ['not_archived', null, null]);
      assert.match(response.data.message, /not archived/);
      const { rows } = await h.deps.pool.query('select count(*)::int as n from archive_entries where company_id = $1', [
        sandbox.companyId,
      ]);
      assert.equal(rows[0].n, 0, 'nothing of the test environment is in the archive');

      const live = await seller(h, { env: 'live' });
      const draft = await readyDraft(h, live.key, { customerId: await customer(h, live.key, addressedBuyer) });
      const ofDraft = await verify(live.key, draft.id);
      assert.equal(ofDraft.data.status, 'not_archived');
      assert.match(ofDraft.data.message, /draft: not archived/);
      const pending = await finalizedInvoice(h, live.key);
      const ofPending = await verify(live.key, pending.id);
      assert.equal(ofPending.data.status, 'pending');
      assert.match(ofPending.data.message, /being generated/);
    },
  );

  await t.test('a credit note is archived and verified on its own path', async () => {
    const { key, invoices } = await archived(1);
    const invoice = invoices[0];
    const note = { data: await finalizedCreditNote(h, key, invoice) };
    assert.equal(await fileWorker.drain(), 1);
    const response = await verify(key, note.data.id, 'credit-notes');
    assert.equal(response.data.status, 'intact', response.body);
    assert.equal(response.data.entry.sequence, 2);
    assert.equal(response.data.entry.documentKind, 'credit_note');
  });

  await t.test('the database refuses to update, delete or truncate the archive', async () => {
    const { companyId } = await archived(1);
    const owner = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await owner.connect();
    try {
      for (const statement of [
        `update archive_entries set document_number = 'X' where company_id = $1`,
        `delete from archive_entries where company_id = $1`,
        'truncate archive_entries',
      ]) {
        const values = statement.includes('$1') ? [companyId] : [];
        // The service's role holds no such privilege (migration 0013); the tables' owner meets the trigger.
        await assert.rejects(h.deps.pool.query(statement, values), /permission denied for table archive_entries/);
        await assert.rejects(owner.query(statement, values), /append-only/);
      }
    } finally {
      await owner.end();
    }
  });

  await t.test('a changed byte in a stored file is detected', async () => {
    const { companyId, key, invoices } = await archived(1);
    await h.deps.pool.query(
      `update document_files set xml = overlay(xml placing '\\x58'::bytea from 100 for 1) where company_id = $1`,
      [companyId],
    );
    const response = await verify(key, invoices[0].id);
    assert.deepEqual([response.data.status, response.data.intact], ['altered', false]);
    const failed = response.data.checks.filter((check: any) => !check.ok);
    assert.deepEqual(
      failed.map((check: any) => check.check),
      ['files'],
    );
    assert.match(failed[0].detail, /xml: the stored bytes hash to/);
    assert.match(response.data.message, /altered/);
  });

  await t.test('an edited entry is detected: its own hash, and the chain of every later entry', async () => {
    const { companyId, key, invoices } = await archived(2);
    await tamper(
      h,
      `update archive_entries set file_hashes = jsonb_set(file_hashes, '{xml}', to_jsonb(repeat('0', 64))) where company_id = $1 and sequence = 1`,
      [companyId],
    );
    const first = await verify(key, invoices[0].id);
    assert.equal(first.data.status, 'altered');
    const failedFirst = first.data.checks.filter((check: any) => !check.ok).map((check: any) => check.check);
    assert.deepEqual(failedFirst, ['entry_hash', 'chain', 'files']);
    const second = await verify(key, invoices[1].id);
    assert.equal(second.data.status, 'altered');
    const chain = second.data.checks.find((check: any) => check.check === 'chain');
    assert.equal(chain.ok, false);
    assert.match(chain.detail, /Entry 1 hashes to .* it was edited/);
    assert.ok(second.data.checks.find((check: any) => check.check === 'entry_hash').ok, 'its own entry is untouched');
  });

  await t.test('a removed entry is detected: by the documents after it, and by its own document', async () => {
    const { companyId, key, invoices } = await archived(2);
    await tamper(h, 'delete from archive_entries where company_id = $1 and sequence = 1', [companyId]);
    const second = await verify(key, invoices[1].id);
    assert.equal(second.data.status, 'altered');
    const chain = second.data.checks.find((check: any) => check.check === 'chain');
    assert.match(chain.detail, /Entry 1 is missing from the chain/);
    const first = await verify(key, invoices[0].id);
    assert.equal(first.data.status, 'altered');
    assert.deepEqual(
      first.data.checks.map((check: any) => [check.check, check.ok]),
      [['entry', false]],
    );
    assert.match(first.data.message, /the entry was removed/);
  });

  await t.test('the last entry removed is detected by its own document', async () => {
    const { companyId, key, invoices } = await archived(2);
    await tamper(h, 'delete from archive_entries where company_id = $1 and sequence = 2', [companyId]);
    const second = await verify(key, invoices[1].id);
    assert.equal(second.data.status, 'altered');
    assert.match(second.data.message, /no entry/);
    assert.equal((await verify(key, invoices[0].id)).data.status, 'intact');
  });
});
