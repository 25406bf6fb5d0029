/** The parent's handle on the bench's server process (bench/server.ts): spawn, ask, stop. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { DbTiming, FromServer, ToServer } from './protocol.js';

export interface ServerInfo {
  appPort: number;
  barePort: number;
  cert: string;
  companyId: string;
}

export interface ServerSample {
  /** The server process's CPU time so far (user and system, microseconds). */
  cpu: NodeJS.CpuUsage;
  timing: DbTiming | null;
}

export interface ServerProcess {
  info: ServerInfo;
  /** Rejects as soon as the process ends unexpectedly (a crash during a scenario must not go unnoticed). */
  died: Promise<never>;
  alive(): boolean;
  createKeys(env: 'test' | 'live', count: number): Promise<string[]>;
  sample(): Promise<ServerSample>;
  stop(): Promise<void>;
}

export interface SpawnOptions {
  databaseUrl: string;
  dataDir: string;
  /** Extra node flags for the server process, e.g. `--cpu-prof`. */
  nodeFlags: string[];
  dbTiming: boolean;
  progress: (message: string) => void;
}

const serverScript = fileURLToPath(new URL('./server.ts', import.meta.url));

export async function spawnServer(options: SpawnOptions): Promise<ServerProcess> {
  const child: ChildProcess = spawn(
    process.execPath,
    [...options.nodeFlags, '--import', 'libxml2-wasm', '--import', 'tsx', serverScript],
    {
      // The child's stdout goes to our stderr: our stdout carries only the JSON measurements.
      stdio: ['ignore', 2, 2, 'ipc'],
      env: {
        ...process.env,
        BENCH_DATABASE_URL: options.databaseUrl,
        BENCH_DATA_DIR: options.dataDir,
        BENCH_DB_TIMING: options.dbTiming ? '1' : '0',
      },
    },
  );

  let exited = false;
  let stopping = false;
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = true;
      resolve({ code, signal });
    });
  });
  const died = exit.then(({ code, signal }) => {
    throw new Error(
      stopping ? 'server process stopped' : `the server process ended unexpectedly (code ${code}, signal ${signal})`,
    );
  });
  died.catch(() => undefined);

  let nextId = 1;
  const pending = new Map<number, { resolve: (message: FromServer) => void; reject: (error: Error) => void }>();
  let ready: ((info: ServerInfo) => void) | null = null;
  let startFailed: ((error: Error) => void) | null = null;
  child.on('message', (raw) => {
    const message = raw as FromServer;
    if (message.type === 'ready') return ready?.(message);
    if (message.type === 'failed' && message.id === null)
      return startFailed?.(new Error(`server process: ${message.message}`));
    const waiter = pending.get(message.id!);
    if (!waiter) return;
    pending.delete(message.id!);
    if (message.type === 'failed') waiter.reject(new Error(`server process: ${message.message}`));
    else waiter.resolve(message);
  });
  child.once('exit', () => {
    for (const waiter of pending.values()) waiter.reject(new Error('the server process ended'));
    pending.clear();
  });

  const stop = async () => {
    if (exited) return;
    stopping = true;
    if (child.connected) child.send({ type: 'stop' } satisfies ToServer);
    else child.kill('SIGTERM');
    const timer = setTimeout(() => {
      options.progress('server process did not stop within 15 s: killing it');
      child.kill('SIGKILL');
    }, 15_000);
    await exit;
    clearTimeout(timer);
  };

  const ask = <T extends FromServer['type']>(
    message: ToServer & { id: number },
    type: T,
  ): Promise<Extract<FromServer, { type: T }>> =>
    new Promise((resolve, reject) => {
      if (!child.connected) return reject(new Error('the server process is gone'));
      pending.set(message.id, {
        resolve: (answer) =>
          answer.type === type
            ? resolve(answer as Extract<FromServer, { type: T }>)
            : reject(new Error(`unexpected answer ${answer.type}`)),
        reject,
      });
      child.send(message);
    });

  let info: ServerInfo;
  try {
    info = await Promise.race([
      new Promise<ServerInfo>((resolve, reject) => {
        ready = resolve;
        startFailed = reject;
      }),
      died,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('the server process did not become ready within 120 s')), 120_000).unref(),
      ),
    ]);
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    info,
    died,
    alive: () => !exited,
    async createKeys(env, count) {
      return (await ask({ type: 'createKeys', id: nextId++, env, count }, 'keys')).secrets;
    },
    async sample() {
      const answer = await ask({ type: 'sample', id: nextId++ }, 'sample');
      return { cpu: answer.cpu, timing: answer.timing };
    },
    stop,
  };
}
