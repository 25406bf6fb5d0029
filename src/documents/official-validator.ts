import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import SaxonJS, { type SaxonNode } from 'saxon-js';
import {
  XmlBufferInputProvider,
  XmlDocument,
  XmlValidateError,
  XsdValidator,
  xmlRegisterInputProvider,
} from 'libxml2-wasm';
import { cdarXsd, facturxXsd, standardsVersions, stylesheets, type StylesheetName, type XsdSet } from './standards.js';

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
  /** Milliseconds spent per validator. */
  timings: Record<string, number>;
}

export interface OfficialValidatorOptions {
  /** The SEF of each stylesheet to run, by name (sef-cache.ts compiles them). */
  compiled: Partial<Record<StylesheetName, string>>;
  /** The XSD the documents must pass: the Factur-X EN16931 one (default) or the CDAR one. */
  xsd?: XsdSet;
}

interface LoadedStylesheet {
  name: StylesheetName;
  internal: unknown;
  baseUri: string;
  documentPool: Record<string, SaxonNode>;
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

/** The failures of an SVRL report (the schematron's output). */
export function svrlFailures(svrl: string, source: StylesheetName): RuleFailure[] {
  const failures: RuleFailure[] = [];
  const pattern = /<svrl:(failed-assert|successful-report)(\s[^>]*)?>([\s\S]*?)<\/svrl:\1>/g;
  for (const match of svrl.matchAll(pattern)) {
    const attributes = match[2] ?? '';
    const textMatch = /<svrl:text>([\s\S]*?)<\/svrl:text>/.exec(match[3]!);
    const text = textMatch ? unescapeXml(textMatch[1]!).replace(/\s+/g, ' ').trim() : '';
    const assertId = attribute(attributes, 'id');
    // The Factur-X schematron numbers its asserts and names the EN 16931 rule in the text: "[BR-CO-16]-...".
    const named = /^\[((?:BR|PEPPOL)-[A-Z0-9-]+)\]/.exec(text);
    failures.push({
      source,
      rule: named?.[1] ?? assertId ?? `(${attribute(attributes, 'test') ?? 'unnamed rule'})`,
      assertId,
      flag: attribute(attributes, 'flag') ?? 'fatal',
      text,
      location: attribute(attributes, 'location'),
    });
  }
  return failures;
}

// One provider for the whole process: libxml2 asks it for every file an XSD imports.
let xsdProvider: XmlBufferInputProvider | null = null;

const versionOf = (name: StylesheetName) =>
  name === 'BR-FR-CDV-Schematron-CDAR'
    ? standardsVersions.cdar
    : name.startsWith('BR-FR')
      ? standardsVersions.brfr
      : standardsVersions.facturx;

export class OfficialValidator {
  private constructor(
    private readonly xsd: XsdValidator,
    private readonly sheets: LoadedStylesheet[],
    private readonly xsdVersion: string,
  ) {}

  static async open(options: OfficialValidatorOptions): Promise<OfficialValidator> {
    // The XSD imports its modules by relative name: libxml2 reads them from memory, never from disk.
    const xsdSet = options.xsd ?? facturxXsd;
    const files = [xsdSet.main, ...xsdSet.modules];
    const contents = await Promise.all(files.map((file) => readFile(file)));
    if (!xsdProvider) {
      xsdProvider = new XmlBufferInputProvider({});
      xmlRegisterInputProvider(xsdProvider);
    }
    files.forEach((file, index) => {
      xsdProvider!.addBuffer(file, contents[index]!);
      xsdProvider!.addBuffer(pathToFileURL(file).href, contents[index]!);
    });
    const schemaDocument = XmlDocument.fromBuffer(contents[0]!, { url: xsdSet.main });
    let xsd: XsdValidator;
    try {
      xsd = XsdValidator.fromDoc(schemaDocument);
    } finally {
      schemaDocument.dispose();
    }

    const sheets: LoadedStylesheet[] = [];
    for (const [name, sefPath] of Object.entries(options.compiled) as [StylesheetName, string][]) {
      const sheet = stylesheets[name];
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
    return new OfficialValidator(xsd, sheets, xsdSet === cdarXsd ? standardsVersions.cdar : standardsVersions.facturx);
  }

  /** The XSD, then every stylesheet: all failures are collected, none stops the others. */
  async validate(xml: string): Promise<ValidationReport> {
    const failures: RuleFailure[] = [];
    const timings: Record<string, number> = {};
    let started = performance.now();
    failures.push(...this.validateXsd(xml));
    timings.xsd = performance.now() - started;

    started = performance.now();
    let source: SaxonNode | null = null;
    try {
      source = await SaxonJS.getResource({ text: xml, type: 'xml' });
    } catch (error) {
      if (!failures.some((failure) => failure.rule === 'XML'))
        failures.push({
          source: 'xsd',
          rule: 'XML',
          assertId: null,
          flag: 'error',
          text: messageOf(error),
          location: null,
        });
    }
    timings.parse = performance.now() - started;
    if (source) {
      for (const sheet of this.sheets) {
        started = performance.now();
        const result = SaxonJS.transform({
          stylesheetInternal: sheet.internal,
          stylesheetBaseURI: sheet.baseUri,
          sourceNode: source,
          documentPool: sheet.documentPool,
          destination: 'serialized',
        });
        failures.push(...svrlFailures(String(result.principalResult), sheet.name));
        timings[sheet.name] = performance.now() - started;
      }
    }
    return {
      valid: failures.length === 0,
      failures,
      rules: [...new Set(failures.map((failure) => failure.rule))],
      validators: [`XSD ${this.xsdVersion}`, ...this.sheets.map((sheet) => `${sheet.name} (${versionOf(sheet.name)})`)],
      timings,
    };
  }

  private validateXsd(xml: string): RuleFailure[] {
    let document: XmlDocument;
    try {
      document = XmlDocument.fromString(xml);
    } catch (error) {
      return [{ source: 'xsd', rule: 'XML', assertId: null, flag: 'error', text: messageOf(error), location: null }];
    }
    try {
      this.xsd.validate(document);
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
    this.xsd.dispose();
  }
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
