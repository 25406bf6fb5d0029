import { Worker } from 'node:worker_threads';
import { IncomingFileError, type IncomingFile } from './incoming-file.js';
import type { ReadingOutcome } from './incoming-file-worker.js';

/**
 * An incoming file is read off the event loop, in a thread of its own with a deadline and a heap
 * ceiling: inflating and parsing a file from outside is synchronous work whose cost the sender
 * chooses, and on the event loop a decompression bomb froze every request (`/healthz` included)
 * for minutes. One short-lived thread per file rather than a pool: a thread that runs over is
 * terminated with nothing else in it, and received invoices come now and then (the thread costs
 * some tens of milliseconds to start). The validation that follows runs in the validation pool.
 */

/** A real invoice is read in well under a second; this leaves room for a loaded machine. */
export const incomingReadTimeoutMs = 20_000;
/** The reading thread's heap: the largest XML taken (10 MB) parsed into the model fits many times. */
const readingHeapMb = 256;

const workerEntry = new URL('./incoming-file-worker-entry.js', import.meta.url);

export function readIncomingFileInThread(bytes: Uint8Array, timeoutMs = incomingReadTimeoutMs): Promise<IncomingFile> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerEntry, {
      workerData: bytes,
      resourceLimits: { maxOldGenerationSizeMb: readingHeapMb, maxYoungGenerationSizeMb: 32 },
    });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      void worker.terminate();
      outcome();
    };
    const deadline = setTimeout(
      () =>
        settle(() =>
          reject(new IncomingFileError(`the file was not read within ${timeoutMs / 1000} s: refused`, 'too_large')),
        ),
      timeoutMs,
    );
    worker.once('message', (outcome: ReadingOutcome) =>
      settle(() => {
        if ('file' in outcome) resolve(outcome.file);
        else if ('refused' in outcome) reject(new IncomingFileError(outcome.refused, outcome.reason));
        // Reading is the same for the same bytes: what failed in it is the file's doing.
        else reject(new IncomingFileError(`the file cannot be read: ${outcome.error.split('\n')[0]}`));
      }),
    );
    worker.once('error', (error: Error & { code?: string }) =>
      settle(() =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new IncomingFileError('the file needs more memory to read than any invoice: refused', 'too_large')
            : error,
        ),
      ),
    );
    worker.once('exit', (code) =>
      settle(() => reject(new Error(`the reading thread exited with code ${code} before answering`))),
    );
  });
}
