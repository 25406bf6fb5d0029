import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../support/harness.js';

test('an authenticated GET /v1/account answers the account of the key', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());
  const { companyId, key } = await h.tenant();
  const response = await h.call('GET', '/v1/account', { key });
  assert.equal(response.statusCode, 200);
  assert.equal(response.data.id, companyId);
  assert.equal(response.data.livemode, false);
});
