import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contextFor, startHarness } from '../support/harness.js';
import { startScript } from '../support/processes.js';
import { finalize } from '../../src/invoices/service.js';
import { currentValue } from '../../src/numbering/service.js';
import { advice, chair, customer, decision, readyDraft, seller, sellerSiren } from './support.js';

test('200 concurrent finalizations of one series, some refused before and some after taking their number: consecutive numbers, no gap, no duplicate', async (t) => {
  const h = await startHarness({ poolSize: 30 });
  t.after(() => h.close());
  const { companyId, key } = await seller(h);
  const customerId = await customer(h, key);
  const drafts: { id: string; fate: 'ok' | 'refused_before' | 'refused_after' }[] = [];
  for (let i = 0; i < 200; i++) {
    const fate = i % 10 === 3 ? 'refused_after' : i % 10 === 7 ? 'refused_before' : 'ok';
    if (fate === 'refused_before') {
      // The decision covers other lines: tax_decision_lines_mismatch, before any number.
      const taken = await decision(h, key, { customerId }, [advice]);
      const draft = (
        await h.call('POST', '/v1/invoices', { key, body: { customerId, lines: [chair], taxDecisionId: taken.id } })
      ).data;
      drafts.push({ id: draft.id, fate });
    } else {
      drafts.push({ id: (await readyDraft(h, key, { customerId })).id, fate });
    }
  }
  const seller_ = { siren: sellerSiren, plan: 'pro' as const };
  const results = await Promise.allSettled(
    drafts.map(({ id, fate }) =>
      finalize(h.deps, contextFor(companyId, false, h.clock.now()), 'invoice', id, seller_, {
        afterNumber: async () => {
          if (fate === 'refused_after') throw new Error(`${id} fails after taking its number`);
        },
      }),
    ),
  );
  const numbers: string[] = [];
  results.forEach((result, index) => {
    const { fate } = drafts[index]!;
    assert.equal(
      result.status === 'fulfilled',
      fate === 'ok',
      `${drafts[index]!.id} (${fate}): ${result.status === 'rejected' ? String(result.reason) : 'finalized'}`,
    );
    if (result.status === 'fulfilled') numbers.push(result.value.number!);
  });
  const expected = drafts.filter((d) => d.fate === 'ok').length;
  assert.equal(expected, 160);
  const sequence = numbers.map((n) => Number(n.split('-').at(-1))).sort((a, b) => a - b);
  assert.deepEqual(
    sequence,
    Array.from({ length: expected }, (_, i) => i + 1),
    'consecutive from 1, no gap, no duplicate',
  );
  assert.equal(
    await currentValue(h.deps.db, { companyId, livemode: false }, `TEST-F${h.clock.now().getUTCFullYear()}`),
    expected,
  );
  for (const { id, fate } of drafts) {
    if (fate !== 'ok')
      assert.equal(
        (await h.call('GET', `/v1/invoices/${id}`, { key })).data.number,
        null,
        'a refused finalization keeps no number',
      );
  }
});

test(
  'kill -9 while a finalization holds the counter: the number is given back, no gap',
  { timeout: 60_000 },
  async (t) => {
    const h = await startHarness();
    t.after(() => h.close());
    const { companyId, key } = await seller(h);
    const killed = await readyDraft(h, key);
    const next = await readyDraft(h, key);
    const script = startScript(
      new URL('./support/finalize-child.ts', import.meta.url),
      [companyId, killed.id],
      process.env,
      /HOLDING (\S+)/,
    );
    t.after(() => {
      if (script.child.exitCode === null && script.child.signalCode === null) script.child.kill('SIGKILL');
    });
    const held = (await script.reached)[1]!;
    assert.equal(held, `TEST-F${h.clock.now().getUTCFullYear()}-000001`);
    // Another finalization of the series waits for the counter the child holds...
    const waiting = h.call('POST', `/v1/invoices/${next.id}/finalize`, { key });
    const raced = await Promise.race([
      waiting.then(() => 'finished'),
      new Promise((resolve) => setTimeout(() => resolve('waiting'), 500)),
    ]);
    assert.equal(raced, 'waiting', "the counter row is locked by the child's transaction");
    // ...the child dies mid-finalization; PostgreSQL rolls its transaction back.
    script.child.kill('SIGKILL');
    const response = await waiting;
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.data.number, held, 'the number the dead process held is the next one given: no gap');
    assert.equal(
      (await h.call('GET', `/v1/invoices/${killed.id}`, { key })).data.documentStatus,
      'draft',
      'nothing of the dead finalization committed',
    );
    const after = await h.call('POST', `/v1/invoices/${killed.id}/finalize`, { key });
    assert.equal(after.data.number, `TEST-F${h.clock.now().getUTCFullYear()}-000002`);
  },
);
