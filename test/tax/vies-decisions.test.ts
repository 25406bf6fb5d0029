import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../support/harness.js';
import { startViesServer } from '../support/vies-server.js';
import { business, line, withProfile } from './support.js';

const decision = (body: Record<string, unknown>): Record<string, unknown> => ({
  taxSource: 'service',
  date: '2026-10-15',
  currency: 'EUR',
  ...body,
});
const goodsTo = (vatNumber: string) => decision({ customer: business('DE', '10117', vatNumber), lines: [line()] });
const servicesTo = (vatNumber: string) =>
  decision({ customer: business('DE', '10117', vatNumber), lines: [line({ nature: 'services' })] });

test('tax decisions resting on an intra-EU VAT number ask VIES', async (t) => {
  const vies = await startViesServer();
  const h = await startHarness({
    clockStart: '2026-10-15T10:00:00Z',
    config: { viesUrl: vies.url, viesTimeoutMs: 400 },
  });
  t.after(async () => {
    await h.close();
    await vies.close();
  });
  const live = async () => {
    const { companyId } = await h.tenant();
    const key = await h.key(companyId, { env: 'live' });
    await withProfile(h, key);
    return key;
  };

  await t.test('a number VIES does not know: 422 vat_validation_failed, no decision', async () => {
    const key = await live();
    vies.behaviour.set('DE100142542', 'invalid');
    for (const body of [goodsTo('DE100142542'), servicesTo('DE100142542')]) {
      const response = await h.call('POST', '/v1/tax-decisions', { key, body });
      assert.equal(response.statusCode, 422, response.body);
      assert.equal(response.data.error.code, 'vat_validation_failed');
      assert.equal(response.data.error.type, 'invalid_request_error');
      assert.equal(response.data.error.param, 'customer.vatNumber');
    }
    assert.equal((await h.call('GET', '/v1/tax-decisions', { key })).data.data.length, 0);
  });

  await t.test('a confirmed number: final, the consultation number kept on the decision', async () => {
    const key = await live();
    vies.behaviour.set('DE100261327', 'valid');
    const response = await h.call('POST', '/v1/tax-decisions', { key, body: goodsTo('DE100261327') });
    assert.equal(response.statusCode, 201, response.body);
    assert.equal(response.data.status, 'final');
    assert.equal(response.data.lines[0].treatment, 'intra_eu_supply');
    const proof = response.data.vatValidation;
    assert.equal(proof.vatNumber, 'DE100261327');
    assert.equal(proof.status, 'valid');
    assert.match(proof.requestIdentifier, /^WAPIAAAAZ\d{6}$/);
    assert.equal(proof.requestDate, '2026-12-02T07:00:00.000Z');
    assert.equal(proof.checkedAt, h.clock.now().toISOString());
    const read = await h.call('GET', `/v1/tax-decisions/${response.data.id}`, { key });
    assert.deepEqual(read.data.vatValidation, proof);
  });

  await t.test('a customer whose number VIES confirmed: the kept answer is reused, VIES not asked again', async () => {
    const key = await live();
    vies.behaviour.set('DE100372193', 'valid');
    const customer = await h.call('POST', '/v1/customers', {
      key,
      body: {
        type: 'company',
        name: 'Beispiel GmbH',
        vatNumber: 'DE100372193',
        address: { line1: 'Hauptstraße 1', postalCode: '10117', city: 'Berlin', country: 'DE' },
      },
    });
    assert.equal(customer.statusCode, 201, customer.body);
    const asked = vies.countFor('DE100372193');
    const response = await h.call('POST', '/v1/tax-decisions', {
      key,
      body: decision({ customerId: customer.data.id, lines: [line({ nature: 'services' })] }),
    });
    assert.equal(response.statusCode, 201, response.body);
    assert.equal(response.data.status, 'final');
    assert.equal(response.data.lines[0].treatment, 'reverse_charge');
    assert.equal(response.data.vatValidation.requestIdentifier, customer.data.vatValidation.requestIdentifier);
    assert.equal(vies.countFor('DE100372193'), asked);
  });

  await t.test('VIES down for the member state: suspended, no amount; a retry once VIES answers is final', async () => {
    const key = await live();
    vies.behaviour.set('DE100435545', 'MS_UNAVAILABLE');
    const first = await h.call('POST', '/v1/tax-decisions', { key, body: goodsTo('DE100435545') });
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(first.data.status, 'suspended');
    assert.equal(first.data.totals, null);
    assert.equal(first.data.vatValidation, null);
    assert.deepEqual(
      first.data.reasons.map((reason: { code: string; param: string }) => [reason.code, reason.param]),
      [['vat_validation_failed', 'customer.vatNumber']],
    );
    assert.doesNotMatch(first.data.reasons[0].message, /100435545/);
    vies.behaviour.set('DE100435545', 'valid');
    // Within 5 minutes the kept "no answer" stands: still suspended, VIES not hammered.
    const early = await h.call('POST', '/v1/tax-decisions', {
      key,
      body: { ...goodsTo('DE100435545'), retryOf: first.data.id },
    });
    assert.equal(early.statusCode, 201, early.body);
    assert.equal(early.data.status, 'suspended');
    h.clock.advance(5 * 60_000 + 1000);
    const retried = await h.call('POST', '/v1/tax-decisions', {
      key,
      body: { ...goodsTo('DE100435545'), retryOf: early.data.id },
    });
    assert.equal(retried.statusCode, 201, retried.body);
    assert.equal(retried.data.status, 'final');
    assert.equal(retried.data.retryOf, early.data.id);
    assert.equal(retried.data.vatValidation.status, 'valid');
  });

  await t.test('a time-out or a 503 is no answer either: suspended, never final', async () => {
    const key = await live();
    for (const [number, behaviour] of [
      ['DE100483059', 'timeout'],
      ['DE100641439', 'http503'],
    ] as const) {
      vies.behaviour.set(number, behaviour);
      const response = await h.call('POST', '/v1/tax-decisions', { key, body: servicesTo(number) });
      assert.equal(response.statusCode, 201, response.body);
      assert.equal(response.data.status, 'suspended', behaviour);
    }
  });

  await t.test('no line rests on the number (domestic sale, French buyer): VIES not asked', async () => {
    const key = await live();
    const before = vies.requests.length;
    const response = await h.call('POST', '/v1/tax-decisions', {
      key,
      body: decision({ customer: business('FR', '75002'), lines: [line()] }),
    });
    assert.equal(response.statusCode, 201, response.body);
    assert.equal(response.data.status, 'final');
    assert.equal(response.data.vatValidation, null);
    assert.equal(vies.requests.length, before);
  });

  await t.test('test mode: VIES never asked; the documented unknown number DE123456788 is refused', async () => {
    const { key } = await h.tenant();
    await withProfile(h, key);
    const before = vies.requests.length;
    const known = await h.call('POST', '/v1/tax-decisions', { key, body: goodsTo('DE136695976') });
    assert.equal(known.statusCode, 201, known.body);
    assert.equal(known.data.status, 'final');
    assert.equal(known.data.vatValidation, null);
    const unknown = await h.call('POST', '/v1/tax-decisions', { key, body: goodsTo('DE123456788') });
    assert.equal(unknown.statusCode, 422, unknown.body);
    assert.equal(unknown.data.error.code, 'vat_validation_failed');
    assert.equal(vies.requests.length, before);
  });
});
