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

/** Chunk inserts sent ahead of their answer: the one PostgreSQL stores and the one queued behind it. */
const maxChunksInFlight = 2;

/** Room past a chunk's size, so that a piece of text seldom has to wait for a chunk to be written. */
const slackBytes = 64 * 1024;

export class ChunkWriter {
  /**
   * The chunk being filled, written to in place: text is encoded straight into it, so a batch
   * builds no long strings (whose flattening and garbage cost more than the encoding itself).
   * It is reused once its chunk's insert has landed.
   */
  private buffer: Buffer = Buffer.allocUnsafe(chunkBytes + slackBytes);
  private filled = 0;
  /** Inserts sent and not yet answered, oldest first, with the buffer each reads. */
  private sent: { insert: Promise<void>; buffer: Buffer | null }[] = [];
  private spare: Buffer[] = [];
  /** Bytes handed whole (a zip's output), written after `buffer`'s. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Bytes per UTF-16 unit, at most: latin1 one, utf8 three. */
  private readonly unitBytes: number;

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
    private readonly textEncoding: 'utf8' | 'latin1' = 'utf8',
    private readonly serial: Pick<OneAtATime, 'run'> = inline,
  ) {
    this.unitBytes = textEncoding === 'latin1' ? 1 : 3;
  }

  /**
   * Text into the chunk being filled, when it fits below a chunk's size: no write, no await (a
   * FEC appends an entry at a time). False, and nothing appended, when it does not: `writeText`.
   */
  appendText(text: string): boolean {
    if (this.pendingBytes > 0 || this.filled + text.length * this.unitBytes > chunkBytes) return false;
    this.filled += this.buffer.write(text, this.filled, this.textEncoding);
    return true;
  }

  /** Text in the writer's encoding, into the chunk being filled; the chunk goes once it is full. */
  async writeText(text: string): Promise<void> {
    if (this.pendingBytes > 0) await this.writeChunk();
    if (this.filled + text.length * this.unitBytes > this.buffer.length) {
      if (this.filled > 0) await this.writeChunk();
      // Longer than a chunk and its room: encoded on its own, a chunk or more at once.
      if (text.length * this.unitBytes > this.buffer.length)
        return this.writeBytes(Buffer.from(text, this.textEncoding));
    }
    this.filled += this.buffer.write(text, this.filled, this.textEncoding);
    if (this.filled >= chunkBytes) await this.writeChunk();
  }

  async writeBytes(bytes: Buffer): Promise<void> {
    if (this.filled > 0) {
      // Copied behind the text, or the text goes first when the bytes are large.
      if (this.filled + bytes.length <= this.buffer.length) {
        this.filled += bytes.copy(this.buffer, this.filled);
        if (this.filled >= chunkBytes) await this.writeChunk();
        return;
      }
      await this.writeChunk();
    }
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= chunkBytes) await this.writeChunk();
  }

  /** Writes what is left as a last, shorter chunk, and waits for every chunk: the batch ends here. */
  async flush(): Promise<void> {
    if (this.filled > 0 || this.pendingBytes > 0) await this.writeChunk();
    while (this.sent.length > 0) await this.landed();
  }

  /**
   * One chunk: the buffer's bytes, or the bytes handed whole (never both: each writes the other
   * first). Its insert is sent without waiting for it, up to `maxChunksInFlight`: PostgreSQL
   * stores a chunk while the next one is filled.
   */
  private async writeChunk(): Promise<void> {
    let bytes: Buffer;
    let buffer: Buffer | null = null;
    if (this.filled > 0) {
      buffer = this.buffer;
      bytes = buffer.subarray(0, this.filled);
      // The next chunk fills another buffer: this one is read by its insert until it lands.
      this.buffer = this.spare.pop() ?? Buffer.allocUnsafe(chunkBytes + slackBytes);
      this.filled = 0;
    } else {
      bytes = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes);
      this.pending = [];
      this.pendingBytes = 0;
    }
    const seq = this.seq;
    this.hash?.update(bytes);
    this.seq += 1;
    this.size += bytes.length;
    const insert = this.serial.run(() => insertChunk(this.db, this.scope, this.exportId, this.part, seq, bytes));
    // Awaited in `landed`; a failure meanwhile must not count as unhandled.
    insert.catch(() => undefined);
    this.sent.push({ insert, buffer });
    if (this.sent.length >= maxChunksInFlight) await this.landed();
  }

  /** Waits for the oldest insert sent; its buffer is free again. */
  private async landed(): Promise<void> {
    const oldest = this.sent.shift()!;
    await oldest.insert;
    if (oldest.buffer) this.spare.push(oldest.buffer);
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
