import { accessSync, constants as fsConstants, existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ValidationReport } from './official-validator.js';
import { compileAll, stylesheetsToCompile } from './sef-cache.js';
import {
  cdarXsd,
  ciiD22bXsd,
  compiledNameOf,
  facturxBasicWlXsd,
  facturxExtendedXsd,
  ruleSetOf,
  ruleSets,
  stylesheetOfCompiledName,
  stylesheets,
  ublXsd,
  type CompiledName,
  type StylesheetName,
  type XsdSet,
} from './standards.js';
import type { WorkerData, WorkerRequest, WorkerResponse } from './validation-worker.js';

export type { ValidationReport } from './official-validator.js';
export type { StylesheetName, XsdSet } from './standards.js';
export { ruleSetInForce, ruleSets, stylesheetsInScope } from './standards.js';

/**
 * The official validation off the event loop: a small pool of worker threads, each holding the
 * XSD and the parsed stylesheets, fed from one queue. A free worker takes its share of the waiting
 * documents, up to `maxBatch`, as one batch: each stylesheet then runs once for the batch, which
 * saves saxon-js's preparation of the stylesheet per document (official-validator.ts). A document
 * alone is still sent at once. The SEFs are compiled (or found in the cache) once, before the
 * first worker starts.
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

/**
 * UBL 2.1 invoices and credit notes (EN 16931): the OASIS XSD of their root, the CEN EN 16931 UBL
 * schematron and the French rules for UBL, both variants.
 */
export const ublValidation: { stylesheets: StylesheetName[]; xsdByRoot: XsdSet[] } = {
  stylesheets: ['EN16931-UBL-validation', 'BR-FR-Flux2-Schematron-UBL', 'BR-FR-Flux2-Schematron-UBL_WARNING'],
  xsdByRoot: ublXsd,
};

/**
 * A UBL of the French extended profile (EXTENDED-CTC-FR, XP Z12-012): its own schematron in place of
 * EN 16931's (it allows what EN 16931 forbids), with the same French rules.
 */
export const ublExtendedValidation: { stylesheets: StylesheetName[]; xsdByRoot: XsdSet[] } = {
  stylesheets: ['EXTENDED-CTC-FR-UBL', 'BR-FR-Flux2-Schematron-UBL', 'BR-FR-Flux2-Schematron-UBL_WARNING'],
  xsdByRoot: ublXsd,
};

/**
 * A CII of the French extended profile (EXTENDED-CTC-FR): the CII D22B XSD and its own schematron
 * in place of the Factur-X EN16931 ones (which refuse what the profile adds), with the same BR-FR rules.
 */
export const ciiExtendedValidation: { stylesheets: StylesheetName[]; xsd: XsdSet } = {
  stylesheets: ['EXTENDED-CTC-FR-CII', 'BR-FR-Flux2-Schematron-CII', 'BR-FR-Flux2-Schematron-CII_WARNING'],
  xsd: ciiD22bXsd,
};

/**
 * A received Factur-X BASIC WL (no lines), judged by its own XSD and schematron with the same BR-FR
 * rules. BASIC is EN 16931 (`compliant`): the EN 16931 set judges it; MINIMUM has no official
 * schematron and is no invoice under EN 16931.
 */
export const facturxBasicWlValidation: { stylesheets: StylesheetName[]; xsd: XsdSet } = {
  stylesheets: ['FACTUR-X_BASIC-WL', 'BR-FR-Flux2-Schematron-CII', 'BR-FR-Flux2-Schematron-CII_WARNING'],
  xsd: facturxBasicWlXsd,
};

/** A received Factur-X EXTENDED: its own XSD and schematron (compiled as published), the same BR-FR rules. */
export const facturxExtendedValidation: { stylesheets: StylesheetName[]; xsd: XsdSet } = {
  stylesheets: ['FACTUR-X_EXTENDED', 'BR-FR-Flux2-Schematron-CII', 'BR-FR-Flux2-Schematron-CII_WARNING'],
  xsd: facturxExtendedXsd,
};

/**
 * Every stylesheet of the registry in every rule set, each file once: what the installation
 * compiles (a set's stylesheet that is the earlier set's file is compiled once for both).
 */
export const registryStylesheets: CompiledName[] = [
  ...new Set(
    ruleSets.flatMap((set) =>
      (Object.keys(stylesheets) as StylesheetName[]).map((name) => compiledNameOf(name, set.id)),
    ),
  ),
];

/** The installation's folder (the one holding package.json), whether this runs from `src/` or from `build/<fingerprint>/src/`. */
function installationRoot(): string | null {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return null;
  }
}

/** The validators compiled at install (`npm ci` runs bin/compile-validators.js): one folder per installation. */
export const installedValidatorCache: string | null = (() => {
  const root = installationRoot();
  return root === null ? null : join(root, 'build', 'validators');
})();

/** True when `path` exists, or could be created: its nearest existing folder is writable. */
function usable(path: string): boolean {
  if (existsSync(path)) return true;
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    if (existsSync(dir)) {
      try {
        accessSync(dir, fsConstants.W_OK);
        return true;
      } catch {
        return false;
      }
    }
    if (dirname(dir) === dir) return false;
  }
}

/**
 * The one cache folder of every user of the validators (the documents' files, the received
 * invoices, the CDAR checks, the tests): `compiledStylesheet` keeps its SEFs in `sef/` below it.
 * It is the installation's `build/validators/`, compiled by `npm ci` and read whatever the data
 * directory, so a fresh install makes its first Factur-X in seconds; `<dataDir>/cache` only for an
 * installation with no such folder that cannot make one (read-only, never built).
 */
export function validatorCacheDir(dataDir: string): string {
  if (installedValidatorCache !== null && usable(installedValidatorCache)) return installedValidatorCache;
  return join(dataDir, 'cache');
}

/** The stylesheets of the registry that `cacheDir` lacks: never compiled there, or from an older text. */
export const validatorsToCompile = (cacheDir: string): Promise<CompiledName[]> =>
  stylesheetsToCompile(cacheDir, registryStylesheets);

/** Compiles into `cacheDir` every stylesheet of the registry it lacks (those it holds are kept). */
export async function compileValidators(cacheDir: string): Promise<void> {
  await compileAll(cacheDir, await validatorsToCompile(cacheDir));
}

/**
 * Roughly how long compiling `names` takes on free cores, in seconds: ~90 s of CPU per MB of XSLT
 * (measured: the five stylesheets, 1.7 MB, 154 s of CPU), the compilers running side by side.
 */
export function compileEstimateSeconds(names: CompiledName[]): number {
  const megabytes = names.reduce((sum, name) => sum + statSync(stylesheetOfCompiledName(name).xslt).size, 0) / 1e6;
  return Math.max(15, Math.round((megabytes * 90) / Math.min(availableParallelism(), Math.max(1, names.length))));
}

/** The SEF of each of `names` as the rule set `ruleSet` has it, by name (compiled when missing). */
export async function compileRuleSet(
  cacheDir: string,
  names: readonly StylesheetName[],
  ruleSet: string,
): Promise<Partial<Record<StylesheetName, string>>> {
  const byCompiledName = await compileAll(
    cacheDir,
    names.map((name) => compiledNameOf(name, ruleSet)),
  );
  return Object.fromEntries(names.map((name) => [name, byCompiledName[compiledNameOf(name, ruleSet)]!]));
}

export interface ValidationPoolOptions {
  /** Where compiled stylesheets are cached (`validatorCacheDir` in the service). */
  cacheDir: string;
  /** Worker threads; default: the available cores, at most 4. */
  size?: number;
  /** The most documents a worker takes at once; default 16. */
  maxBatch?: number;
  stylesheets?: StylesheetName[];
  /** The rule set the stylesheets are taken from (standards.ts `ruleSets`); default the first. */
  ruleSet?: string;
  /** The XSD every document must pass; default the Factur-X EN16931 one. */
  xsd?: XsdSet;
  /** In place of `xsd`: XSDs chosen by the document's root namespace (UBL: Invoice, CreditNote). */
  xsdByRoot?: XsdSet[];
  /**
   * How long a document may take (a batch: this times its documents); past it the worker is
   * terminated and replaced, and its documents fail with `DocumentValidationError`. Default: none.
   */
  timeoutMs?: number;
}

/**
 * The validators could not judge this document (they failed on it, or it ran past the pool's
 * timeout): the document's doing, not the pool's; for a document from outside, a verdict.
 */
export class DocumentValidationError extends Error {}

interface Job {
  id: number;
  xml: string;
  only: StylesheetName[] | null;
  resolve: (report: ValidationReport) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  batch: { id: number; jobs: Job[] } | null;
  deadline: NodeJS.Timeout | null;
}

const workerEntry = new URL('./validation-worker-entry.js', import.meta.url);

export class ValidationPool {
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closing = false;

  private constructor(
    private readonly slots: Slot[],
    private readonly data: WorkerData,
    private readonly maxBatch: number,
    private readonly timeoutMs: number | null,
  ) {}

  static async open(options: ValidationPoolOptions): Promise<ValidationPool> {
    const names = options.stylesheets ?? officialStylesheets;
    const ruleSet = ruleSetOf(options.ruleSet ?? ruleSets[0]!.id).id;
    const compiled = await compileRuleSet(options.cacheDir, names, ruleSet);
    const data: WorkerData = {
      compiled,
      ruleSet,
      ...(options.xsd ? { xsd: options.xsd } : {}),
      ...(options.xsdByRoot ? { xsdByRoot: options.xsdByRoot } : {}),
    };
    const size = Math.max(1, options.size ?? Math.min(4, availableParallelism()));
    const pool = new ValidationPool(
      [],
      data,
      Math.max(1, Math.floor(options.maxBatch ?? 16)),
      options.timeoutMs ?? null,
    );
    await Promise.all(Array.from({ length: size }, () => pool.startWorker()));
    return pool;
  }

  get size(): number {
    return this.slots.length;
  }

  /**
   * Validates one document (a CII, or a CDAR with the CDAR set); resolves with its report (a failing
   * document is not an error). `only`: the pool's stylesheets that bind this document (e.g.
   * `stylesheetsInScope`), the others skipped; default all.
   */
  validate(xml: string, only?: readonly StylesheetName[]): Promise<ValidationReport> {
    if (this.closing) return Promise.reject(new Error('the validation pool is closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, xml, only: only ? [...only] : null, resolve, reject });
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
      const slot: Slot = { worker, batch: null, deadline: null };
      let ready = false;
      worker.on('message', (message: WorkerResponse | 'ready') => {
        if (message === 'ready') {
          ready = true;
          this.slots.push(slot);
          resolve();
          this.dispatch();
          return;
        }
        const batch = slot.batch;
        slot.batch = null;
        if (slot.deadline) clearTimeout(slot.deadline);
        slot.deadline = null;
        if (batch && batch.id === message.id) {
          batch.jobs.forEach((job, index) => {
            if (!('outcomes' in message)) return job.reject(new Error(`validation worker failed: ${message.error}`));
            const outcome = message.outcomes[index];
            if (outcome && 'report' in outcome) job.resolve(outcome.report);
            else
              job.reject(new DocumentValidationError(`the validators failed on it: ${outcome?.error ?? 'no outcome'}`));
          });
        }
        this.dispatch();
      });
      const lost = (error: Error) => {
        if (slot.deadline) clearTimeout(slot.deadline);
        const index = this.slots.indexOf(slot);
        if (index >= 0) this.slots.splice(index, 1);
        if (!ready) return reject(error);
        for (const job of slot.batch?.jobs ?? []) job.reject(error);
        slot.batch = null;
        // A worker that died is replaced, so the pool keeps its size.
        if (!this.closing) void this.startWorker().catch(() => undefined);
      };
      worker.on('error', lost);
      worker.on('exit', (code) => {
        if (!this.closing) lost(new Error(`validation worker exited with code ${code}`));
      });
    });
  }

  /** A batch ran past its time: its documents fail, its worker is terminated (and replaced when it exits). */
  private timedOut(slot: Slot): void {
    const jobs = slot.batch?.jobs ?? [];
    slot.batch = null;
    slot.deadline = null;
    const seconds = (this.timeoutMs ?? 0) / 1000;
    for (const job of jobs)
      job.reject(new DocumentValidationError(`the validation took longer than ${seconds} s: stopped`));
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    void slot.worker.terminate();
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.batch) continue;
      // Its share of what waits, so the other free workers get documents too.
      const free = this.slots.filter((other) => !other.batch).length;
      const take = Math.min(this.maxBatch, Math.ceil(this.queue.length / free));
      const jobs = this.queue.splice(0, take);
      slot.batch = { id: jobs[0]!.id, jobs };
      if (this.timeoutMs !== null) slot.deadline = setTimeout(() => this.timedOut(slot), this.timeoutMs * jobs.length);
      slot.worker.postMessage({
        id: jobs[0]!.id,
        xmls: jobs.map((job) => job.xml),
        only: jobs.map((job) => job.only),
      } satisfies WorkerRequest);
    }
  }
}

/**
 * Validation pools opened on first use, one per key (a rule set, a kind of document): a node that
 * never meets a key never starts its threads, and a pool that failed to open is forgotten, so the
 * next document tries again.
 */
export class ValidationPools<Key extends string> {
  private readonly opened = new Map<Key, Promise<ValidationPool>>();

  constructor(private readonly optionsOf: (key: Key) => ValidationPoolOptions) {}

  get(key: Key): Promise<ValidationPool> {
    const open = this.opened.get(key);
    if (open) return open;
    const opening = ValidationPool.open(this.optionsOf(key)).catch((error: unknown) => {
      this.opened.delete(key);
      throw error;
    });
    this.opened.set(key, opening);
    return opening;
  }

  /** How many are open or opening. */
  get size(): number {
    return this.opened.size;
  }

  async close(): Promise<void> {
    const open = [...this.opened.values()];
    this.opened.clear();
    await Promise.all(open.map(async (pool) => (await pool.catch(() => null))?.close()));
  }
}
