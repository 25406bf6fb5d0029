import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../support/harness.js';

test('customers: every refusal with its contract code and param', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const { key } = await h.tenant();

  const refusals: [string, Record<string, unknown>, number, string, string | undefined][] = [
    ['a missing name', { email: 'a@b.fr' }, 400, 'missing_required_field', 'name'],
    ['an unknown field', { name: 'A', phone: '0102' }, 400, 'invalid_field_value', 'phone'],
    ['a number for a string', { name: 'A', siren: 732829320 }, 400, 'invalid_field_value', 'siren'],
    ['an unknown type', { name: 'A', type: 'person' }, 422, 'validation_error', 'type'],
    ['a bad e-mail', { name: 'A', email: 'not-an-email' }, 422, 'validation_error', 'email'],
    ['a name too long', { name: 'x'.repeat(201) }, 422, 'validation_error', 'name'],
    ['a SIREN check digit', { name: 'A', siren: '732829321' }, 422, 'validation_error', 'siren'],
    ['a SIRET check digit', { name: 'A', siret: '73282932000018' }, 422, 'validation_error', 'siret'],
    [
      'a SIRET of another SIREN',
      { name: 'A', siren: '552100554', siret: '73282932000017' },
      422,
      'validation_error',
      'siret',
    ],
    ['a SIRET unknown to the directory', { name: 'A', siret: '73282932099902' }, 422, 'siret_not_found', 'siret'],
    ['a VAT number check digit', { name: 'A', vatNumber: 'FR45732829320' }, 422, 'validation_error', 'vatNumber'],
    [
      'a VAT number of another SIREN',
      { name: 'A', siren: '552100554', vatNumber: 'FR44732829320' },
      422,
      'validation_error',
      'vatNumber',
    ],
    ['a Greek VAT number written GR', { name: 'A', vatNumber: 'GR094259216' }, 422, 'validation_error', 'vatNumber'],
    ['an unknown country', { name: 'A', address: { country: 'ZZ' } }, 400, 'invalid_field_value', 'address.country'],
    [
      'a country of three letters',
      { name: 'A', address: { country: 'FRA' } },
      422,
      'validation_error',
      'address.country',
    ],
    [
      'an address without country',
      { name: 'A', address: { city: 'Paris' } },
      400,
      'missing_required_field',
      'address.country',
    ],
    [
      'a French postal code of 4 digits',
      { name: 'A', address: { postalCode: '7500', country: 'FR' } },
      422,
      'validation_error',
      'address.postalCode',
    ],
    [
      'a postal code of no French territory',
      { name: 'A', address: { postalCode: '00100', country: 'FR' } },
      422,
      'validation_error',
      'address.postalCode',
    ],
    [
      'Saint-Barthélemy written GP',
      { name: 'A', address: { postalCode: '97133', country: 'GP' } },
      422,
      'validation_error',
      'address.country',
    ],
    [
      'a Paris postal code written GP',
      { name: 'A', address: { postalCode: '75002', country: 'GP' } },
      422,
      'validation_error',
      'address.country',
    ],
    [
      'a Guadeloupe postal code written MQ, as the delivery address',
      { name: 'A', deliveryAddress: { postalCode: '97110', country: 'MQ' } },
      422,
      'validation_error',
      'deliveryAddress.country',
    ],
    [
      'a mainland postal code written MC',
      { name: 'A', address: { postalCode: '75002', country: 'MC' } },
      422,
      'validation_error',
      'address.country',
    ],
    [
      'a bad delivery postal code',
      { name: 'A', deliveryAddress: { postalCode: 'ABC', country: 'DE' } },
      422,
      'validation_error',
      'deliveryAddress.postalCode',
    ],
    [
      'a consumer with a SIREN',
      { type: 'individual', name: 'A', siren: '732829320' },
      422,
      'validation_error',
      'siren',
    ],
    ['a routing code without SIRET', { name: 'A', routingCode: 'X' }, 422, 'validation_error', 'routingCode'],
    [
      'an unknown non-disclosure field',
      { name: 'A', registryNonDisclosure: ['email'] },
      422,
      'validation_error',
      'registryNonDisclosure[0]',
    ],
    [
      'metadata with too many keys',
      { name: 'A', metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) },
      422,
      'validation_error',
      'metadata',
    ],
  ];
  for (const [what, body, status, code, param] of refusals) {
    await t.test(`${what}: ${status} ${code} ${param ?? ''}`, async () => {
      const response = await h.call('POST', '/v1/customers', { key, body });
      assert.equal(response.statusCode, status, response.body);
      assert.equal(response.data.error.code, code);
      assert.equal(response.data.error.param, param);
    });
  }

  await t.test('CSV is accepted by the import alone: elsewhere it is invalid_content_type', async () => {
    const response = await h.call('POST', '/v1/customers', {
      key,
      body: 'name\nA\n',
      headers: { 'content-type': 'text/csv' },
    });
    assert.equal(response.statusCode, 400);
    assert.equal(response.data.error.code, 'invalid_content_type');
  });

  await t.test('nothing refused was created', async () => {
    assert.equal((await h.call('GET', '/v1/customers', { key })).data.data.length, 0);
  });

  await t.test('an update is checked on the whole customer; null cannot clear the name', async () => {
    const created = (await h.call('POST', '/v1/customers', { key, body: { name: 'A', siren: '732829320' } })).data;
    const wrongVat = await h.call('POST', `/v1/customers/${created.id}`, { key, body: { vatNumber: 'FR96552100554' } });
    assert.equal(wrongVat.statusCode, 422);
    assert.equal(wrongVat.data.error.param, 'vatNumber');
    const toConsumer = await h.call('POST', `/v1/customers/${created.id}`, { key, body: { type: 'individual' } });
    assert.equal(toConsumer.data.error.param, 'siren');
    const nullName = await h.call('POST', `/v1/customers/${created.id}`, { key, body: { name: null } });
    assert.equal(nullName.statusCode, 400);
    assert.equal(nullName.data.error.param, 'name');
    const unknownSiret = await h.call('POST', `/v1/customers/${created.id}`, {
      key,
      body: { siret: '73282932099910' },
    });
    assert.equal(unknownSiret.data.error.code, 'siret_not_found');
  });

  await t.test('a deleted customer: writes answer 409 resource_deleted, reads still work', async () => {
    const created = (await h.call('POST', '/v1/customers', { key, body: { name: 'B' } })).data;
    await h.call('DELETE', `/v1/customers/${created.id}`, { key });
    for (const [method, body] of [
      ['POST', { name: 'C' }],
      ['DELETE', undefined],
    ] as const) {
      const response = await h.call(method, `/v1/customers/${created.id}`, { key, ...(body ? { body } : {}) });
      assert.equal(response.statusCode, 409, method);
      assert.equal(response.data.error.type, 'conflict_error');
      assert.equal(response.data.error.code, 'resource_deleted');
    }
    assert.equal((await h.call('GET', `/v1/customers/${created.id}`, { key })).statusCode, 200);
  });

  await t.test('a deleted customer is no cursor; an unknown one neither', async () => {
    const kept = (await h.call('POST', '/v1/customers', { key, body: { name: 'Kept' } })).data;
    const gone = (await h.call('POST', '/v1/customers', { key, body: { name: 'Gone' } })).data;
    await h.call('DELETE', `/v1/customers/${gone.id}`, { key });
    for (const cursor of [gone.id, 'cus_01m80kd1cn1220tzdk3rc8ms8q']) {
      const response = await h.call('GET', `/v1/customers?starting_after=${cursor}`, { key });
      assert.equal(response.statusCode, 400);
      assert.equal(response.data.error.code, 'invalid_field_value');
      assert.equal(response.data.error.param, 'starting_after');
    }
    assert.equal((await h.call('GET', `/v1/customers?starting_after=${kept.id}`, { key })).statusCode, 200);
  });

  await t.test('list filters refuse bad dates', async () => {
    const bad = await h.call('GET', '/v1/customers?date_from=2026-02-31', { key });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.data.error.param, 'date_from');
    const reversed = await h.call('GET', '/v1/customers?date_from=2026-09-02&date_to=2026-09-01', { key });
    assert.equal(reversed.data.error.param, 'date_to');
    const sameDay = await h.call('GET', '/v1/customers?date_from=2026-09-01&date_to=2026-09-01', { key });
    assert.equal(sameDay.statusCode, 200);
  });

  await t.test('an unknown id is 404 not_found on every route', async () => {
    const id = 'cus_01m80kd1cn1220tzdk3rc8ms8q';
    for (const [method, body] of [
      ['GET', undefined],
      ['POST', { name: 'X' }],
      ['DELETE', undefined],
    ] as const) {
      const response = await h.call(method, `/v1/customers/${id}`, { key, ...(body ? { body } : {}) });
      assert.equal(response.statusCode, 404, method);
      assert.equal(response.data.error.code, 'not_found');
    }
  });
});
