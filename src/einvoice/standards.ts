import { dirname, join } from 'node:path';
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

export type StylesheetName =
  | 'FACTUR-X_EN16931'
  | 'BR-FR-Flux2-Schematron-CII'
  | 'BR-FR-Flux2-Schematron-CII_WARNING'
  | 'BR-FR-CDV-Schematron-CDAR'
  | 'PPF_Flux10_v1_0';

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
}

export const stylesheets: Record<StylesheetName, Stylesheet> = {
  'FACTUR-X_EN16931': {
    name: 'FACTUR-X_EN16931',
    xslt: join(standardsDir, 'factur-x-en16931', 'FACTUR-X_EN16931.xslt'),
    documents: [join(standardsDir, 'factur-x-en16931', 'FACTUR-X_EN16931_codedb.xml')],
  },
  'BR-FR-Flux2-Schematron-CII': {
    name: 'BR-FR-Flux2-Schematron-CII',
    xslt: join(standardsDir, 'br-fr-cii', 'BR-FR-Flux2-Schematron-CII.xslt'),
    documents: [],
  },
  'BR-FR-Flux2-Schematron-CII_WARNING': {
    name: 'BR-FR-Flux2-Schematron-CII_WARNING',
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
};

/** What a validation report names as its rules' versions (PROVENANCE.md). */
export const standardsVersions = {
  facturx: 'Factur-X 1.09 EN16931 (fnfempe/France_RFE e9520ce398cc)',
  brfr: 'BR-FR Flux 2 CII V1.4.0 (fnfempe/France_RFE e9520ce398cc)',
  cdar: 'CDAR D22B and BR-FR-CDV V1.4.0 (fnfempe/France_RFE e9520ce398cc)',
} as const;

/** The XMP extension schema block a Factur-X PDF carries (akretion/factur-x). */
export const facturxXmpTemplate = join(standardsDir, 'xmp', 'Factur-X_extension_schema.xmp');
