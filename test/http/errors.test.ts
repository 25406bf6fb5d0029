import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness } from '../support/harness.js';
import { probeRoutes } from '../support/probe-routes.js';
import { catalogueTextHtml } from '../../src/docs/routes.js';

const envelopeKeys = new Set(['type', 'code', 'message', 'param', 'doc_url', 'hint', 'request_id', 'issues']);

test('the error envelope', async (t) => {
  const h = await startHarness({ extraV1Routes: probeRoutes });
  t.after(() => h.close());
  const { key } = await h.tenant();

  await t.test('one root `error`, no sibling, only the contract fields, doc_url ending in the code', async () => {
    const response = await h.call('GET', '/v1/account');
    assert.deepEqual(Object.keys(response.data), ['error']);
    for (const field of Object.keys(response.data.error)) assert.ok(envelopeKeys.has(field), field);
    for (const field of ['type', 'code', 'message', 'request_id'])
      assert.equal(typeof response.data.error[field], 'string');
    assert.equal(response.data.error.doc_url, 'https://api.facteur.test/docs/errors#missing_api_key');
    assert.ok(!('issues' in response.data.error), 'issues is absent, never an empty array');
    assert.match(String(response.headers['content-type']), /^application\/json/);
  });

  await t.test('an unknown route is 404 not_found in the envelope', async () => {
    for (const [method, url] of [
      ['GET', '/v1/nothing'],
      ['POST', '/v1/account/nothing'],
      ['DELETE', '/v1/events/evt_x'],
      ['GET', '/elsewhere'],
    ] as const) {
      const response = await h.call(method, url, { key });
      assert.equal(response.statusCode, 404, `${method} ${url}`);
      assert.equal(response.data.error.type, 'not_found_error');
      assert.equal(response.data.error.code, 'not_found');
    }
  });

  await t.test('a bug is 500 internal_error with the request id, and nothing internal', async () => {
    const response = await h.call('GET', '/v1/probe/boom', { key });
    assert.equal(response.statusCode, 500);
    assert.equal(response.data.error.type, 'api_error');
    assert.equal(response.data.error.code, 'internal_error');
    assert.ok(response.data.error.message.includes(response.headers['x-request-id'] as string));
    assert.doesNotMatch(response.body, /hunter2|secret internal|\.ts:|at [A-Za-z]+ \(/);
  });

  await t.test('the documentation page has an anchor for every code', async () => {
    const page = await h.call('GET', '/docs/errors');
    assert.equal(page.statusCode, 200);
    for (const code of ['missing_api_key', 'invoice_not_editable', 'eu_threshold_reservation_lost'])
      assert.match(page.body, new RegExp(`id="${code}"`));
  });

  await t.test("the documentation page renders the catalogue's backtick spans as <code>, escaped", async () => {
    const page = await h.call('GET', '/docs/errors');
    assert.equal(page.statusCode, 200);
    assert.ok(!page.body.includes('`'), 'the page shows a raw Markdown backtick');
    const row = /<tr id="missing_api_key">.*?<\/tr>/.exec(page.body)?.[0] ?? '';
    assert.ok(row.includes('<code>Authorization: Bearer &lt;API_KEY&gt;</code>'), row);
    assert.ok(page.body.includes('<code>facteur key create</code>'), 'the hints are rendered too');
  });
});

test('a catalogue text as HTML: backtick spans as <code>, the rest escaped', () => {
  assert.equal(
    catalogueTextHtml('Use `a<b>` & "c" `d`.'),
    'Use <code>a&lt;b&gt;</code> &amp; &quot;c&quot; <code>d</code>.',
  );
  assert.equal(catalogueTextHtml('<script>x</script>'), '&lt;script&gt;x&lt;/script&gt;');
  // A backtick without its pair is text, not the start of a code span.
  assert.equal(catalogueTextHtml('one ` alone'), 'one ` alone');
});
