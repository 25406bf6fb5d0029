/**
 * `/docs`: the API reference, Swagger UI rendering the served OpenAPI document, every file from
 * this installation (no other origin named anywhere in the page or allowed by its policy).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../support/harness.js';

describe('the API reference at /docs', { timeout: 120_000 }, () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h.close());

  test('the page loads its script and styles from this origin, under a CSP without other origins or inline scripts', async () => {
    const page = await h.call('GET', '/docs');
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    const policy = String(page.headers['content-security-policy']);
    assert.match(policy, /(^|; )script-src 'self'(;|$)/);
    assert.match(policy, /default-src 'none'/);
    assert.match(policy, /frame-ancestors 'none'/);
    assert.doesNotMatch(policy, /https?:|\*|'unsafe-eval'/);
    assert.doesNotMatch(page.body, /https?:\/\//, 'no absolute URL: nothing from a CDN');
    assert.doesNotMatch(page.body, /<script>(?!<\/script>)|<script(?![^>]*\ssrc=)[^>]*>/, 'no inline script');
    const sources = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    assert.ok(sources.includes('/docs/assets/swagger-ui-bundle.js'));
    for (const source of sources) {
      const asset = await h.call('GET', source);
      assert.equal(asset.statusCode, 200, `${source} is served`);
      assert.ok(asset.rawPayload.length > 0, source);
    }
  });

  test('the bundle is Swagger UI, and the start script renders the served OpenAPI document', async () => {
    const bundle = await h.call('GET', '/docs/assets/swagger-ui-bundle.js');
    assert.match(String(bundle.headers['content-type']), /^text\/javascript/);
    assert.ok(bundle.rawPayload.length > 500_000, 'the whole bundle');
    assert.match(bundle.body, /SwaggerUIBundle/);
    const start = await h.call('GET', '/docs/assets/reference.js');
    assert.match(start.body, /url: '\/v1\/openapi\.json'/);
    const document = await h.call('GET', '/v1/openapi.json');
    assert.equal(document.statusCode, 200);
    assert.equal(document.data.openapi, '3.1.0');
    assert.equal((await h.call('GET', '/docs/assets/package.json')).statusCode, 404, 'only the listed files');
    assert.equal((await h.call('GET', '/docs/assets/..%2Fpackage.json')).statusCode, 404);
  });
});
