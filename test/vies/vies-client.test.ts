import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createViesClient, readViesAnswer } from '../../src/vies/vies-client.js';
import { startViesServer } from '../support/vies-server.js';

test('the VIES client reads the REST answers and never takes a failure for a yes or a no', async (t) => {
  const vies = await startViesServer();
  t.after(() => vies.close());
  const client = createViesClient({ baseUrl: `${vies.url}/`, timeoutMs: 300 });

  await t.test('valid with requester: the consultation number; without: none; `---` is no name', async () => {
    vies.behaviour.set('EL094259216', 'valid');
    const asked = await client.check({ vatNumber: 'EL094259216', requester: 'FR44732829320' });
    assert.equal(asked.outcome, 'valid');
    assert.ok(asked.outcome === 'valid' && asked.requestIdentifier?.startsWith('WAPIAAAAZ'));
    assert.deepEqual(vies.requests.at(-1), {
      countryCode: 'EL',
      vatNumber: '094259216',
      requesterMemberStateCode: 'FR',
      requesterNumber: '44732829320',
    });
    const anonymous = await client.check({ vatNumber: 'EL094259216', requester: null });
    assert.ok(anonymous.outcome === 'valid' && anonymous.requestIdentifier === null);
    assert.deepEqual(vies.requests.at(-1), { countryCode: 'EL', vatNumber: '094259216' });
    vies.behaviour.set('DE100142542', 'invalid');
    const no = await client.check({ vatNumber: 'DE100142542', requester: null });
    assert.deepEqual(no, {
      outcome: 'invalid',
      requestDate: '2026-12-02T07:00:00.000Z',
      requestIdentifier: null,
      name: null,
      address: null,
    });
  });

  await t.test('errors: INVALID_INPUT is a no; MS_UNAVAILABLE, 503, time-out, malformed are unavailable', async () => {
    vies.behaviour.set('DE100261327', 'INVALID_INPUT');
    assert.equal((await client.check({ vatNumber: 'DE100261327', requester: null })).outcome, 'invalid');
    for (const [number, behaviour, failure] of [
      ['DE100372193', 'MS_UNAVAILABLE', /^MS_UNAVAILABLE$/],
      ['DE100435545', 'http503', /^HTTP 503/],
      ['DE100483059', 'timeout', /^timeout/],
      ['DE100641439', 'malformed', /no `valid`/],
    ] as const) {
      vies.behaviour.set(number, behaviour);
      const answer = await client.check({ vatNumber: number, requester: null });
      assert.equal(answer.outcome, 'unavailable', behaviour);
      assert.match(answer.outcome === 'unavailable' ? answer.failure : '', failure, behaviour);
    }
    const refused = await createViesClient({ baseUrl: 'http://127.0.0.1:1', timeoutMs: 300 }).check({
      vatNumber: 'DE100261327',
      requester: null,
    });
    assert.equal(refused.outcome, 'unavailable');
  });

  await t.test('an answer about another number, or a userError, is not an answer', () => {
    const other = JSON.stringify({ countryCode: 'DE', vatNumber: '999999999', valid: true, requestDate: 'x' });
    assert.equal(readViesAnswer(200, other, 'DE100261327').outcome, 'unavailable');
    const userError = JSON.stringify({
      countryCode: 'DE',
      vatNumber: '100261327',
      valid: false,
      userError: 'MS_UNAVAILABLE',
    });
    assert.deepEqual(readViesAnswer(200, userError, 'DE100261327'), {
      outcome: 'unavailable',
      failure: 'MS_UNAVAILABLE',
    });
    assert.equal(readViesAnswer(200, '[]', 'DE100261327').outcome, 'unavailable');
  });
});
