/**
 * The workers' wake-up after the commit (src/db/commit-notice.ts): heard once the transaction
 * committed, from another connection than the transaction's (a NOTIFY inside the transaction
 * would serialize the commits of every writer), never after a rollback, at once outside a
 * transaction, and never lost to coalescing: the last of a burst of commits is followed by a
 * notification.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { connect, disconnect } from '../../src/db/database.js';
import { inTransaction } from '../../src/db/transaction.js';
import { notifyOnCommit } from '../../src/db/commit-notice.js';

interface Heard {
  processId: number;
  at: number;
}

async function listening(t: { after(fn: () => Promise<void>): void }, channel: string): Promise<Heard[]> {
  const listener = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await listener.connect();
  t.after(() => listener.end());
  const heard: Heard[] = [];
  listener.on('notification', (message) => {
    if (message.channel === channel) heard.push({ processId: message.processId, at: performance.now() });
  });
  await listener.query(`listen "${channel}"`);
  return heard;
}

const channelName = () => `facteur_test_${randomBytes(6).toString('hex')}`;

async function until(condition: () => boolean, ms = 3000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  return condition();
}

test('a notice asked in a transaction is heard after its commit, from another connection than the transaction', async (t) => {
  const connection = connect(process.env.DATABASE_URL!, 4);
  t.after(() => disconnect(connection));
  const channel = channelName();
  const heard = await listening(t, channel);
  const backend = await inTransaction(connection.db, null, async (tx) => {
    await notifyOnCommit(tx, channel);
    const { rows } = await tx.execute(sql`select pg_backend_pid() as pid`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(heard.length, 0, 'nothing heard before the commit');
    return Number(rows[0]!.pid);
  });
  assert.ok(await until(() => heard.length > 0), 'heard after the commit');
  assert.notEqual(heard[0]!.processId, backend, "sent after the commit, not by the transaction's own NOTIFY");
});

test('a notice of a transaction rolled back is never sent', async (t) => {
  const connection = connect(process.env.DATABASE_URL!, 4);
  t.after(() => disconnect(connection));
  const channel = channelName();
  const heard = await listening(t, channel);
  await assert.rejects(
    inTransaction(connection.db, null, async (tx) => {
      await notifyOnCommit(tx, channel);
      throw new Error('refused');
    }),
    /refused/,
  );
  // A control notice after it: once it is heard, the first one would have been too.
  const control = channelName();
  const controlHeard = await listening(t, control);
  await notifyOnCommit(connection.db, control);
  assert.ok(await until(() => controlHeard.length > 0), 'outside a transaction: sent at once');
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.equal(heard.length, 0);
});

test('a burst of commits: notices coalesced, the last commit still followed by a notification', async (t) => {
  const connection = connect(process.env.DATABASE_URL!, 8);
  t.after(() => disconnect(connection));
  const channel = channelName();
  const heard = await listening(t, channel);
  let lastCommit = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let i = 0; i < 10; i += 1) {
        await inTransaction(connection.db, null, async (tx) => {
          await tx.execute(sql`select 1`);
          await notifyOnCommit(tx, channel);
        });
        lastCommit = Math.max(lastCommit, performance.now());
      }
    }),
  );
  assert.ok(await until(() => heard.some((notice) => notice.at > lastCommit)), 'a notification after the last commit');
  assert.ok(heard.length <= 40, `no more notifications than commits (${heard.length})`);
});
