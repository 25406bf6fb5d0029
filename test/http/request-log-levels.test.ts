/**
 * Fastify's per-request lines at `debug` (issue #40): at the default LOG_LEVEL=info a request
 * writes no "incoming request" / "request completed" line, so the start banner and the warnings
 * stand out; a request that fails on the server's side (5xx) is still logged, at `error`, with its
 * request id. Run against the service's own logger (cli/logger.ts) writing into a capture stream.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { startHarness } from '../support/harness.js';
import { probeRoutes } from '../support/probe-routes.js';
import { createLogger } from '../../src/cli/logger.js';

class LineCapture extends Writable {
  readonly lines: Record<string, any>[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) this.lines.push(JSON.parse(line));
    done();
  }
  of(requestId: string): Record<string, any>[] {
    return this.lines.filter((line) => line.reqId === requestId);
  }
}

const pinoLevel = { debug: 20, info: 30, error: 50 };

test('request log lines: debug for an ordinary request, error for a 5xx', async (t) => {
  const atInfo = new LineCapture();
  const atDebug = new LineCapture();
  const h = await startHarness({ extraV1Routes: probeRoutes, deps: { log: createLogger('info', atInfo) } });
  const verbose = await startHarness({ extraV1Routes: probeRoutes, deps: { log: createLogger('debug', atDebug) } });
  t.after(async () => {
    await h.close();
    await verbose.close();
  });

  await t.test('at LOG_LEVEL=info, a 200, a 401 and a 404 write no request line', async () => {
    const { key } = await h.tenant();
    const ids: string[] = [];
    for (const [url, status, withKey] of [
      ['/v1/account', 200, true],
      ['/v1/account', 401, false],
      ['/v1/nothing', 404, true],
    ] as const) {
      const response = await h.call('GET', url, withKey ? { key } : {});
      assert.equal(response.statusCode, status, response.body);
      ids.push(String(response.headers['x-request-id']));
    }
    for (const id of ids) assert.deepEqual(atInfo.of(id), [], `request ${id} was logged at info`);
    assert.ok(
      !atInfo.lines.some((line) => line.msg === 'request completed' || line.msg === 'incoming request'),
      JSON.stringify(atInfo.lines),
    );
  });

  await t.test('at LOG_LEVEL=info, a 500 still writes its line at error, with its request id', async () => {
    const { key } = await h.tenant();
    const response = await h.call('GET', '/v1/probe/boom', { key });
    assert.equal(response.statusCode, 500);
    const requestId = String(response.headers['x-request-id']);
    const completed = atInfo.of(requestId).filter((line) => line.msg === 'request completed');
    assert.equal(completed.length, 1, JSON.stringify(atInfo.of(requestId)));
    assert.equal(completed[0]!.level, pinoLevel.error);
    assert.equal(completed[0]!.res.statusCode, 500);
    assert.equal(completed[0]!.req.url, '/v1/probe/boom');
  });

  await t.test('at LOG_LEVEL=debug, both lines are there, at debug, with the redacted URL', async () => {
    const { key } = await verbose.tenant();
    const response = await verbose.call('GET', '/v1/account', { key });
    assert.equal(response.statusCode, 200);
    const lines = atDebug.of(String(response.headers['x-request-id']));
    const incoming = lines.find((line) => line.msg === 'incoming request');
    const completed = lines.find((line) => line.msg === 'request completed');
    assert.ok(incoming && completed, JSON.stringify(lines));
    assert.equal(incoming.level, pinoLevel.debug);
    assert.equal(incoming.req.url, '/v1/account');
    assert.equal(completed.level, pinoLevel.debug);
    assert.equal(completed.res.statusCode, 200);
  });
});
