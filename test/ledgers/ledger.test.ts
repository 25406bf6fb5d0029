import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startHarness, contextFor } from '../support/harness.js';
import { ApiError } from '../../src/kernel/errors.js';
import { createTaxDecision } from '../../src/tax/service.js';
import { countDecisionShare } from '../../src/ledgers/service.js';
import { thresholdPosition, reliefPosition, standing } from '../../src/ledgers/ledger-rules.js';
import type { DecisionInput } from '../../src/tax/decision-input.js';
import { consumer, line, withLedger, withProfile } from '../tax/support.js';

/** research/eu-vat-domain.md section 3: the supply that makes the total exceed EUR 10,000 is already taxed at destination. */
test('threshold and relief positions (pure)', () => {
  const rows: [number, number, number, number, string][] = [
    // previous year, counted, pending, share, position
    [0, 0, 0, 1_000_000, 'origin'],
    [0, 0, 0, 1_000_001, 'destination'],
    [1_000_001, 0, 0, 1, 'destination'],
    [0, 900_000, 0, 100_000, 'origin'],
    [0, 900_000, 60_000, 60_000, 'pending'],
    [0, 950_000, 40_000, 60_000, 'destination'],
  ];
  for (const [previous, counted, pending, share, expected] of rows)
    assert.equal(
      thresholdPosition(previous, { counted, pending }, share),
      expected,
      JSON.stringify([previous, counted, pending, share]),
    );
  assert.equal(reliefPosition(0, { counted: 9_999_999, pending: 0 }, 1), 'established');
  assert.equal(reliefPosition(10_000_001, { counted: 0, pending: 0 }, 1), 'not_established');
  assert.equal(reliefPosition(0, { counted: 9_000_000, pending: 2_000_000 }, 1), 'pending');
  assert.equal(standing(0, { counted: 900_000, pending: 200_000 }, 1_000_000), 'undetermined');
});

test('EU threshold ledgers over HTTP', async (t) => {
  const h = await startHarness({ clockStart: '2026-10-15T10:00:00Z', poolSize: 12 });
  t.after(() => h.close());
  const decision = (customer: unknown, price = '600.00', extra: Record<string, unknown> = {}) => ({
    taxSource: 'service',
    date: '2026-10-15',
    currency: 'EUR',
    customer,
    lines: [line({ quantity: '1', unitPrice: price })],
    ...extra,
  });

  await t.test('open once per year; year and dates checked', async () => {
    const { key } = await h.tenant();
    const opened = await h.call('POST', '/v1/eu-threshold-ledgers', { key, body: { year: 2026 } });
    assert.equal(opened.statusCode, 201, opened.body);
    assert.equal(opened.data.distanceSales.counted, 0, 'opening figures default to zero');
    assert.deepEqual(
      opened.data.entries.map((e: { kind: string }) => e.kind),
      ['opening'],
    );
    const again = await h.call('POST', '/v1/eu-threshold-ledgers', { key, body: { year: 2026 } });
    assert.equal(again.data.error.code, 'eu_threshold_year_already_open');
    for (const year of [2019, 2030])
      assert.equal(
        (await h.call('POST', '/v1/eu-threshold-ledgers', { key, body: { year } })).data.error.code,
        'eu_threshold_year_invalid',
      );
    assert.equal(
      (
        await h.call('POST', '/v1/eu-threshold-ledgers', {
          key,
          body: { year: 2025, opening: { coveredUntil: '2026-01-01' } },
        })
      ).data.error.code,
      'eu_threshold_date_outside_year',
    );
    assert.equal(
      (
        await h.call('POST', '/v1/eu-threshold-ledgers/2026/adjustments', {
          key,
          body: { reference: 'r', coveredUntil: '2026-10-16' },
        })
      ).data.error.code,
      'eu_threshold_date_in_future',
    );
    assert.equal(
      (
        await h.call('POST', '/v1/eu-threshold-ledgers/2025/adjustments', {
          key,
          body: { reference: 'r', coveredUntil: '2025-10-16' },
        })
      ).data.error.code,
      'eu_threshold_state_missing',
    );
    assert.equal((await h.call('GET', '/v1/eu-threshold-ledgers/2025', { key })).statusCode, 404);
    const parallel = await Promise.all(
      Array.from({ length: 5 }, () => h.call('POST', '/v1/eu-threshold-ledgers', { key, body: { year: 2025 } })),
    );
    assert.equal(parallel.filter((r) => r.statusCode === 201).length, 1, 'one ledger per year, even in parallel');
    assert.ok(
      parallel.filter((r) => r.statusCode !== 201).every((r) => r.data.error.code === 'eu_threshold_year_already_open'),
    );
  });

  await t.test(
    'adjustments never lower the total; references are idempotent or conflict; corrections bounded by remainingMin',
    async () => {
      const { key } = await h.tenant();
      await h.call('POST', '/v1/eu-threshold-ledgers', {
        key,
        body: { year: 2026, opening: { distanceSales: 300_000 } },
      });
      const decrease = await h.call('POST', '/v1/eu-threshold-ledgers/2026/adjustments', {
        key,
        body: { reference: 'a1', distanceSales: -100, coveredUntil: '2026-10-01' },
      });
      assert.equal(decrease.data.error.code, 'eu_threshold_decrease_not_sourced');
      const adjusted = await h.call('POST', '/v1/eu-threshold-ledgers/2026/adjustments', {
        key,
        body: { reference: 'a1', distanceSales: 50_000, coveredUntil: '2026-10-01' },
      });
      assert.equal(adjusted.data.distanceSales.counted, 350_000);
      assert.equal(adjusted.data.coveredUntil, '2026-10-01');
      const same = await h.call('POST', '/v1/eu-threshold-ledgers/2026/adjustments', {
        key,
        body: { reference: 'a1', distanceSales: 50_000, coveredUntil: '2026-10-01' },
      });
      assert.equal(same.data.distanceSales.counted, 350_000, 'the same reference and content records nothing new');
      const conflict = await h.call('POST', '/v1/eu-threshold-ledgers/2026/adjustments', {
        key,
        body: { reference: 'a1', distanceSales: 60_000, coveredUntil: '2026-10-01' },
      });
      assert.equal(conflict.data.error.code, 'eu_threshold_entry_conflict');
      const adjustment = adjusted.data.entries.find((e: { reference: string | null }) => e.reference === 'a1');
      assert.deepEqual(adjustment.remainingMin, { distanceSales: 50_000, electronicServices: 0 });
      const unknown = await h.call('POST', '/v1/eu-threshold-ledgers/2026/corrections', {
        key,
        body: { reference: 'c0', entryId: 'ledg_01m80kd1cn1220tzdk3rc8ms8q', distanceSales: 1 },
      });
      assert.equal(unknown.data.error.code, 'eu_threshold_correction_target_unknown');
      const tooMuch = await h.call('POST', '/v1/eu-threshold-ledgers/2026/corrections', {
        key,
        body: { reference: 'c1', entryId: adjustment.id, distanceSales: 50_001 },
      });
      assert.equal(tooMuch.data.error.code, 'eu_threshold_correction_exceeds_counted');
      // Parallel corrections of 20,000 each on a movement counting 50,000: two pass, the rest exceed.
      const parallel = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          h.call('POST', '/v1/eu-threshold-ledgers/2026/corrections', {
            key,
            body: { reference: `p${i}`, entryId: adjustment.id, distanceSales: 20_000, reason: 'credit note' },
          }),
        ),
      );
      assert.equal(parallel.filter((r) => r.statusCode === 200).length, 2);
      assert.ok(
        parallel
          .filter((r) => r.statusCode !== 200)
          .every((r) => r.data.error.code === 'eu_threshold_correction_exceeds_counted'),
      );
      const ledger = (await h.call('GET', '/v1/eu-threshold-ledgers/2026', { key })).data;
      assert.equal(ledger.distanceSales.counted, 310_000);
      const correction = ledger.entries.find((e: { kind: string }) => e.kind === 'correction');
      const notCorrectable = await h.call('POST', '/v1/eu-threshold-ledgers/2026/corrections', {
        key,
        body: { reference: 'c2', entryId: correction.id, distanceSales: 1 },
      });
      assert.equal(notCorrectable.data.error.code, 'eu_threshold_correction_target_not_correctable');
      assert.equal(
        (
          await h.call('POST', '/v1/eu-threshold-ledgers/2026/reconciliations', {
            key,
            body: { lastEntryId: ledger.lastEntryId, distanceSales: 310_000, electronicServices: 0 },
          })
        ).data.error.code,
        'eu_threshold_not_under_review',
      );
    },
  );

  await t.test('decisions need coverage up to their day and come in date order', async () => {
    const { key } = await h.tenant();
    await withProfile(h, key);
    await h.call('POST', '/v1/eu-threshold-ledgers', {
      key,
      body: { year: 2026, opening: { coveredUntil: '2026-10-10' } },
    });
    const uncovered = await h.call('POST', '/v1/tax-decisions', { key, body: decision(consumer('IT', '20121')) });
    assert.equal(uncovered.data.error.code, 'eu_threshold_external_coverage_incomplete');
    await h.call('POST', '/v1/eu-threshold-ledgers/2026/adjustments', {
      key,
      body: { reference: 'zero', coveredUntil: '2026-10-15' },
    });
    assert.equal(
      (await h.call('POST', '/v1/tax-decisions', { key, body: decision(consumer('IT', '20121')) })).data.status,
      'final',
    );
    const backdated = await h.call('POST', '/v1/tax-decisions', {
      key,
      body: { ...decision(consumer('IT', '20121')), date: '2026-10-12' },
    });
    assert.equal(backdated.data.error.code, 'eu_threshold_backdated_operation');
  });

  await t.test(
    'concurrent decisions near the ceiling: one reserves, the others are suspended (row lock on the ledger)',
    async () => {
      const { key } = await h.tenant();
      await withProfile(h, key);
      await withLedger(h, key, { counted: 900_000 });
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          h.call('POST', '/v1/tax-decisions', { key, body: decision(consumer('IT', '20121')) }),
        ),
      );
      assert.ok(
        answers.every((a) => a.statusCode === 201),
        answers.map((a) => a.body).join('\n'),
      );
      const finals = answers.filter((a) => a.data.status === 'final');
      assert.equal(finals.length, 1);
      assert.equal(finals[0]!.data.lines[0].treatment, 'distance_sale_origin');
      for (const other of answers.filter((a) => a.data.status !== 'final')) {
        assert.equal(other.data.status, 'suspended');
        assert.equal(other.data.reasons[0].code, 'eu_threshold_concurrent_decision_pending');
        assert.equal(other.data.totals, null);
      }
      const ledger = (await h.call('GET', '/v1/eu-threshold-ledgers/2026', { key })).data;
      assert.deepEqual(
        [ledger.distanceSales.lowerBound, ledger.distanceSales.upperBound, ledger.distanceSales.standing],
        [900_000, 960_000, 'below'],
      );
      // A share that puts the total over the ceiling whatever the pending ones do: destination, at once.
      const big = await h.call('POST', '/v1/tax-decisions', {
        key,
        body: decision(consumer('IT', '20121'), '1500.00'),
      });
      assert.equal(big.data.status, 'final');
      assert.equal(big.data.lines[0].vatRate, '22.00');
      // The orphan share expires by itself after 15 minutes of the sandbox clock: then the ceiling is clear again.
      await h.call('POST', '/v1/sandbox/clock/advance', { key, body: { seconds: 15 * 60 } });
      const after = (await h.call('GET', '/v1/eu-threshold-ledgers/2026', { key })).data;
      assert.equal(after.distanceSales.pending, 0);
      assert.ok(
        after.entries
          .filter((e: { kind: string }) => e.kind === 'reservation')
          .every((e: { status: string }) => e.status === 'expired'),
      );
      const retried = await h.call('POST', '/v1/tax-decisions', {
        key,
        body: decision(consumer('IT', '20121'), '600.00', {
          retryOf: answers.find((a) => a.data.status === 'suspended')!.data.id,
        }),
      });
      assert.equal(retried.data.status, 'final', retried.body);
    },
  );

  await t.test('far from the ceiling, parallel decisions all reserve', async () => {
    const { key } = await h.tenant();
    await withProfile(h, key);
    await withLedger(h, key);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        h.call('POST', '/v1/tax-decisions', { key, body: decision(consumer('ES', '28001'), '100.00') }),
      ),
    );
    assert.ok(answers.every((a) => a.data.status === 'final'));
    assert.equal((await h.call('GET', '/v1/eu-threshold-ledgers/2026', { key })).data.distanceSales.pending, 100_000);
  });

  await t.test(
    'a vanished reservation: 409 eu_threshold_reservation_lost, no decision, the ledger under review until reconciled',
    async () => {
      const { companyId, key } = await h.tenant();
      await withProfile(h, key);
      await withLedger(h, key, { counted: 100_000 });
      const ctx = contextFor(companyId, false, h.clock.now());
      const input = decision(consumer('IT', '20121')) as unknown as DecisionInput;
      await assert.rejects(
        createTaxDecision(h.deps, ctx, input, { afterReservation: async () => h.clock.advance(16 * 60_000) }),
        (error: unknown) =>
          error instanceof ApiError && error.code === 'eu_threshold_reservation_lost' && error.status === 409,
      );
      h.clock.advance(-16 * 60_000);
      assert.deepEqual((await h.call('GET', '/v1/tax-decisions', { key })).data.data, [], 'no decision was created');
      const ledger = (await h.call('GET', '/v1/eu-threshold-ledgers/2026', { key })).data;
      assert.equal(ledger.status, 'under_review');
      assert.equal(ledger.entries.find((e: { id: string }) => e.id === ledger.lastEntryId).kind, 'review');
      const blocked = await h.call('POST', '/v1/tax-decisions', { key, body: decision(consumer('IT', '20121')) });
      assert.equal(blocked.data.status, 'suspended');
      assert.equal(blocked.data.reasons[0].code, 'eu_threshold_review_required');
      const mismatch = await h.call('POST', '/v1/eu-threshold-ledgers/2026/reconciliations', {
        key,
        body: { lastEntryId: ledger.lastEntryId, distanceSales: 99_000, electronicServices: 0 },
      });
      assert.equal(mismatch.data.error.code, 'eu_threshold_reconciliation_mismatch');
      assert.match(mismatch.data.error.message, /99000 cents.*100000 cents/);
      await h.call('POST', '/v1/eu-threshold-ledgers/2026/adjustments', {
        key,
        body: { reference: 'late', coveredUntil: '2026-10-15' },
      });
      const stale = await h.call('POST', '/v1/eu-threshold-ledgers/2026/reconciliations', {
        key,
        body: { lastEntryId: ledger.lastEntryId, distanceSales: 100_000, electronicServices: 0 },
      });
      assert.equal(stale.data.error.code, 'eu_threshold_reconciliation_stale');
      const current = (await h.call('GET', '/v1/eu-threshold-ledgers/2026', { key })).data;
      const closed = await h.call('POST', '/v1/eu-threshold-ledgers/2026/reconciliations', {
        key,
        body: { lastEntryId: current.lastEntryId, distanceSales: 100_000, electronicServices: 0 },
      });
      assert.equal(closed.data.status, 'open', closed.body);
      assert.equal(
        (await h.call('POST', '/v1/tax-decisions', { key, body: decision(consumer('IT', '20121')) })).data.status,
        'final',
      );
    },
  );

  await t.test(
    'a refusal of the reservation-lost kind replays identically with its Idempotency-Key; a finalized document counts the share',
    async () => {
      const { companyId, key } = await h.tenant();
      await withProfile(h, key);
      await withLedger(h, key);
      const headers = { 'idempotency-key': randomUUID() };
      const first = await h.call('POST', '/v1/tax-decisions', {
        key,
        body: decision(consumer('IT', '20121')),
        headers,
      });
      const replay = await h.call('POST', '/v1/tax-decisions', {
        key,
        body: decision(consumer('IT', '20121')),
        headers,
      });
      assert.equal(replay.body, first.body);
      assert.equal(
        (await h.call('GET', '/v1/eu-threshold-ledgers/2026', { key })).data.distanceSales.pending,
        60_000,
        'the replay reserved nothing',
      );
      await h.deps.db.transaction((tx) =>
        countDecisionShare(tx, { companyId, livemode: false }, first.data.id, h.clock.now()),
      );
      const ledger = (await h.call('GET', '/v1/eu-threshold-ledgers/2026', { key })).data;
      assert.deepEqual([ledger.distanceSales.counted, ledger.distanceSales.pending], [60_000, 0]);
      const counted = ledger.entries.find((e: { decisionId: string }) => e.decisionId === first.data.id);
      assert.equal(counted.status, 'counted');
      assert.deepEqual(counted.remainingMin, { distanceSales: 60_000, electronicServices: 0 });
    },
  );
});
