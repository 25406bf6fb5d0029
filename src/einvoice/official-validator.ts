import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import SaxonJS, { type SaxonNode, type SvrlElement } from 'saxon-js';
import {
  XmlBufferInputProvider,
  XmlDocument,
  XmlValidateError,
  XsdValidator,
  xmlRegisterInputProvider,
} from 'libxml2-wasm';
import { basename } from 'node:path';
import {
  cdarXsd,
  ciiD22bXsd,
  facturxBasicWlXsd,
  facturxExtendedXsd,
  facturxXsd,
  ruleSetOf,
  ruleSetOfStylesheet,
  ruleSets,
  standardsVersions,
  stylesheetInSet,
  type StylesheetName,
  type XsdSet,
} from './standards.js';

/**
 * The official validators, in process and without Java: the Factur-X EN16931 XSD through
 * libxml2-wasm, then the schematrons (their XSLT, compiled to SEF) through saxon-js. Every failed
 * assert or successful report is a failure, whatever its flag: a platform rejects on warnings too.
 *
 * This runs synchronously once opened; the service runs it in worker threads (validation-pool.ts).
 */

export type FailureSource = 'xsd' | StylesheetName;

export interface RuleFailure {
  source: FailureSource;
  /**
   * The rule: the EN 16931 business rule an assert's text names (`BR-CO-16`), else the assert's id
   * (`BR-FR-05_BT-22_PMT`, `FX-SCH-A-000164`); `XSD` / `XML` for the schema and the parser.
   */
  rule: string;
  /** The assert's own id in its schematron (`FX-SCH-A-000122` for BR-CO-16), or null. */
  assertId: string | null;
  /** `fatal`, `warning` or `error` (XSD and parser). Schematrons without a flag count as fatal. */
  flag: string;
  text: string;
  location: string | null;
}

export interface ValidationReport {
  valid: boolean;
  failures: RuleFailure[];
  /** The distinct rule ids, in order of appearance. */
  rules: string[];
  /** What ran: the XSD and the stylesheets, with the versions of PROVENANCE.md. */
  validators: string[];
  /** The rule set that judged it (`1.4.0.03`, standards.ts `ruleSets`). */
  ruleSet: string;
  /** Milliseconds spent per validator. */
  timings: Record<string, number>;
}

export interface OfficialValidatorOptions {
  /** The SEF of each stylesheet to run, by name, compiled from the rule set's file (sef-cache.ts). */
  compiled: Partial<Record<StylesheetName, string>>;
  /** The rule set the stylesheets are of (their code lists, their versions); default the first. */
  ruleSet?: string;
  /** The XSD the documents must pass: the Factur-X EN16931 one (default) or the CDAR one. */
  xsd?: XsdSet;
  /** In place of `xsd`: XSDs each for a root namespace (UBL: Invoice, CreditNote), the document's root picking one. */
  xsdByRoot?: XsdSet[];
}

/** One document's outcome in a batch: its report, or the error that stopped its validation. */
export type BatchOutcome = { report: ValidationReport } | { error: unknown };

interface LoadedStylesheet {
  name: StylesheetName;
  internal: unknown;
  baseUri: string;
  documentPool: Record<string, SaxonNode>;
}

/** A stylesheet not run: its failures are those of `base`, each with this stylesheet's flag. */
interface FlagVariant {
  name: StylesheetName;
  base: StylesheetName;
  flags: Map<string, string>;
}

const flagAttribute = /<xsl:attribute name="flag">([^<]*)<\/xsl:attribute>/g;

/**
 * The flag of each assert of `variant`, by assert id, when `variant` is `base` word for word but
 * for the constant values of its flag attributes, and each assert has its own id; else null (then
 * the variant runs as any stylesheet). A flag is a constant the assert writes into its SVRL: it
 * takes no part in what is tested, so the variant fails exactly where the base fails.
 */
export function flagVariantFlags(base: string, variant: string): Map<string, string> | null {
  if (base.replace(flagAttribute, 'FLAG') !== variant.replace(flagAttribute, 'FLAG')) return null;
  const flags = new Map<string, string>();
  const assertion =
    /<xsl:attribute name="id">([^<]*)<\/xsl:attribute>\s*<xsl:attribute name="flag">([^<]*)<\/xsl:attribute>/g;
  let count = 0;
  for (const match of variant.matchAll(assertion)) {
    count++;
    if (flags.has(match[1]!)) return null;
    flags.set(match[1]!, match[2]!);
  }
  // Every flag belongs to an assert with an id, and there is at least one.
  const flagCount = [...variant.matchAll(flagAttribute)].length;
  return count > 0 && count === flagCount ? flags : null;
}

const entities: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const unescapeXml = (value: string) =>
  value.replace(/&(lt|gt|amp|quot|apos|#x[0-9a-fA-F]+|#\d+);/g, (_, name: string) =>
    name.startsWith('#x')
      ? String.fromCodePoint(parseInt(name.slice(2), 16))
      : name.startsWith('#')
        ? String.fromCodePoint(parseInt(name.slice(1), 10))
        : entities[name]!,
  );

const attribute = (attributes: string, name: string): string | null => {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(attributes);
  return match ? unescapeXml(match[1]!) : null;
};

/** A failed assert or a successful report, from its attributes and its text. */
function failureOf(source: StylesheetName, attribute: (name: string) => string | null, rawText: string): RuleFailure {
  const text = rawText.replace(/\s+/g, ' ').trim();
  const assertId = attribute('id');
  // The Factur-X schematron numbers its asserts and names the EN 16931 rule in the text: "[BR-CO-16]-...".
  const named = /^\[((?:BR|PEPPOL)-[A-Z0-9-]+)\]/.exec(text);
  return {
    source,
    rule: named?.[1] ?? assertId ?? `(${attribute('test') ?? 'unnamed rule'})`,
    assertId,
    flag: attribute('flag') ?? 'fatal',
    text,
    location: attribute('location'),
  };
}

/** The failures of an SVRL report (the schematron's output), serialised. */
export function svrlFailures(svrl: string, source: StylesheetName): RuleFailure[] {
  const failures: RuleFailure[] = [];
  const pattern = /<svrl:(failed-assert|successful-report)(\s[^>]*)?>([\s\S]*?)<\/svrl:\1>/g;
  for (const match of svrl.matchAll(pattern)) {
    const attributes = match[2] ?? '';
    const textMatch = /<svrl:text>([\s\S]*?)<\/svrl:text>/.exec(match[3]!);
    failures.push(
      failureOf(source, (name) => attribute(attributes, name), textMatch ? unescapeXml(textMatch[1]!) : ''),
    );
  }
  return failures;
}

const svrlNamespace = 'http://purl.oclc.org/dsdl/svrl';

/**
 * The failures of an SVRL report delivered as a tree (`destination: 'raw'`): its children are
 * walked, never serialised and parsed again. The same reading as `svrlFailures`.
 */
export function svrlNodeFailures(report: SvrlElement, source: StylesheetName): RuleFailure[] {
  const failures: RuleFailure[] = [];
  for (let child = report.firstChild; child; child = child.nextSibling) {
    if (child.nodeType !== 1 || child.namespaceURI !== svrlNamespace) continue;
    if (child.localName !== 'failed-assert' && child.localName !== 'successful-report') continue;
    let text = '';
    for (let part = child.firstChild; part; part = part.nextSibling)
      if (part.nodeType === 1 && part.localName === 'text' && part.namespaceURI === svrlNamespace) {
        text = part.textContent ?? '';
        break;
      }
    const attributes = child.attributes;
    failures.push(failureOf(source, (name) => attributes.getNamedItem(name)?.value ?? null, text));
  }
  return failures;
}

// One provider for the whole process: libxml2 asks it for every file an XSD imports.
let xsdProvider: XmlBufferInputProvider | null = null;

/** The version of each stylesheet of the base folders, as PROVENANCE.md names it. */
const baseVersions: Record<StylesheetName, string> = {
  'FACTUR-X_EN16931': standardsVersions.facturx,
  'FACTUR-X_BASIC-WL': standardsVersions.facturxBasicWl,
  'FACTUR-X_EXTENDED': standardsVersions.facturxExtended,
  'BR-FR-Flux2-Schematron-CII': standardsVersions.brfr,
  'BR-FR-Flux2-Schematron-CII_WARNING': standardsVersions.brfr,
  'BR-FR-CDV-Schematron-CDAR': standardsVersions.cdar,
  PPF_Flux10_v1_0: standardsVersions.ppfFlux10,
  'EN16931-UBL-validation': standardsVersions.en16931Ubl,
  'BR-FR-Flux2-Schematron-UBL': standardsVersions.brfrUbl,
  'BR-FR-Flux2-Schematron-UBL_WARNING': standardsVersions.brfrUbl,
  'EXTENDED-CTC-FR-UBL': standardsVersions.extendedCtcFrUbl,
  'EXTENDED-CTC-FR-CII': standardsVersions.extendedCtcFrCii,
};

/** The version of a stylesheet in a set: the base folders' (PROVENANCE.md), or the set's own file. */
const versionOf = (name: StylesheetName, setId: string) => {
  const own = ruleSetOfStylesheet(name, setId);
  return own === null ? baseVersions[name] : `FNFE-MPE ${own}, ${basename(stylesheetInSet(name, setId).xslt)}`;
};

/** An XSD loaded, with the namespace of the root it judges (null: every document). */
interface LoadedXsd {
  validator: XsdValidator;
  rootNamespace: string | null;
}

/**
 * An official schema file as published. One is carried gzipped (`<name>.gz`, its bytes unchanged:
 * the OASIS UBL aggregate components, 2.4 MB of documentation, past the repository's file size).
 */
async function readSchemaFile(file: string): Promise<Buffer> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    return gunzipSync(await readFile(`${file}.gz`));
  }
}

/** Loads an XSD: it imports its modules by relative name, which libxml2 reads from memory, never from disk. */
async function loadXsd(xsdSet: XsdSet): Promise<LoadedXsd> {
  const files = [xsdSet.main, ...xsdSet.modules];
  const contents = await Promise.all(files.map(readSchemaFile));
  if (!xsdProvider) {
    xsdProvider = new XmlBufferInputProvider({});
    xmlRegisterInputProvider(xsdProvider);
  }
  files.forEach((file, index) => {
    xsdProvider!.addBuffer(file, contents[index]!);
    xsdProvider!.addBuffer(pathToFileURL(file).href, contents[index]!);
  });
  const schemaDocument = XmlDocument.fromBuffer(contents[0]!, { url: xsdSet.main });
  try {
    return { validator: XsdValidator.fromDoc(schemaDocument), rootNamespace: xsdSet.rootNamespace ?? null };
  } finally {
    schemaDocument.dispose();
  }
}

// Known by their main file: a set passed to a worker thread is a copy, never the same object.
const xsdVersions = new Map<string, string>([
  [cdarXsd.main, standardsVersions.cdar],
  [ciiD22bXsd.main, standardsVersions.ciiXsd],
  [facturxBasicWlXsd.main, standardsVersions.facturxBasicWl],
  [facturxExtendedXsd.main, standardsVersions.facturxExtended],
]);
const xsdVersionOf = (sets: XsdSet[]) =>
  xsdVersions.get(sets[0]?.main ?? '') ??
  (sets.some((set) => set.rootNamespace !== undefined) ? standardsVersions.ublXsd : standardsVersions.facturx);

export class OfficialValidator {
  private constructor(
    private readonly xsds: LoadedXsd[],
    private readonly sheets: (LoadedStylesheet | FlagVariant)[],
    private readonly xsdVersion: string,
    private readonly ruleSet: string,
  ) {}

  static async open(options: OfficialValidatorOptions): Promise<OfficialValidator> {
    const xsdSets = options.xsdByRoot ?? [options.xsd ?? facturxXsd];
    const xsds: LoadedXsd[] = [];
    for (const set of xsdSets) xsds.push(await loadXsd(set));

    const ruleSet = ruleSetOf(options.ruleSet ?? ruleSets[0]!.id).id;
    const sheets: (LoadedStylesheet | FlagVariant)[] = [];
    const names = Object.keys(options.compiled) as StylesheetName[];
    for (const [name, sefPath] of Object.entries(options.compiled) as [StylesheetName, string][]) {
      const sheet = stylesheetInSet(name, ruleSet);
      const base = sheet.flagVariantOf;
      // Run before it, so its failures are there to repeat.
      if (base && names.indexOf(base) >= 0 && names.indexOf(base) < names.indexOf(name)) {
        const [baseText, variantText] = await Promise.all([
          readFile(stylesheetInSet(base, ruleSet).xslt, 'utf8'),
          readFile(sheet.xslt, 'utf8'),
        ]);
        const flags = flagVariantFlags(baseText, variantText);
        if (flags) {
          sheets.push({ name, base, flags });
          continue;
        }
      }
      const documentPool: Record<string, SaxonNode> = {};
      // A code list read by document() is parsed once here rather than at every transform.
      for (const path of sheet.documents) {
        documentPool[pathToFileURL(path).href] = await SaxonJS.getResource({ file: path, type: 'xml' });
      }
      sheets.push({
        name,
        internal: JSON.parse(await readFile(sefPath, 'utf8')) as unknown,
        baseUri: pathToFileURL(sheet.xslt).href,
        documentPool,
      });
    }
    return new OfficialValidator(xsds, sheets, xsdVersionOf(xsdSets), ruleSet);
  }

  /** The XSD, then every stylesheet: all failures are collected, none stops the others. */
  async validate(xml: string): Promise<ValidationReport> {
    const [outcome] = await this.validateBatch([xml]);
    if ('error' in outcome!) throw outcome.error;
    return outcome!.report;
  }

  /**
   * Several documents at once, each with the report `validate` gives it. Each stylesheet runs once
   * for the whole batch, the documents as its initial match selection: saxon-js prepares a
   * stylesheet (a walk of its whole SEF, 10 to 20 ms for these) at every transform, whatever the
   * document, and the schematrons' only global variable (`document-uri`) is never read, so every
   * document gets the SVRL it would get alone. If the batch's transform fails, or does not give one
   * SVRL per document, each document is run alone, so one document's error stays its own.
   */
  async validateBatch(xmls: string[], only?: (readonly StylesheetName[] | null)[]): Promise<BatchOutcome[]> {
    // Per document, the stylesheets that bind it (null: all): the others neither run nor report.
    const documents = xmls.map((_, index) => ({
      only: only?.[index] ?? null,
      failures: [] as RuleFailure[],
      timings: {} as Record<string, number>,
      source: null as SaxonNode | null,
      error: null as { error: unknown } | null,
    }));
    for (const [index, xml] of xmls.entries()) {
      const document = documents[index]!;
      let started = performance.now();
      document.failures.push(...this.validateXsd(xml));
      document.timings.xsd = performance.now() - started;
      started = performance.now();
      try {
        document.source = await SaxonJS.getResource({ text: xml, type: 'xml' });
      } catch (error) {
        if (!document.failures.some((failure) => failure.rule === 'XML'))
          document.failures.push({
            source: 'xsd',
            rule: 'XML',
            assertId: null,
            flag: 'error',
            text: messageOf(error),
            location: null,
          });
      }
      document.timings.parse = performance.now() - started;
    }
    for (const sheet of this.sheets) {
      const parsed = documents.filter(
        (document) =>
          document.source && !document.error && (document.only === null || document.only.includes(sheet.name)),
      );
      if (parsed.length === 0) continue;
      let started = performance.now();
      if ('base' in sheet) {
        for (const document of parsed) {
          started = performance.now();
          const repeated = document.failures
            .filter((failure) => failure.source === sheet.base)
            .map((failure) => ({
              ...failure,
              source: sheet.name,
              flag: (failure.assertId !== null ? sheet.flags.get(failure.assertId) : undefined) ?? failure.flag,
            }));
          document.failures.push(...repeated);
          document.timings[sheet.name] = performance.now() - started;
        }
        continue;
      }
      let reports: SvrlElement[] | null = null;
      if (parsed.length > 1) {
        try {
          reports = this.transform(
            sheet,
            parsed.map((document) => document.source!),
          );
          if (reports.length !== parsed.length) reports = null;
        } catch {
          reports = null;
        }
      }
      if (reports) {
        const each = (performance.now() - started) / parsed.length;
        parsed.forEach((document, index) => {
          document.failures.push(...svrlNodeFailures(reports[index]!, sheet.name));
          document.timings[sheet.name] = each;
        });
        continue;
      }
      for (const document of parsed) {
        started = performance.now();
        try {
          const alone = this.transform(sheet, [document.source!]);
          if (alone.length !== 1) throw new Error(`${sheet.name} gave ${alone.length} SVRL reports for one document`);
          document.failures.push(...svrlNodeFailures(alone[0]!, sheet.name));
        } catch (error) {
          document.error = { error };
        }
        document.timings[sheet.name] = performance.now() - started;
      }
    }
    return documents.map((document): BatchOutcome => {
      if (document.error) return document.error;
      const failures = document.failures;
      const validators = [
        `XSD ${this.xsdVersion}`,
        ...this.sheets
          .filter((sheet) => document.only === null || document.only.includes(sheet.name))
          .map((sheet) => `${sheet.name} (${versionOf(sheet.name, this.ruleSet)})`),
      ];
      return {
        report: {
          valid: failures.length === 0,
          failures,
          rules: [...new Set(failures.map((failure) => failure.rule))],
          validators,
          ruleSet: this.ruleSet,
          timings: document.timings,
        },
      };
    });
  }

  /** The SVRL reports of a stylesheet on these documents, one per document, as trees. */
  private transform(sheet: LoadedStylesheet, sources: SaxonNode[]): SvrlElement[] {
    const result = SaxonJS.transform({
      stylesheetInternal: sheet.internal,
      stylesheetBaseURI: sheet.baseUri,
      initialSelection: sources,
      documentPool: sheet.documentPool,
      destination: 'raw',
      resultForm: 'array',
    });
    return result.principalResult as SvrlElement[];
  }

  private validateXsd(xml: string): RuleFailure[] {
    let document: XmlDocument;
    try {
      document = XmlDocument.fromString(xml);
    } catch (error) {
      return [{ source: 'xsd', rule: 'XML', assertId: null, flag: 'error', text: messageOf(error), location: null }];
    }
    try {
      const namespace = document.root.namespaceUri;
      const xsd = this.xsds.find((each) => each.rootNamespace === null || each.rootNamespace === namespace);
      if (!xsd) {
        const expected = this.xsds.map((each) => each.rootNamespace).join(', ');
        const text = `the root element {${namespace}}${document.root.name} is none of the XSDs' documents (${expected})`;
        return [{ source: 'xsd', rule: 'XSD', assertId: null, flag: 'error', text, location: null }];
      }
      xsd.validator.validate(document);
      return [];
    } catch (error) {
      if (!(error instanceof XmlValidateError)) throw error;
      return error.details.map((detail) => ({
        source: 'xsd' as const,
        rule: 'XSD',
        assertId: null,
        flag: 'error',
        text: detail.message.trim(),
        location: detail.line ? `line ${detail.line}` : null,
      }));
    } finally {
      document.dispose();
    }
  }

  close(): void {
    for (const xsd of this.xsds) xsd.validator.dispose();
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
