import { ValidationPool, validatorCacheDir } from '../einvoice/validation-pool.js';
import type { IncomingFile } from './incoming-file.js';
import type { ValidationError } from './received-record.js';

/**
 * The official validation of a received invoice: the same validators as the service's own
 * invoices (Factur-X EN16931 XSD and schematron, BR-FR rules), in one small pool of worker threads
 * opened on first use. A UBL invoice is not judged: no official UBL artefact is carried
 * (standards/PROVENANCE.md), so it is kept with `conformant: null` and says so.
 */

export interface Verdict {
  conformant: boolean | null;
  validationErrors: ValidationError[];
  validators: string[];
}

export const ublNotValidated = 'not validated: no official UBL artefact';

/**
 * A received document is validated alone, within this time: a file from outside may be built to
 * keep the validators busy, and alone in its batch, stopping it stops no other invoice. A real
 * invoice of thousands of lines is judged in seconds.
 */
export const incomingValidationTimeoutMs = 60_000;

let pool: Promise<ValidationPool> | null = null;
let pending = 0;
let idleTimer: NodeJS.Timeout | null = null;
/** An idle pool is closed: received invoices come now and then, and its threads would keep a process alive. */
const idleCloseMs = 30_000;

/** Where compiled stylesheets are cached: the installation's one cache, the documents' files' too. */
export function cacheDir(dataDir: string): string {
  return validatorCacheDir(dataDir);
}

function openPool(dataDir: string): Promise<ValidationPool> {
  pool ??= ValidationPool.open({
    cacheDir: cacheDir(dataDir),
    size: 1,
    maxBatch: 1,
    timeoutMs: incomingValidationTimeoutMs,
  }).catch((error: unknown) => {
    pool = null;
    throw error;
  });
  return pool;
}

export async function validateIncoming(file: IncomingFile, dataDir: string): Promise<Verdict> {
  if (file.syntax === 'UBL')
    return {
      conformant: null,
      validationErrors: [{ rule: 'UBL', flag: 'warning', message: ublNotValidated, location: null }],
      validators: [],
    };
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  pending += 1;
  let report;
  try {
    report = await (await openPool(dataDir)).validate(file.xml);
  } finally {
    pending -= 1;
    if (pending === 0) {
      idleTimer = setTimeout(() => void closeValidation().catch(() => undefined), idleCloseMs);
      idleTimer.unref();
    }
  }
  return {
    conformant: report.valid,
    validationErrors: report.failures.map((failure) => ({
      rule: failure.rule,
      flag: failure.flag,
      message: failure.text,
      location: failure.location,
    })),
    validators: report.validators,
  };
}

/** Closes the pool (tests, shutdown). */
export async function closeValidation(): Promise<void> {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  if (pending > 0) return;
  const open = pool;
  pool = null;
  if (open) await (await open).close();
}
