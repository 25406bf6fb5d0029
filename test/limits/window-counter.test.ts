import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startHarness } from '../support/harness.js';
import { WindowCounter, type WindowHit } from '../../src/limits/store.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('leased window counts across two nodes', async (t) => {
  const h = await startHarness();
  const other = await startHarness({ poolSize: 4 });
  t.after(() => Promise.all([h.close(), other.close()]));
  const nodes = [new WindowCounter(h.deps.fast.pool), new WindowCounter(other.deps.fast.pool)];
  const windowCount = async (hit: WindowHit) =>
    (
      await h.deps.pool.query<{ count: number }>(
        'select count from rate_windows where bucket = $1 and window_start = $2',
        [hit.bucket, hit.windowStart],
      )
    ).rows[0]?.count ?? 0;
  const hitOf = (limit: number): WindowHit => ({
    bucket: `key:test_${randomBytes(6).toString('hex')}`,
    windowStart: new Date('2026-11-24T10:00:00Z'),
    limit,
  });

  for (const [name, spreadMs] of [
    ['all at once', 0],
    ['spread over a second', 1000],
  ] as const) {
    await t.test(`${name}: exactly the limit admitted, nothing held afterwards`, async () => {
      const hit = hitOf(100);
      const counts = await Promise.all(
        Array.from({ length: 300 }, async (_, i) => {
          await pause(Math.random() * spreadMs);
          const [count] = await nodes[i % 2]!.count([hit]);
          return count!;
        }),
      );
      const admitted = counts.filter((count) => count <= 100).sort((a, b) => a - b);
      if (spreadMs === 0)
        assert.deepEqual(
          admitted,
          Array.from({ length: 100 }, (_, i) => i + 1),
          'positions 1 to 100, each once',
        );
      // Spread out, a node's lease can fall idle and be given back mid-run; the positions handed out
      // since then may repeat a number (store.ts says so), never pass the limit.
      else
        assert.ok(
          admitted.length === 100 && admitted.every((count) => count >= 1),
          `exactly the limit admitted (${admitted.length})`,
        );
      // Refusals and idle leases give their positions back: the window counts the admitted only.
      await pause(700);
      assert.equal(await windowCount(hit), 100);
    });
  }

  await t.test('a node gives back what it leased and left idle: the other node gets it', async () => {
    const hit = hitOf(10);
    const first = await Promise.all(Array.from({ length: 3 }, () => nodes[0]!.count([hit])));
    assert.deepEqual(first.flat().sort(), [1, 2, 3]);
    // The first node holds a block larger than what it used; idle, it gives the rest back.
    assert.ok((await windowCount(hit)) >= 3);
    await pause(700);
    assert.equal(await windowCount(hit), 3);
    const second = await Promise.all(Array.from({ length: 10 }, () => nodes[1]!.count([hit])));
    assert.deepEqual(
      second
        .flat()
        .filter((count) => count <= 10)
        .sort((a, b) => a - b),
      [4, 5, 6, 7, 8, 9, 10],
    );
  });
});
