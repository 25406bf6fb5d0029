/**
 * The first `facteur serve` on an empty data directory prints a dashboard user with the test key,
 * and those credentials open the dashboard over the service's own HTTPS.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanEnv, freePorts, startFacteur } from '../support/processes.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function request(
  url: string,
  ca: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = https.request(url, { method: options.method ?? 'GET', ca, headers: options.headers ?? {} }, (res) => {
      let body = '';
      res
        .setEncoding('utf8')
        .on('data', (chunk: string) => {
          body += chunk;
        })
        .on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const cookieOf = (answer: Answer, name: string) =>
  [answer.headers['set-cookie']]
    .flat()
    .map(String)
    .find((c) => c.startsWith(`${name}=`))
    ?.split(';')[0];

test(
  'the first start prints a dashboard user whose credentials open the dashboard',
  { timeout: 180_000 },
  async (t) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'facteur-dashboard-serve-'));
    const [port, httpPort] = (await freePorts(2)) as [number, number];
    const service = startFacteur(
      ['serve'],
      cleanEnv({ DATABASE_URL: undefined, FACTEUR_DATA_DIR: dataDir, PORT: String(port), HTTP_PORT: String(httpPort) }),
    );
    t.after(async () => {
      service.kill('SIGTERM');
      await service.waitForExit(60_000).catch(() => service.kill('SIGKILL'));
      await rm(dataDir, { recursive: true, force: true });
    });
    const match = await service.waitForStdout(
      /dashboard: (https:\/\/localhost:\d+\/dashboard) {2}user: (\S+) {2}password \(shown once\): ([0-9A-Za-z]{20})/,
      120_000,
    );
    const [, url, email, password] = match;
    assert.equal(url, `https://localhost:${port}/dashboard`);
    assert.equal(email, 'demo@example.com');
    const ca = await readFile(join(dataDir, 'tls', 'cert.pem'), 'utf8');

    const login = await request(`https://localhost:${port}/dashboard/login`, ca);
    assert.equal(login.status, 200);
    const formCookie = cookieOf(login, '__Host-facteur_form')!;
    const csrf = /name="_csrf" value="([^"]+)"/.exec(login.body)![1]!;
    const body = new URLSearchParams({
      _csrf: csrf,
      email: email!,
      password: password!,
      next: '/dashboard/test/account',
    }).toString();
    const submitted = await request(`https://localhost:${port}/dashboard/login`, ca, {
      method: 'POST',
      headers: {
        cookie: formCookie,
        'content-type': 'application/x-www-form-urlencoded',
        origin: `https://localhost:${port}`,
      },
      body,
    });
    assert.equal(submitted.status, 303, submitted.body.slice(0, 500));
    const session = cookieOf(submitted, '__Host-facteur_session')!;
    const account = await request(`https://localhost:${port}/dashboard/test/account`, ca, {
      headers: { cookie: session },
    });
    assert.equal(account.status, 200);
    assert.match(account.body, /Démo SARL/);
    assert.match(account.body, /demo@example\.com/);
  },
);
