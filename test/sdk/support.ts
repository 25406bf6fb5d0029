import { mkdtemp } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  cleanEnv,
  freePorts,
  removeServiceRoot,
  runFacteur,
  startFacteur,
  type FacteurProcess,
} from '../support/processes.js';

export interface Served {
  url: string;
  /** A test key of a company of its own. */
  key: string;
  companyId: string;
  stop(): Promise<void>;
}

/**
 * A real `facteur serve` (a child process) on the suite's database, with the certificate the
 * suite's receivers use: this test process trusts it through NODE_EXTRA_CA_CERTS, as a user's
 * would trust their own. The company and its key come from the command line.
 */
export async function startServe(): Promise<Served> {
  const root = await mkdtemp(join(tmpdir(), 'facteur-sdk-'));
  const dataDir = join(root, 'data');
  const [port, httpPort] = (await freePorts(2)) as [number, number];
  const env = cleanEnv({
    DATABASE_URL: process.env.DATABASE_URL,
    FACTEUR_DATA_DIR: dataDir,
    FACTEUR_TLS_CERT: process.env.FACTEUR_TEST_RECEIVER_CERT,
    FACTEUR_TLS_KEY: process.env.FACTEUR_TEST_RECEIVER_KEY,
    PORT: String(port),
    HTTP_PORT: String(httpPort),
  });
  const service: FacteurProcess = startFacteur(['serve', '--role', 'api'], env);
  await service.waitForStdout(/facteur is serving https:\/\/localhost:(\d+)/, 120_000);
  const company = await runFacteur(['company', 'create', '--name', 'SDK SAS', '--siren', '732829320'], env);
  if (company.code !== 0) throw new Error(`company create: ${company.stderr}`);
  const companyId = JSON.parse(company.stdout).id as string;
  const key = await runFacteur(['key', 'create', '--company', companyId, '--env', 'test'], env);
  if (key.code !== 0) throw new Error(`key create: ${key.stderr}`);
  return {
    url: `https://localhost:${port}`,
    key: JSON.parse(key.stdout).secret as string,
    companyId,
    async stop() {
      service.kill('SIGTERM');
      await service.waitForExit(60_000).catch(() => service.kill('SIGKILL'));
      await removeServiceRoot(root, dataDir);
    },
  };
}

export interface SeenRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
}

export interface Fault {
  status: number;
  headers?: Record<string, string>;
  /** The service acts on the request first, then its answer is lost and this status answered instead. */
  afterForwarding?: boolean;
}

export interface FaultyProxy {
  url: string;
  seen: SeenRequest[];
  /** Faults for the next requests, in order; the others are forwarded as they are. */
  fail(...faults: Fault[]): void;
  close(): Promise<void>;
}

const bodyOf = (request: IncomingMessage) =>
  new Promise<Buffer>((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk)).on('end', () => resolve(Buffer.concat(chunks)));
  });

/** A local HTTP server in front of the service that answers the statuses a test scripts, in the contract's error shape. */
export async function startFaultyProxy(target: string): Promise<FaultyProxy> {
  const faults: Fault[] = [];
  const seen: SeenRequest[] = [];
  const server: Server = createServer(async (request, response) => {
    const body = await bodyOf(request);
    const key = request.headers['idempotency-key'];
    seen.push({
      method: request.method!,
      path: request.url!,
      idempotencyKey: typeof key === 'string' ? key : undefined,
    });
    const fault = faults.shift();
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)),
    ) as Record<string, string>;
    let forwarded: Response | null = null;
    if (!fault || fault.afterForwarding)
      forwarded = await fetch(`${target}${request.url}`, {
        method: request.method!,
        headers,
        ...(body.length ? { body: new Uint8Array(body) } : {}),
      });
    if (fault) {
      await forwarded?.body?.cancel();
      const code = fault.status === 429 ? 'rate_limit_exceeded' : 'internal_error';
      response.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
      response.end(
        JSON.stringify({
          error: {
            type: fault.status === 429 ? 'rate_limit_error' : 'api_error',
            code,
            message: 'scripted',
            request_id: 'req_proxy',
          },
        }),
      );
      return;
    }
    response.writeHead(
      forwarded!.status,
      Object.fromEntries(
        [...forwarded!.headers].filter(([name]) => name !== 'content-encoding' && name !== 'transfer-encoding'),
      ),
    );
    response.end(Buffer.from(await forwarded!.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    fail: (...more) => void faults.push(...more),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
