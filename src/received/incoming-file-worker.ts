import { parentPort, workerData } from 'node:worker_threads';
import { IncomingFileError, readIncomingFile, type IncomingFile } from './incoming-file.js';

/** The thread one incoming file is read in (incoming-file-thread.ts): it reads, answers once, and ends. */

export type ReadingOutcome =
  { file: IncomingFile } | { refused: string; reason: IncomingFileError['reason'] } | { error: string };

const port = parentPort;
if (!port) throw new Error('incoming-file-worker.ts runs as a worker thread');

const bytes = workerData as Uint8Array;
let outcome: ReadingOutcome;
try {
  outcome = { file: await readIncomingFile(bytes) };
} catch (error) {
  outcome =
    error instanceof IncomingFileError
      ? { refused: error.message, reason: error.reason }
      : { error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
}
port.postMessage(outcome);
