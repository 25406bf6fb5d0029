/**
 * pa-simulator in a process of its own (bench/platform-simulator-child.ts), as the platform
 * benches use it: its address, its first client, its admin routes, and the bare loop's deposit (a
 * token, then multipart POSTs with undici: nothing of the service's but the multipart body's
 * encoder, so that both send the same bytes).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Agent, request } from 'undici';
import { multipartBody } from '../src/platform/multipart-body.js';
import { loadCertificate } from '../src/http/tls.js';
import { loadConfig } from '../src/config.js';

export interface SimulatorProcess {
  url: string;
  client: { clientId: string; clientSecret: string };
  cert: string;
  /** Its process id (its CPU time in the benches). */
  pid: number;
  /** An undici agent trusting the simulator's certificate, `connections` sockets kept alive. */
  agent(connections: number): Agent;
  /** An admin route: `GET /simulator/stats`, `POST /simulator/reset`... */
  admin(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, any>>;
  /** Resets the simulator, then deposits are acknowledged without a life cycle (both loops alike). */
  resetQuiet(): Promise<void>;
  stop(): Promise<void>;
}

export async function startSimulatorProcess(
  scratch: string,
  progress: (message: string) => void,
): Promise<SimulatorProcess> {
  const dataDir = join(scratch, 'pa-simulator');
  const tls = await loadCertificate({ ...loadConfig({}), dataDir }, progress);
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(import.meta.dirname, 'platform-simulator-child.ts'),
      tls.certPath,
      join(dataDir, 'tls', 'key.pem'),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the simulator exited (${code})`)));
  });
  const { url, client, adminToken } = JSON.parse(first) as SimulatorProcess & { adminToken: string };
  const agent = (connections: number) =>
    new Agent({ connect: { ca: tls.cert }, keepAliveTimeout: 30_000, connections });
  const adminAgent = agent(1);
  const admin: SimulatorProcess['admin'] = async (method, path, body) => {
    const answer = await request(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      dispatcher: adminAgent,
    });
    return answer.body.json() as Promise<Record<string, any>>;
  };
  return {
    url,
    client,
    cert: tls.cert,
    pid: child.pid!,
    agent,
    admin,
    async resetQuiet() {
      await admin('POST', '/simulator/reset');
      await admin('POST', '/simulator/scenarios', { scenarios: { '*': { outcome: 'deposited' } } });
    },
    async stop() {
      child.stdin!.end();
      await new Promise((resolve) => child.once('exit', resolve));
      await adminAgent.close();
    },
  };
}

/** The bare loop's deposit: one OAuth2 token fetched once, then one multipart POST per file. */
export async function bareDepositor(
  simulator: SimulatorProcess,
  agent: Agent,
): Promise<(file: { number: string; pdf: Buffer }, trackingId: string) => Promise<void>> {
  const { url, client } = simulator;
  const basic = Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64');
  const tokenAnswer = await request(`${url}/auth-service/${client.clientId}/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
    dispatcher: agent,
  });
  const token = ((await tokenAnswer.body.json()) as { access_token: string }).access_token;
  return async (file, trackingId) => {
    const info = {
      trackingId,
      name: `${file.number}.pdf`,
      flowSyntax: 'Factur-X',
      flowProfile: 'Extended-CTC-FR',
      sha256: createHash('sha256').update(file.pdf).digest('hex'),
    };
    const form = multipartBody([
      { name: 'flowInfo', content: JSON.stringify(info), contentType: 'application/json' },
      { name: 'file', content: file.pdf, contentType: 'application/pdf', filename: info.name },
    ]);
    const answer = await request(`${url}/flow-service/v1/flows`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': form.contentType },
      body: form.body,
      dispatcher: agent,
    });
    await answer.body.dump();
    if (answer.statusCode !== 202) throw new Error(`bare deposit answered ${answer.statusCode}`);
  };
}

/** Runs `work` over `items`, `concurrency` at a time. */
export async function inPool<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}
