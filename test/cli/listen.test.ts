/**
 * `facteur listen` and `facteur trigger` against a real HTTP service (the app listening on a
 * port) and a real local HTTPS receiver that verifies the signature as the contract says a
 * consumer does: HMAC-SHA256 of "<t>.<raw body>" with the printed secret, in constant time.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { startHarness, type Harness } from '../support/harness.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';
import { runListen, runTrigger } from '../../src/cli/developer-commands.js';
import { ApiError } from '../../src/kernel/errors.js';
import { cleanEnv, runFacteur, startFacteur } from '../support/processes.js';

const timeout = 120_000;

function verified(header: string, body: string, secret: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=') as [string, string]));
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return (
    given.length === expected.length &&
    timingSafeEqual(given, expected) &&
    Math.abs(Date.now() / 1000 - Number(parts.t)) <= 300
  );
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('facteur listen and trigger', { timeout }, () => {
  let h: Harness;
  let apiUrl: string;
  let receiver: Receiver;
  before(async () => {
    h = await startHarness();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    apiUrl = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
    receiver = await startReceiver('/webhooks');
  });
  after(async () => {
    await receiver.close();
    await h.close();
  });

  test('forwards each new test event signed with the printed secret, one line each with the answer', async () => {
    const { key } = await h.tenant();
    const options = ['--api-key', key, '--api-url', apiUrl];
    // An event from before the start is not forwarded.
    const before = await runTrigger(h.deps.config, ['customer.created', ...options], {});
    const lines: string[] = [];
    const stop = new AbortController();
    const secret = 'whsec_listentestsecret0000000000000000';
    const listening = runListen(
      h.deps.config,
      ['--forward-to', receiver.url, '--secret', secret, '--interval-ms', '200', ...options],
      (line) => lines.push(line),
      stop.signal,
      {},
    );
    try {
      await until(() => lines.some((line) => line.startsWith('Ready.')), 'the ready line');
      assert.ok(
        lines.some((line) => line.includes(secret)),
        `the secret is printed:\n${lines.join('\n')}`,
      );
      receiver.fallback = { status: 204 };
      const first = (await runTrigger(h.deps.config, ['customer.created', ...options], {})) as { object: string };
      h.clock.advance(1000);
      const second = (await runTrigger(h.deps.config, ['customer.deleted', ...options], {})) as { object: string };
      await until(() => lines.filter((line) => line.includes('-> POST')).length >= 3, 'three forwarded events');
      assert.equal(receiver.received.length, 3);
      const bodies = receiver.received.map((request) => JSON.parse(request.body));
      const forwardedPairs = bodies.map((event) => [event.type, event.data.id ?? event.data.object?.id].join(' '));
      // Oldest first: the first customer; then the second's creation and deletion (the same instant: either order).
      assert.equal(forwardedPairs[0], `customer.created ${first.object}`);
      assert.deepEqual(forwardedPairs.slice(1).sort(), [
        `customer.created ${second.object}`,
        `customer.deleted ${second.object}`,
      ]);
      assert.ok(
        !bodies.some((event) => (event.data.id ?? event.data.object?.id) === (before as { object: string }).object),
      );
      for (const request of receiver.received) {
        assert.ok(verified(String(request.headers['service-signature']), request.body, secret), 'signature verifies');
        assert.ok(!verified(String(request.headers['service-signature']), request.body, 'whsec_other'));
        const event = JSON.parse(request.body);
        assert.equal(request.headers['service-event-id'], event.id);
        assert.equal(request.headers['service-event-type'], event.type);
        assert.equal(request.headers['user-agent'], 'Service-Webhooks/1.0');
        assert.equal(event.livemode, false);
      }
      const forwarded = lines.filter((line) => line.includes('-> POST'));
      assert.match(
        forwarded[0]!,
        /customer\.created {2}evt_\S+ {2}-> POST https:\/\/localhost:\d+\/webhooks {2}\[204\]$/,
      );
    } finally {
      stop.abort();
      await listening;
    }
  });

  test('a live key is refused, and an event type that cannot be triggered says which can', async () => {
    const { key: liveKey } = await h.tenant({ env: 'live' });
    await assert.rejects(
      runTrigger(h.deps.config, ['customer.created', '--api-key', liveKey, '--api-url', apiUrl], {}),
      (error: unknown) => error instanceof ApiError && error.code === 'invalid_field_value',
    );
    const { key } = await h.tenant();
    await assert.rejects(
      runTrigger(h.deps.config, ['quote.accepted', '--api-key', key, '--api-url', apiUrl], {}),
      (error: unknown) =>
        error instanceof ApiError && error.code === 'invalid_field_value' && error.message.includes('customer.created'),
    );
  });

  test('through the command line: facteur listen forwards until SIGTERM; facteur trigger without a key is refused', async () => {
    const { key } = await h.tenant();
    const env = cleanEnv({ FACTEUR_API_KEY: key });
    const listening = startFacteur(
      ['listen', '--api-url', apiUrl, '--forward-to', receiver.url, '--interval-ms', '200'],
      env,
    );
    try {
      const [, secret] = (await listening.waitForStdout(/Signing secret[^:]*: (whsec_\S+)/, 90_000)) as unknown as [
        string,
        string,
      ];
      const before = receiver.received.length;
      receiver.fallback = { status: 200 };
      await runTrigger(h.deps.config, ['customer.created', '--api-url', apiUrl, '--api-key', key], {});
      await listening.waitForStdout(/customer\.created {2}evt_\S+ {2}-> POST \S+ {2}\[200\]/, 60_000);
      const request = receiver.received[before]!;
      assert.ok(
        verified(String(request.headers['service-signature']), request.body, secret),
        'the printed secret signs',
      );
    } finally {
      listening.kill('SIGTERM');
    }
    assert.equal((await listening.waitForExit(60_000)).code, 0, listening.describe());
    const refused = await runFacteur(['trigger', 'customer.created', '--api-url', apiUrl], cleanEnv());
    assert.notEqual(refused.code, 0);
    assert.equal(JSON.parse(refused.stderr).error.code, 'missing_required_field');
  });
});
