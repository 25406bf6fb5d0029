import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  XmlBufferInputProvider,
  XmlDocument,
  XmlValidateError,
  XsdValidator,
  xmlRegisterInputProvider,
} from 'libxml2-wasm';
import { ValidationPool, validatorCacheDir, type ValidationPoolOptions } from '../einvoice/validation-pool.js';

/**
 * The check of a flow 10 file before it leaves: the official XSD 1.0 (libxml2-wasm) and the PPF
 * flow 10 schematron v1.0 (its XSLT, compiled to SEF and run by saxon-js in a worker thread of the
 * e-invoice validation pool), every failed assert a problem but the rules the platform fills
 * (`ppfExceptedRules`). The artefacts are in standards/flux10/ (its PROVENANCE.md).
 */

const xsdDir = new URL('./standards/flux10/xsd/', import.meta.url);
const xsdFile = (name: string) => fileURLToPath(new URL(name, xsdDir));

/** `ereporting.xsd` and the four modules it imports by relative name. */
export const flow10Xsd: NonNullable<ValidationPoolOptions['xsd']> = {
  main: xsdFile('ereporting.xsd'),
  modules: ['report.xsd', 'transaction.xsd', 'payment.xsd', 'parametre.xsd'].map(xsdFile),
};

const ppfStylesheet: NonNullable<ValidationPoolOptions['stylesheets']> = ['PPF_Flux10_v1_0'];

/**
 * The PPF rules a company's own deposit is not held to, each with the evidence. The schematron is
 * the one the platforms run on what they send to the PPF (France_RFE issues 54 and 67: "c'est la
 * version PA / PPF qui a été publiée"). In the transmission's envelope only the sender is the
 * platform's: TG-3 is "l'émetteur du document de transmission (le déclarant ou son OD) ou ... de la
 * transmission agrégée (PPF ou PDP)" (report.xsd), and the platform that forwards the file writes
 * itself there. Everything else (the declarant, G6.26 and G7.52; the identifier, G1.104; the date,
 * G7.53; the type, G8.01; one report, G6.29; every business rule) is the company's to get right.
 */
export const ppfExceptedRules = [
  {
    rule: 'G6.22',
    scope: 'platform_envelope',
    reason:
      'Sender/Id (TT-8) must be scheme 0238 with the 4-character matricule of an approved platform: the company deposits as itself (scheme 0002, its SIREN) and its platform writes its own matricule when it forwards the file.',
  },
  {
    rule: 'G7.51',
    scope: 'platform_envelope',
    reason:
      'Sender/RoleCode (TT-10) must be WK (approved platform): the company deposits with role SE, the platform replaces the sender with itself.',
  },
  {
    rule: 'G1.16',
    scope: 'negative_payment_amount',
    reason:
      'Only its "sans signe négatif" assert, only on a negative payment amount (TT-95, TT-99): a refund is reported as a negative payment (XP Z12-014 case 43: "un encaissement négatif pour l’avoir"), which Annexe 7 rule G7.07 allows and this schematron v1.0 refuses (France_RFE issue 60, open). Its other asserts (decimals, digits) still apply.',
  },
] as const;

export type ExceptedRule = (typeof ppfExceptedRules)[number]['rule'];

export interface Flow10Problem {
  /** The PPF rule (`G6.26`), `XSD` or `XML`. */
  rule: string;
  text: string;
  location: string | null;
}

export interface Flow10Check {
  problems: Flow10Problem[];
  /** The failures the platform answers for (`ppfExceptedRules`), kept apart. */
  excepted: Flow10Problem[];
}

// The XSD in process (synchronous, for `reportProblems`): its modules are read from memory.
let xsdValidator: XsdValidator | null = null;

function openXsd(): XsdValidator {
  if (xsdValidator) return xsdValidator;
  const files = [flow10Xsd.main, ...flow10Xsd.modules];
  const provider = new XmlBufferInputProvider({});
  for (const file of files) {
    const content = readFileSync(file);
    provider.addBuffer(file, content);
    provider.addBuffer(pathToFileURL(file).href, content);
  }
  xmlRegisterInputProvider(provider);
  const schema = XmlDocument.fromBuffer(readFileSync(flow10Xsd.main), { url: flow10Xsd.main });
  try {
    xsdValidator = XsdValidator.fromDoc(schema);
  } finally {
    schema.dispose();
  }
  return xsdValidator;
}

/** The official XSD's verdict alone, at once: what the schematron adds is in `checkReport`. */
export function reportProblems(xml: string): string[] {
  const validator = openXsd();
  let document: XmlDocument;
  try {
    document = XmlDocument.fromString(xml);
  } catch (error) {
    return [`XML: not well-formed: ${(error as Error).message}`];
  }
  try {
    validator.validate(document);
    return [];
  } catch (error) {
    if (error instanceof XmlValidateError)
      return error.details.map((detail) => `XSD: line ${detail.line}: ${detail.message.trim()}`);
    throw error;
  } finally {
    document.dispose();
  }
}

// The schematron runs in one worker thread, opened at first use and closed when idle.
let pool: Promise<ValidationPool> | null = null;
let pending = 0;
let idleTimer: NodeJS.Timeout | null = null;
const idleCloseMs = 30_000;

/** Opens the validators (compiling the schematron the first time: half a minute), e.g. at start. */
export function openReportValidation(dataDir: string): Promise<ValidationPool> {
  pool ??= ValidationPool.open({
    cacheDir: validatorCacheDir(dataDir),
    size: 1,
    stylesheets: ppfStylesheet,
    xsd: flow10Xsd,
    timeoutMs: 60_000,
  }).catch((error: unknown) => {
    pool = null;
    throw error;
  });
  return pool;
}

export async function closeReportValidation(): Promise<void> {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  const open = pool;
  pool = null;
  if (open) await (await open).close();
}

/** The rule a PPF assert names at the start of its text (`[G6.22] ...`); its asserts carry no id. */
const ppfRule = (text: string) => /^\[([A-Z]\d+\.\d+)\]/.exec(text)?.[1] ?? null;

const negativePaymentAmount =
  /^\/Report\[1\]\/PaymentsReport\[1\]\/(Invoice|Transactions)\[\d+\]\/Payment\[1\]\/SubTotals\[\d+\]\/Amount\[1\]$/;

/** Whether a failure is one of `ppfExceptedRules`, read against the file itself. */
function isExcepted(problem: Flow10Problem, document: XmlDocument | null): boolean {
  const entry = ppfExceptedRules.find((candidate) => candidate.rule === problem.rule);
  if (!entry) return false;
  if (entry.scope === 'platform_envelope') return true;
  // G1.16: the sign alone. The value must be a negative amount that passes the rule otherwise.
  if (!problem.text.includes('sans signe négatif') || !problem.location || !document) return false;
  if (!negativePaymentAmount.test(problem.location)) return false;
  const value = document.get(problem.location)?.content ?? '';
  return /^-\d+(\.\d{1,6})?$/.test(value) && value.replace(/[-.]/g, '').length <= 19;
}

/** The official XSD and the PPF schematron on `xml`, the excepted failures apart. */
export async function checkReport(xml: string, dataDir: string): Promise<Flow10Check> {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  pending += 1;
  let report;
  try {
    report = await (await openReportValidation(dataDir)).validate(xml);
  } finally {
    pending -= 1;
    if (pending === 0) {
      idleTimer = setTimeout(() => void closeReportValidation().catch(() => undefined), idleCloseMs);
      idleTimer.unref();
    }
  }
  const failures: Flow10Problem[] = report.failures.map((failure) => ({
    rule: failure.source === 'xsd' ? failure.rule : (ppfRule(failure.text) ?? failure.rule),
    text: failure.text,
    location: failure.location,
  }));
  let document: XmlDocument | null = null;
  try {
    document = XmlDocument.fromString(xml);
  } catch {
    document = null;
  }
  try {
    const check: Flow10Check = { problems: [], excepted: [] };
    for (const failure of failures) (isExcepted(failure, document) ? check.excepted : check.problems).push(failure);
    return check;
  } finally {
    document?.dispose();
  }
}

/** The problems of `xml` as text (`[G6.26] ...`), none when it may leave. */
export async function reportProblemsAsync(xml: string, dataDir: string): Promise<string[]> {
  const { problems } = await checkReport(xml, dataDir);
  return problems.map((problem) =>
    problem.text.startsWith(`[${problem.rule}]`) ? problem.text : `[${problem.rule}] ${problem.text}`,
  );
}
