/**
 * The dashboard under the service's input rules: what it cannot take is refused with its own HTML
 * page and the right status, never a 500 and never stored.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { startHarness } from '../support/harness.js';
import { PageClient, signedIn } from './support.js';

function assertPage(response: LightMyRequestResponse, status: number, message: RegExp): void {
  assert.equal(response.statusCode, status, response.body.slice(0, 500));
  assert.match(String(response.headers['content-type']), /^text\/html/);
  assert.match(String(response.headers['x-request-id']), /^req_/);
  assert.match(response.body, message);
}

test('the dashboard refuses hostile input with its page', async (t) => {
  const h = await startHarness();
  t.after(() => h.close());

  await t.test('a log-in posted as multipart/form-data is 415 with a clear page', async () => {
    const client = new PageClient(h);
    await client.get('/dashboard/login');
    const boundary = 'facteurboundary';
    const response = await h.app.inject({
      method: 'POST',
      url: '/dashboard/login',
      remoteAddress: client.ip,
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        cookie: [...client.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
      },
      payload: [
        `--${boundary}`,
        'Content-Disposition: form-data; name="email"',
        '',
        'someone@example.com',
        `--${boundary}`,
        'Content-Disposition: form-data; name="password"',
        '',
        'secret',
        `--${boundary}--`,
        '',
      ].join('\r\n'),
    });
    assertPage(response, 415, /application\/x-www-form-urlencoded/);
  });

  await t.test('a form field with a NUL or control character is 400, and nothing is stored', async () => {
    const anonymous = new PageClient(h);
    assertPage(await anonymous.logIn('a\u0000b@example.com', 'x'), 400, /control character/);
    const { client } = await signedIn(h);
    await client.get('/dashboard/test/webhooks/new');
    const refused = await client.post('/dashboard/test/webhooks', {
      url: 'https://hooks.example.com/x',
      description: 'bell\u0007',
    });
    assertPage(refused, 400, /control character/);
    const list = await client.get('/dashboard/test/webhooks');
    assert.doesNotMatch(list.body, /hooks\.example\.com/);
  });

  await t.test('a path id or a query value with NUL is refused with the page, not a 500', async () => {
    const { client } = await signedIn(h);
    assertPage(await client.get('/dashboard/test/events/evt_%00'), 404, /no id has|No resource/);
    assertPage(await client.get('/dashboard/test/webhooks/we_%01x'), 404, /No resource/);
    assertPage(await client.get('/dashboard/test/events?type=%00'), 400, /NUL/);
  });
});
