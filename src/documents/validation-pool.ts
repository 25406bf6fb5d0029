import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ValidationReport } from './official-validator.js';
import { compileAll } from './sef-cache.js';
import { cdarXsd, type StylesheetName, type XsdSet } from './standards.js';
import type { WorkerData, WorkerRequest, WorkerResponse } from './validation-worker.js';

/**
 * The official validation off the event loop: a small pool of worker threads, each holding the
 * XSD and the parsed stylesheets, fed one document at a time from one queue. The SEFs are compiled
 * (or found in the cache) once, before the first worker starts.
 */

/** The Factur-X EN16931 schematron and the BR-FR rules, both variants. */
export const officialStylesheets: StylesheetName[] = [
  'FACTUR-X_EN16931',
  'BR-FR-Flux2-Schematron-CII',
  'BR-FR-Flux2-Schematron-CII_WARNING',
];

/** The life-cycle messages (CDAR): their XSD and the BR-FR-CDV schematron. */
export const cdarValidation: { stylesheets: StylesheetName[]; xsd: XsdSet } = {
  stylesheets: ['BR-FR-CDV-Schematron-CDAR'],
  xsd: cdarXsd,
};

export interface ValidationPoolOptions {
  /** Where compiled stylesheets are cached (`FACTEUR_DATA_DIR`/cache in the service). */
  cacheDir: string;
  /** Worker threads; default: the available cores, at most 4. */
  size?: number;
  stylesheets?: StylesheetName[];
  /** The XSD every document must pass; default the Factur-X EN16931 one. */
  xsd?: XsdSet;
}

interface Job {
  id: number;
  xml: string;
  resolve: (report: ValidationReport) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  job: Job | null;
}

const workerEntry = new URL('./validation-worker-entry.js', import.meta.url);

export class ValidationPool {
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closing = false;

  private constructor(
    private readonly slots: Slot[],
    private readonly data: WorkerData,
  ) {}

  static async open(options: ValidationPoolOptions): Promise<ValidationPool> {
    const names = options.stylesheets ?? officialStylesheets;
    const compiled = (await compileAll(options.cacheDir, names)) as WorkerData['compiled'];
    const data: WorkerData = { compiled, ...(options.xsd ? { xsd: options.xsd } : {}) };
    const size = Math.max(1, options.size ?? Math.min(4, availableParallelism()));
    const pool = new ValidationPool([], data);
    await Promise.all(Array.from({ length: size }, () => pool.startWorker()));
    return pool;
  }

  get size(): number {
    return this.slots.length;
  }

  /** Validates one document (a CII, or a CDAR with the CDAR set); resolves with its report (a failing document is not an error). */
  validate(xml: string): Promise<ValidationReport> {
    if (this.closing) return Promise.reject(new Error('the validation pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, xml, resolve, reject });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('the validation pool is closed'));
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
  }

  private startWorker(): Promise<void> {
    return new Promise((resolve, reject) => {
      const worker = new Worker(workerEntry, { workerData: this.data });
      const slot: Slot = { worker, job: null };
      let ready = false;
      worker.on('message', (message: WorkerResponse | 'ready') => {
        if (message === 'ready') {
          ready = true;
          this.slots.push(slot);
          resolve();
          this.dispatch();
          return;
        }
        const job = slot.job;
        slot.job = null;
        if (job && job.id === message.id) {
          if ('report' in message) job.resolve(message.report);
          else job.reject(new Error(`validation worker failed: ${message.error}`));
        }
        this.dispatch();
      });
      const lost = (error: Error) => {
        const index = this.slots.indexOf(slot);
        if (index >= 0) this.slots.splice(index, 1);
        if (!ready) return reject(error);
        slot.job?.reject(error);
        slot.job = null;
        // A worker that died is replaced, so the pool keeps its size.
        if (!this.closing) void this.startWorker().catch(() => undefined);
      };
      worker.on('error', lost);
      worker.on('exit', (code) => {
        if (!this.closing) lost(new Error(`validation worker exited with code ${code}`));
      });
    });
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.job) continue;
      const job = this.queue.shift()!;
      slot.job = job;
      slot.worker.postMessage({ id: job.id, xml: job.xml } satisfies WorkerRequest);
    }
  }
}
