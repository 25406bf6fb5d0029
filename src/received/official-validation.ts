import {
  ciiExtendedValidation,
  facturxBasicWlValidation,
  facturxExtendedValidation,
  officialStylesheets,
  ublExtendedValidation,
  ublValidation,
  ValidationPools,
  validatorCacheDir,
  type StylesheetName,
  type XsdSet,
} from '../einvoice/validation-pool.js';
import type { IncomingFile } from './incoming-file.js';
import type { ValidationError } from './received-record.js';

/**
 * The official validation of a received invoice: a CII (or Factur-X) by the same validators as the
 * service's own invoices (Factur-X EN16931 XSD and schematron, BR-FR rules); a UBL by the OASIS UBL
 * 2.1 XSD, the EN 16931 UBL schematron and the BR-FR rules for UBL. A file whose BT-24 names the
 * French extended profile (EXTENDED-CTC-FR) is judged by that profile's schematron (and, in CII,
 * the CII D22B XSD) in place of EN 16931's. One small pool of worker threads per set, opened on
 * first use.
 */

export interface Verdict {
  conformant: boolean | null;
  validationErrors: ValidationError[];
  validators: string[];
  /** The rule set that judged it; null when none did. */
  ruleSet: string | null;
}

/** The validators of one kind of received document. */
export type IncomingValidation =
  'cii' | 'cii-extended-ctc-fr' | 'cii-factur-x-basic-wl' | 'cii-factur-x-extended' | 'ubl' | 'ubl-extended-ctc-fr';

const validationSets: Record<
  IncomingValidation,
  { stylesheets: StylesheetName[]; xsd?: XsdSet; xsdByRoot?: XsdSet[] }
> = {
  cii: { stylesheets: officialStylesheets },
  'cii-extended-ctc-fr': ciiExtendedValidation,
  'cii-factur-x-basic-wl': facturxBasicWlValidation,
  'cii-factur-x-extended': facturxExtendedValidation,
  ubl: ublValidation,
  'ubl-extended-ctc-fr': ublExtendedValidation,
};

/**
 * True when BT-24 names the French extended profile (XP Z12-012, EXTENDED-CTC-FR), in CII as in
 * UBL: `urn:cen.eu:en16931:2017#conformant#urn.cpro.gouv.fr:1p0:extended-ctc-fr`.
 */
export const isExtendedCtcFr = (guideline: string | null): boolean =>
  guideline !== null && /(^|[#:])extended-ctc-fr$/i.test(guideline.trim());

/**
 * The Factur-X profile a CII's BT-24 names, of those judged by their own rules: BASIC WL
 * (`urn:factur-x.eu:1p0:basicwl`) and EXTENDED (`urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended`).
 */
export function facturxProfileOf(guideline: string | null): 'basic-wl' | 'extended' | null {
  const id = guideline?.trim() ?? '';
  if (/^urn:factur-x\.eu:1p0:basicwl$/i.test(id)) return 'basic-wl';
  if (/^urn:cen\.eu:en16931:2017#conformant#urn:factur-x\.eu:1p0:extended$/i.test(id)) return 'extended';
  return null;
}

/** Which validators judge this received file: by its syntax, then by its BT-24. */
export function incomingValidationOf(file: Pick<IncomingFile, 'syntax' | 'document'>): IncomingValidation {
  const guideline = file.document.guideline ?? null;
  const extended = isExtendedCtcFr(guideline);
  if (file.syntax !== 'UBL') {
    if (extended) return 'cii-extended-ctc-fr';
    const profile = facturxProfileOf(guideline);
    return profile === null ? 'cii' : `cii-factur-x-${profile}`;
  }
  return extended ? 'ubl-extended-ctc-fr' : 'ubl';
}

/**
 * A received document is validated alone, within this time: a file from outside may be built to
 * keep the validators busy, and alone in its batch, stopping it stops no other invoice. A real
 * invoice of thousands of lines is judged in seconds.
 */
export const incomingValidationTimeoutMs = 60_000;

let pending = 0;
let idleTimer: NodeJS.Timeout | null = null;
/** An idle pool is closed: received invoices come now and then, and its threads would keep a process alive. */
const idleCloseMs = 30_000;

/** Where compiled stylesheets are cached: the installation's one cache, the documents' files' too. */
export function cacheDir(dataDir: string): string {
  return validatorCacheDir(dataDir);
}

type PoolKey = `${IncomingValidation} ${string}`;
let pools: { dataDir: string; pools: ValidationPools<PoolKey> } | null = null;

/** The pools of one kind of document and one rule set (`cii 1.4.0.03`), each opened on first use. */
function poolsOf(dataDir: string): ValidationPools<PoolKey> {
  if (pools?.dataDir === dataDir) return pools.pools;
  const opened = new ValidationPools<PoolKey>((key) => {
    const [kind, ruleSet] = key.split(' ') as [IncomingValidation, string];
    const set = validationSets[kind];
    return {
      cacheDir: cacheDir(dataDir),
      ruleSet,
      size: 1,
      maxBatch: 1,
      timeoutMs: incomingValidationTimeoutMs,
      stylesheets: set.stylesheets,
      ...(set.xsd ? { xsd: set.xsd } : {}),
      ...(set.xsdByRoot ? { xsdByRoot: set.xsdByRoot } : {}),
    };
  });
  pools = { dataDir, pools: opened };
  return opened;
}

/** Validates a received file by the rule set `ruleSet` (the one in force on its date of receipt). */
export async function validateIncoming(file: IncomingFile, dataDir: string, ruleSet: string): Promise<Verdict> {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  pending += 1;
  let report;
  try {
    report = await (await poolsOf(dataDir).get(`${incomingValidationOf(file)} ${ruleSet}`)).validate(file.xml);
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
    ruleSet: report.ruleSet,
  };
}

/** Closes the pool (tests, shutdown). */
export async function closeValidation(): Promise<void> {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  if (pending > 0) return;
  const open = pools;
  pools = null;
  await open?.pools.close();
}
