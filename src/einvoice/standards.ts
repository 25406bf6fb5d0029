import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The official artefacts the service runs, carried in `standards/` beside this file (a deployed
 * service has no access to anything else; `standards/PROVENANCE.md` names their source, commit and
 * licence).
 */

export const standardsDir = join(dirname(fileURLToPath(import.meta.url)), 'standards');

/** An XSD and the modules it imports by relative name (libxml2 reads them from memory). */
export interface XsdSet {
  main: string;
  modules: string[];
  /** The namespace of the root element this XSD is for, when a set of XSDs is chosen by root (UBL). */
  rootNamespace?: string;
}

/** Factur-X 1.09, profile EN 16931: the XSD (it imports its three modules by relative name). */
export const facturxXsd: XsdSet = {
  main: join(standardsDir, 'factur-x-en16931', 'xsd', 'Factur-X_EN16931.xsd'),
  modules: [
    'Factur-X_1.09_EN16931_urn_un_unece_uncefact_data_standard_QualifiedDataType_100.xsd',
    'Factur-X_1.09_EN16931_urn_un_unece_uncefact_data_standard_ReusableAggregateBusinessInformationEntity_100.xsd',
    'Factur-X_1.09_EN16931_urn_un_unece_uncefact_data_standard_UnqualifiedDataType_100.xsd',
  ].map((name) => join(standardsDir, 'factur-x-en16931', 'xsd', name)),
};

/** The life-cycle message (CDAR D22B, the statuses 200 to 601): the XSD and its twelve modules. */
const cdarXsdDir = join(standardsDir, 'cdar', 'xsd');
const cdarPrefix = 'CrossDomainAcknowledgementAndResponse_100pD22B';
export const cdarXsd: XsdSet = {
  main: join(cdarXsdDir, `${cdarPrefix}.xsd`),
  modules: [
    'urn_un_unece_uncefact_codelist_standard_UNECE_ContactFunctionCode_D22A',
    'urn_un_unece_uncefact_codelist_standard_UNECE_DocumentNameCode_D22A',
    'urn_un_unece_uncefact_codelist_standard_UNECE_DocumentStatusCode_D22A',
    'urn_un_unece_uncefact_codelist_standard_UNECE_MessageFunctionCode_Acknowledgement_D22A',
    'urn_un_unece_uncefact_codelist_standard_UNECE_PartyRoleCode_D22A',
    'urn_un_unece_uncefact_codelist_standard_UNECE_ReferenceTypeCode_D22A',
    'urn_un_unece_uncefact_codelist_standard_UNECE_StatusCode_D22A',
    'urn_un_unece_uncefact_codelist_standard_UNECE_TimePointFormatCode_D21B',
    'urn_un_unece_uncefact_data_standard_QualifiedDataType_100',
    'urn_un_unece_uncefact_data_standard_ReusableAggregateBusinessInformationEntity_100',
    'urn_un_unece_uncefact_data_standard_UnqualifiedDataType_100',
    'urn_un_unece_uncefact_identifierlist_standard_ISO_ISOAlpha2LanguageCode_2006-10-27',
    'urn_un_unece_uncefact_identifierlist_standard_ISO_ISOTwo-letterCountryCode_SecondEdition2006',
  ].map((name) => join(cdarXsdDir, `${cdarPrefix}_${name}.xsd`)),
};

/**
 * OASIS UBL 2.1: one XSD per document (Invoice, CreditNote), each importing the common modules by
 * relative name; `rootNamespace` says which document an XSD is for (the validator picks by root).
 */
const ublXsdDir = join(standardsDir, 'ubl', 'xsd');
const ublCommonModules = [
  'CCTS_CCT_SchemaModule-2.1',
  'UBL-CommonAggregateComponents-2.1',
  'UBL-CommonBasicComponents-2.1',
  'UBL-CommonExtensionComponents-2.1',
  'UBL-CommonSignatureComponents-2.1',
  'UBL-CoreComponentParameters-2.1',
  'UBL-ExtensionContentDataType-2.1',
  'UBL-QualifiedDataTypes-2.1',
  'UBL-SignatureAggregateComponents-2.1',
  'UBL-SignatureBasicComponents-2.1',
  'UBL-UnqualifiedDataTypes-2.1',
  'UBL-XAdESv132-2.1',
  'UBL-XAdESv141-2.1',
  'UBL-xmldsig-core-schema-2.1',
].map((name) => join(ublXsdDir, 'common', `${name}.xsd`));
export const ublInvoiceNamespace = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
export const ublCreditNoteNamespace = 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2';
export const ublXsd: XsdSet[] = [
  {
    main: join(ublXsdDir, 'maindoc', 'UBL-Invoice-2.1.xsd'),
    modules: ublCommonModules,
    rootNamespace: ublInvoiceNamespace,
  },
  {
    main: join(ublXsdDir, 'maindoc', 'UBL-CreditNote-2.1.xsd'),
    modules: ublCommonModules,
    rootNamespace: ublCreditNoteNamespace,
  },
];

/**
 * UN/CEFACT CII D22B (uncoupled), the XSD of a CII of the French extended profile (EXTENDED-CTC-FR
 * goes beyond what the Factur-X EN16931 XSD allows): the main XSD and its 64 code-list and data-type
 * modules, imported by relative name.
 */
const ciiD22bXsdDir = join(standardsDir, 'cii-extended-ctc-fr', 'xsd');
const ciiD22bMain = 'CrossIndustryInvoice_100pD22B.xsd';
export const ciiD22bXsd: XsdSet = {
  main: join(ciiD22bXsdDir, ciiD22bMain),
  modules: readdirSync(ciiD22bXsdDir)
    .filter((name) => name.endsWith('.xsd') && name !== ciiD22bMain)
    .sort()
    .map((name) => join(ciiD22bXsdDir, name)),
};

/**
 * The Factur-X XSD of another profile a supplier may send (BASIC WL): the main file and its three
 * modules, imported by relative name, all in `<folder>/xsd/`.
 */
function facturxProfileXsd(folder: string, main: string): XsdSet {
  const dir = join(standardsDir, folder, 'xsd');
  return {
    main: join(dir, main),
    modules: readdirSync(dir)
      .filter((name) => name.endsWith('.xsd') && name !== main)
      .sort()
      .map((name) => join(dir, name)),
  };
}

/** Factur-X 1.09.2 BASIC WL (no lines): a received invoice of that profile is judged by its own XSD. */
export const facturxBasicWlXsd: XsdSet = facturxProfileXsd('factur-x-basicwl', 'Factur-X_BASICWL.xsd');

/** Factur-X 1.09.2 EXTENDED: a received invoice of that profile is judged by its own XSD. */
export const facturxExtendedXsd: XsdSet = facturxProfileXsd('factur-x-extended', 'Factur-X_EXTENDED.xsd');

export type StylesheetName =
  | 'FACTUR-X_EN16931'
  | 'FACTUR-X_BASIC-WL'
  | 'FACTUR-X_EXTENDED'
  | 'BR-FR-Flux2-Schematron-CII'
  | 'BR-FR-Flux2-Schematron-CII_WARNING'
  | 'BR-FR-CDV-Schematron-CDAR'
  | 'PPF_Flux10_v1_0'
  | 'EN16931-UBL-validation'
  | 'BR-FR-Flux2-Schematron-UBL'
  | 'BR-FR-Flux2-Schematron-UBL_WARNING'
  | 'EXTENDED-CTC-FR-UBL'
  | 'EXTENDED-CTC-FR-CII';

/** A schematron in its XSLT form, and the documents its `document()` calls read. */
export interface Stylesheet {
  name: StylesheetName;
  xslt: string;
  documents: string[];
  /**
   * The stylesheet this one repeats with other flags on its asserts (the BR-FR _WARNING variant):
   * when both files are the same text but for the flags, the validator runs the other one only and
   * gives its failures again under this name, with this file's flags (official-validator.ts).
   */
  flagVariantOf?: StylesheetName;
  /**
   * The French CIUS (BR-FR): it binds only the documents in scope of e-invoicing (domestic B2B,
   * through the platforms); a document outside it is judged by EN 16931 and its profile alone.
   */
  einvoicingOnly?: true;
  /**
   * The one form it is compiled in (sef-cache.ts), when not the walks rewritten: the Factur-X
   * EXTENDED schematron (1.7 MB of XSLT) rewritten does not compile within 12 GB; `retyped` (its
   * walks as published) takes 40 s and 0.8 GB.
   */
  compiledForm?: 'retyped';
}

export const stylesheets: Record<StylesheetName, Stylesheet> = {
  'FACTUR-X_EN16931': {
    name: 'FACTUR-X_EN16931',
    xslt: join(standardsDir, 'factur-x-en16931', 'FACTUR-X_EN16931.xslt'),
    documents: [join(standardsDir, 'factur-x-en16931', 'FACTUR-X_EN16931_codedb.xml')],
  },
  // Factur-X BASIC WL, a profile a supplier may send, judged by its own schematron.
  'FACTUR-X_BASIC-WL': {
    name: 'FACTUR-X_BASIC-WL',
    xslt: join(standardsDir, 'factur-x-basicwl', 'FACTUR-X_BASIC-WL.xslt'),
    documents: [join(standardsDir, 'factur-x-basicwl', 'FACTUR-X_BASIC-WL_codedb.xml')],
  },
  // Factur-X EXTENDED, a profile a supplier may send, judged by its own schematron.
  'FACTUR-X_EXTENDED': {
    name: 'FACTUR-X_EXTENDED',
    compiledForm: 'retyped',
    xslt: join(standardsDir, 'factur-x-extended', 'FACTUR-X_EXTENDED.xslt'),
    documents: [join(standardsDir, 'factur-x-extended', 'FACTUR-X_EXTENDED_codedb.xml')],
  },
  'BR-FR-Flux2-Schematron-CII': {
    name: 'BR-FR-Flux2-Schematron-CII',
    einvoicingOnly: true,
    xslt: join(standardsDir, 'br-fr-cii', 'BR-FR-Flux2-Schematron-CII.xslt'),
    documents: [],
  },
  'BR-FR-Flux2-Schematron-CII_WARNING': {
    name: 'BR-FR-Flux2-Schematron-CII_WARNING',
    einvoicingOnly: true,
    xslt: join(standardsDir, 'br-fr-cii', 'BR-FR-Flux2-Schematron-CII_WARNING.xslt'),
    documents: [],
    flagVariantOf: 'BR-FR-Flux2-Schematron-CII',
  },
  // Its _WARNING variant differs only in flags, and every failed assert counts whatever its flag.
  'BR-FR-CDV-Schematron-CDAR': {
    name: 'BR-FR-CDV-Schematron-CDAR',
    xslt: join(standardsDir, 'cdar', 'BR-FR-CDV-Schematron-CDAR.xslt'),
    documents: [],
  },
  // The PPF flow 10 schematron: e-reporting carries it (src/ereporting/standards/, its PROVENANCE.md).
  PPF_Flux10_v1_0: {
    name: 'PPF_Flux10_v1_0',
    xslt: join(standardsDir, '..', '..', 'ereporting', 'standards', 'flux10', 'PPF_Flux10_v1_0.xslt'),
    documents: [],
  },
  // UBL 2.1: the CEN EN 16931 rules, the French rules for UBL (the EN16931 and EXTENDED-CTC-FR
  // folders of FNFE-MPE carry the same BR-FR files), and the French extended profile's rules.
  'EN16931-UBL-validation': {
    name: 'EN16931-UBL-validation',
    xslt: join(standardsDir, 'ubl', 'EN16931-UBL-validation.xslt'),
    documents: [],
  },
  'BR-FR-Flux2-Schematron-UBL': {
    name: 'BR-FR-Flux2-Schematron-UBL',
    einvoicingOnly: true,
    xslt: join(standardsDir, 'ubl', 'BR-FR-Flux2-Schematron-UBL.xslt'),
    documents: [],
  },
  'BR-FR-Flux2-Schematron-UBL_WARNING': {
    name: 'BR-FR-Flux2-Schematron-UBL_WARNING',
    einvoicingOnly: true,
    xslt: join(standardsDir, 'ubl', 'BR-FR-Flux2-Schematron-UBL_WARNING.xslt'),
    documents: [],
    flagVariantOf: 'BR-FR-Flux2-Schematron-UBL',
  },
  'EXTENDED-CTC-FR-UBL': {
    name: 'EXTENDED-CTC-FR-UBL',
    xslt: join(standardsDir, 'ubl-extended-ctc-fr', 'EXTENDED-CTC-FR-UBL.xslt'),
    documents: [],
  },
  // The French extended profile for CII, in place of the Factur-X EN16931 schematron (same BR-FR rules).
  'EXTENDED-CTC-FR-CII': {
    name: 'EXTENDED-CTC-FR-CII',
    xslt: join(standardsDir, 'cii-extended-ctc-fr', 'EXTENDED-CTC-FR-CII.xslt'),
    documents: [],
  },
};

/**
 * A version of the official rules. FNFE-MPE publishes versions and hotfixes of its artefacts
 * (1.4.0, then 1.4.0.01 to 1.4.0.03 in July and August 2026); a document is judged by the set in
 * force on its date: an issued one on its issue date, a received one on its date of receipt.
 */
export interface RuleSet {
  /** The FNFE-MPE version (`1.4.0.03`). */
  id: string;
  /** The first day (YYYY-MM-DD) it applies to. The first set also judges every earlier date. */
  from: string;
}

/**
 * The rule sets, oldest first. The first is the folders above; each later one is the folder
 * `sets/<id>/`, which holds the files it changes over the set before it, under their published
 * names (a file it does not hold is the earlier set's). Adding a set: its folder and one line here.
 */
export const ruleSets: readonly RuleSet[] = [
  { id: '1.4.0', from: '2026-06-30' },
  // Factur-X 1.09.2 ("Effective date: 2026-09-01" in its header) and the corrected CDAR rules.
  { id: '1.4.0.03', from: '2026-09-01' },
];

const setsDir = join(standardsDir, 'sets');

/** The set in force on `day` (YYYY-MM-DD): the latest that starts on or before it, else the first. */
export function ruleSetInForce(day: string, sets: readonly RuleSet[] = ruleSets): RuleSet {
  let inForce = sets[0]!;
  for (const set of sets) if (set.from <= day) inForce = set;
  return inForce;
}

/** The set of this id; an unknown id is a programming error. */
export function ruleSetOf(id: string): RuleSet {
  const set = ruleSets.find((each) => each.id === id);
  if (!set) throw new Error(`no rule set ${id} (known: ${ruleSets.map((each) => each.id).join(', ')})`);
  return set;
}

const setFiles = new Map<string, Set<string>>();
/** The files a later set's folder holds, by name. */
function filesOfSet(id: string): Set<string> {
  let files = setFiles.get(id);
  if (!files) {
    const dir = join(setsDir, id);
    files = new Set(existsSync(dir) ? readdirSync(dir) : []);
    setFiles.set(id, files);
  }
  return files;
}

/** `file` as the set `id` has it: the latest set up to `id` that holds its name, else the base file. */
function fileInSet(file: string, id: string): string {
  const upTo = ruleSets.indexOf(ruleSetOf(id));
  for (let index = upTo; index > 0; index--) {
    const set = ruleSets[index]!;
    if (filesOfSet(set.id).has(basename(file))) return join(setsDir, set.id, basename(file));
  }
  return file;
}

/** The stylesheet as the set `id` has it (its XSLT and the code lists it reads beside it). */
export function stylesheetInSet(name: StylesheetName, id: string): Stylesheet {
  const sheet = stylesheets[name];
  return {
    ...sheet,
    xslt: fileInSet(sheet.xslt, id),
    documents: sheet.documents.map((document) => fileInSet(document, id)),
  };
}

/** The set (at or before `id`) whose folder holds this stylesheet's XSLT: `null` for the base folders. */
export function ruleSetOfStylesheet(name: StylesheetName, id: string): string | null {
  const xslt = stylesheetInSet(name, id).xslt;
  return xslt.startsWith(setsDir) ? basename(dirname(xslt)) : null;
}

/**
 * A stylesheet as compiled and cached: its name for the file of the base folders, `<name>@<set>`
 * for a set's own file, so a set that changes nothing of a stylesheet shares its compilation.
 */
export type CompiledName = StylesheetName | `${StylesheetName}@${string}`;

export function compiledNameOf(name: StylesheetName, setId: string): CompiledName {
  const own = ruleSetOfStylesheet(name, setId);
  return own === null ? name : `${name}@${own}`;
}

export function stylesheetOfCompiledName(compiled: CompiledName): Stylesheet {
  const [name, set] = compiled.split('@') as [StylesheetName, string | undefined];
  return set === undefined ? stylesheets[name] : stylesheetInSet(name, set);
}

/**
 * The stylesheets of `names` that bind a document in scope of e-invoicing (`inScope`) or outside it
 * (e-reporting, or nothing): the BR-FR ones only in scope.
 */
export const stylesheetsInScope = (names: readonly StylesheetName[], inScope: boolean): StylesheetName[] =>
  names.filter((name) => inScope || !stylesheets[name].einvoicingOnly);

/** What a validation report names as its rules' versions (PROVENANCE.md). */
export const standardsVersions = {
  facturx: 'Factur-X 1.09 EN16931 (fnfempe/France_RFE e9520ce398cc)',
  brfr: 'BR-FR Flux 2 CII V1.4.0 (fnfempe/France_RFE e9520ce398cc)',
  cdar: 'CDAR D22B and BR-FR-CDV V1.4.0 (fnfempe/France_RFE e9520ce398cc)',
  ublXsd: 'OASIS UBL 2.1 (fnfempe/France_RFE e9520ce398cc)',
  en16931Ubl: 'EN 16931 UBL 1.3.16 (FNFE-MPE 1.4.0.03, phax/phive-rules 432f0e9a)',
  brfrUbl: 'BR-FR Flux 2 UBL V1.4.0.03 (phax/phive-rules 432f0e9a)',
  extendedCtcFrUbl: 'EXTENDED-CTC-FR UBL V1.4.0.03 (phax/phive-rules 432f0e9a)',
  extendedCtcFrCii: 'EXTENDED-CTC-FR CII V1.4.0.03 (phax/phive-rules 432f0e9a)',
  ciiXsd: 'UN/CEFACT CII D22B (fnfempe/France_RFE e9520ce398cc)',
  facturxBasicWl: 'Factur-X 1.09.2 BASIC WL (FNFE-MPE 1.4.0.03, phax/phive-rules 432f0e9a)',
  facturxExtended: 'Factur-X 1.09.2 EXTENDED (FNFE-MPE 1.4.0.03, phax/phive-rules 432f0e9a)',
  ppfFlux10: 'PPF flow 10 schematron v1.0 (src/ereporting/standards/flux10)',
} as const;

/** The XMP extension schema block a Factur-X PDF carries (akretion/factur-x). */
export const facturxXmpTemplate = join(standardsDir, 'xmp', 'Factur-X_extension_schema.xmp');
