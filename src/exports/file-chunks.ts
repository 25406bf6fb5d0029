import { createHash, type Hash } from 'node:crypto';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { insertChunk, readChunk } from './store.js';

/**
 * Files written into PostgreSQL chunk by chunk, in the job's transaction: a batch's bytes commit
 * with the job's progress, so a crash leaves every batch's chunks whole or absent. Nothing holds
 * more than a chunk and a batch's text in memory, whatever the size of the file.
 */

/** About a megabyte per chunk: few rows for a large file, little memory for one. */
export const chunkBytes = 1024 * 1024;

/**
 * Runs database calls one at a time: a zip reads staged chunks and writes the file's chunks on
 * the same transaction, whose one connection takes one query at a time.
 */
export class OneAtATime {
  private last: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const next = this.last.then(work, work);
    this.last = next.catch(() => undefined);
    return next;
  }
}

const inline = { run: <T>(work: () => Promise<T>) => work() };

export class ChunkWriter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private text = '';

  /**
   * `seq` is the next chunk's number and `size` the bytes already written; `hash`, when given,
   * is fed every byte written (the running SHA-256 of the file).
   */
  constructor(
    private readonly db: Executor,
    private readonly scope: Scope,
    private readonly exportId: string,
    private readonly part: string,
    public seq: number,
    public size: number,
    private readonly hash: Hash | null,
    private readonly textEncoding: BufferEncoding = 'utf8',
    private readonly serial: Pick<OneAtATime, 'run'> = inline,
  ) {}

  /** Text in the writer's encoding; kept as text until a chunk's worth is there. */
  async writeText(text: string): Promise<void> {
    this.text += text;
    if (this.text.length >= chunkBytes) await this.spillText();
  }

  async writeBytes(bytes: Buffer): Promise<void> {
    if (this.text.length > 0) await this.spillText();
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= chunkBytes) await this.writeChunk();
  }

  /** Writes what is left as a last, shorter chunk: the batch ends here. */
  async flush(): Promise<void> {
    if (this.text.length > 0) await this.spillText();
    if (this.pendingBytes > 0) await this.writeChunk();
  }

  private async spillText(): Promise<void> {
    const bytes = Buffer.from(this.text, this.textEncoding);
    this.text = '';
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= chunkBytes) await this.writeChunk();
  }

  private async writeChunk(): Promise<void> {
    const bytes = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    await this.serial.run(() => insertChunk(this.db, this.scope, this.exportId, this.part, this.seq, bytes));
    this.hash?.update(bytes);
    this.seq += 1;
    this.size += bytes.length;
  }
}

/** The chunks of a part in order, one at a time. */
export async function* readChunks(
  db: Executor,
  scope: Scope,
  exportId: string,
  part: string,
  count: number,
  serial: Pick<OneAtATime, 'run'> = inline,
): AsyncGenerator<Buffer> {
  for (let seq = 0; seq < count; seq++) {
    const bytes = await serial.run(() => readChunk(db, scope, exportId, part, seq));
    if (!bytes) throw new Error(`export ${exportId}: chunk ${part}/${seq} is missing`);
    yield bytes;
  }
}

/**
 * The running SHA-256 of a file written over several batches, kept between them by the node
 * that runs the job: Node cannot store a hash's state. A batch takes it out and gives it back
 * with the number of chunks it covers, so a batch that fails half-way, or a job resumed by
 * another node, finds none that matches and hashes the committed chunks again.
 */
const runningHashes = new Map<string, { hash: Hash; chunks: number }>();

export async function takeRunningHash(db: Executor, scope: Scope, exportId: string, chunks: number): Promise<Hash> {
  const kept = runningHashes.get(exportId);
  runningHashes.delete(exportId);
  if (kept && kept.chunks === chunks) return kept.hash;
  const hash = createHash('sha256');
  for await (const bytes of readChunks(db, scope, exportId, '', chunks)) hash.update(bytes);
  return hash;
}

export function keepRunningHash(exportId: string, hash: Hash, chunks: number): void {
  runningHashes.set(exportId, { hash, chunks });
}

export function dropRunningHash(exportId: string): void {
  runningHashes.delete(exportId);
}
