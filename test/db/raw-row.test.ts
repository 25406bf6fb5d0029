import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PgDialect } from 'drizzle-orm/pg-core';
import { rawRow } from '../../src/db/raw-row.js';
import { events, webhookEndpoints } from '../../src/webhooks/schema.js';

const dialect = new PgDialect();

test('a raw row selects every column under its prefix and reads it back as Drizzle would', () => {
  const endpoint = rawRow(webhookEndpoints, 'endpoint.');
  const { sql: text } = dialect.sqlToQuery(endpoint.columns('e'));
  assert.match(text, /^e\."company_id" as "endpoint\.company_id", e\."livemode" as "endpoint\.livemode"/);
  assert.match(text, /e\."previous_secret_expires_at" as "endpoint\.previous_secret_expires_at"/);
  assert.equal(text.split(', ').length, Object.keys(webhookEndpoints).filter((k) => k !== 'enableRLS').length);

  const row = endpoint.read({
    'endpoint.company_id': 'cmp_1',
    'endpoint.livemode': false,
    'endpoint.id': 'we_1',
    'endpoint.url': 'https://example.com/hook',
    'endpoint.description': null,
    'endpoint.events': '{invoice.finalized,"a,b"}',
    'endpoint.secret': 'whsec_x',
    'endpoint.secret_hint': 'ab_x',
    'endpoint.previous_secret': null,
    'endpoint.previous_secret_expires_at': null,
    'endpoint.status': 'enabled',
    'endpoint.disabled_reason': null,
    'endpoint.failing_since': '2026-11-28 03:30:15.123+00',
    'endpoint.last_alert_at': null,
    'endpoint.created': new Date('2026-11-01T00:00:00Z'),
    'endpoint.updated': new Date('2026-11-02T00:00:00Z'),
    'endpoint.deleted_at': null,
    // Another table's columns in the same result row are ignored.
    'event.id': 'evt_1',
  });
  assert.deepEqual(row, {
    companyId: 'cmp_1',
    livemode: false,
    id: 'we_1',
    url: 'https://example.com/hook',
    description: null,
    events: ['invoice.finalized', 'a,b'],
    secret: 'whsec_x',
    secretHint: 'ab_x',
    previousSecret: null,
    previousSecretExpiresAt: null,
    status: 'enabled',
    disabledReason: null,
    failingSince: new Date('2026-11-28T03:30:15.123Z'),
    lastAlertAt: null,
    created: new Date('2026-11-01T00:00:00Z'),
    updated: new Date('2026-11-02T00:00:00Z'),
    deletedAt: null,
  });
});

test('a left join that found nothing reads as null; jsonb columns come back parsed', () => {
  const event = rawRow(events, 'event.');
  assert.equal(event.read({ 'event.company_id': null, 'event.id': null }), null);
  const row = event.read({
    'event.company_id': 'cmp_1',
    'event.livemode': true,
    'event.id': 'evt_1',
    'event.type': 'invoice.finalized',
    'event.api_version': '2026-01-01',
    'event.created': new Date('2026-11-28T00:00:00Z'),
    'event.data': '{"object":{"id":"inv_1"}}',
    'event.retained_until': new Date('2027-02-26T00:00:00Z'),
    'event.request': null,
  });
  assert.deepEqual(row?.data, { object: { id: 'inv_1' } });
  assert.equal(row?.request, null);
});
