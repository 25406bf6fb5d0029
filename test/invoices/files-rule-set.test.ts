import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { createFileWorker } from '../../src/invoices/generation.js';
import { testCacheDir } from '../einvoice/support.js';
import { customer, documentHarness, finalizedInvoice, frenchBuyer, seller } from './support.js';

/**
 * The rules by date: a document's files are validated by the official rule set in force on its
 * issue date (FNFE-MPE 1.4.0 before 1 September 2026, 1.4.0.03 from then), and the set is recorded
 * on the files resource and in the legal archive entry, under the entry's hash.
 */

test('the files are judged by the rule set in force on the issue date, named on the files and in the archive', async (t) => {
  const h = await documentHarness();
  t.after(() => h.close());
  const companyIds: string[] = [];
  const fileWorker = createFileWorker(h.deps, { cacheDir: testCacheDir, validators: 1, companyIds });
  t.after(() => fileWorker.stop());
  const live = await seller(h, { env: 'live' });
  companyIds.push(live.companyId);
  const customerId = await customer(h, live.key, { ...frenchBuyer, electronicAddress: '732829320' });

  // Issued on the last day of the first set, then under the second.
  h.clock.set('2026-08-31T10:00:00Z');
  const older = await finalizedInvoice(h, live.key, { customerId });
  h.clock.set('2026-10-15T10:00:00Z');
  const newer = await finalizedInvoice(h, live.key, { customerId });
  assert.equal(await fileWorker.drain(), 2);

  for (const [invoice, issueDate, ruleSet] of [
    [older, '2026-08-31', '1.4.0'],
    [newer, '2026-10-15', '1.4.0.03'],
  ] as const) {
    const read = await h.call('GET', `/v1/invoices/${invoice.id}`, { key: live.key });
    assert.equal(read.statusCode, 200, read.body);
    assert.equal(read.data.issueDate, issueDate);
    assert.deepEqual(
      read.data.files.map((file: any) => [file.kind, file.state, file.ruleSet]),
      [
        ['facturx', 'ready', ruleSet],
        ['xml', 'ready', ruleSet],
        ['pdf', 'ready', null],
        ['ubl', 'ready', ruleSet],
      ],
      `${invoice.number} issued ${issueDate}`,
    );
    const verification = await h.call('GET', `/v1/invoices/${invoice.id}/verify`, { key: live.key });
    assert.equal(verification.statusCode, 200, verification.body);
    assert.equal(verification.data.status, 'intact');
    assert.equal(verification.data.entry.ruleSet, ruleSet);
  }

  // The set is under the entry's hash: an entry whose set is rewritten no longer verifies, nor
  // does the chain through it.
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    await client.query('begin');
    await client.query('alter table archive_entries disable trigger archive_entries_append_only');
    await client.query(`update archive_entries set rule_set = '1.4.0' where company_id = $1 and document_id = $2`, [
      live.companyId,
      newer.id,
    ]);
    await client.query('alter table archive_entries enable trigger archive_entries_append_only');
    await client.query('commit');
  } finally {
    await client.end();
  }
  const altered = await h.call('GET', `/v1/invoices/${newer.id}/verify`, { key: live.key });
  assert.equal(altered.data.status, 'altered');
  assert.deepEqual(
    altered.data.checks.filter((check: any) => !check.ok).map((check: any) => check.check),
    ['entry_hash', 'chain'],
  );
});
