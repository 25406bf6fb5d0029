import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { startHarness } from '../support/harness.js';
import { filesChannel } from '../../src/invoices/files-store.js';
import { finalizedInvoice, seller } from './support.js';

test('a finalization queues its files and wakes the file workers of every node at its commit', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const { key, companyId } = await seller(h);
  // A client of its own: what the file workers of other processes hear.
  const listener = new pg.Client({ connectionString: h.deps.pool.options.connectionString });
  await listener.connect();
  t.after(() => listener.end());
  let heard = 0;
  listener.on('notification', (message) => {
    if (message.channel === filesChannel) heard += 1;
  });
  await listener.query(`listen ${filesChannel}`);
  const invoice = await finalizedInvoice(h, key);
  const deadline = Date.now() + 2000;
  while (heard === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  // Other tests' finalizations on the same database may be heard too: at least this one's.
  assert.ok(heard >= 1, 'the finalization notified the file workers');
  const { rows } = await h.deps.pool.query(
    'select state from document_files where company_id = $1 and document_id = $2',
    [companyId, invoice.id],
  );
  assert.deepEqual(rows, [{ state: 'pending' }], 'the generation queued with the number');
});
