import type { EinvoiceSyntax } from '../kernel/einvoice-syntax.js';

/**
 * The generated files of a finalized invoice or credit note: their kinds, names, content types,
 * and how the resource lists them. A draft has none.
 */

export const fileKinds = ['facturx', 'xml', 'pdf', 'ubl'] as const;
export type FileKind = (typeof fileKinds)[number];

export type FileState = 'pending' | 'generating' | 'ready' | 'failed';

export interface StoredFile {
  sha256: string;
  size: number;
}

export type StoredFiles = Record<FileKind, StoredFile>;

export interface FileFailure {
  /** The validators' rule ids (`BR-CO-16`, `BR-FR-05_BT-22_PMT`), empty for an error of another kind. */
  rules: string[];
  message: string;
}

export const fileContentTypes: Record<FileKind, string> = {
  facturx: 'application/pdf',
  xml: 'application/xml',
  pdf: 'application/pdf',
  ubl: 'application/xml',
};

/**
 * Stable names from the number: the Factur-X (the invoice itself: the readable PDF/A-3 carrying
 * its CII) is `F2026-000001.pdf`, its CII `F2026-000001.xml`, the plain readable PDF (no XML
 * attached) `F2026-000001-visual.pdf`, its UBL 2.1 `F2026-000001-ubl.xml`.
 */
export function fileNameOf(number: string, kind: FileKind): string {
  if (kind === 'facturx') return `${number}.pdf`;
  if (kind === 'xml') return `${number}.xml`;
  if (kind === 'ubl') return `${number}-ubl.xml`;
  return `${number}-visual.pdf`;
}

export interface FileEntry {
  kind: FileKind;
  state: FileState;
  sha256: string | null;
  size: number | null;
  contentType: string;
  fileName: string;
  url: string;
  /** The rule set that validated the file (the XML files and the Factur-X); null for the readable PDF or until ready. */
  ruleSet: string | null;
}

/** The document's `files`: the three kinds in one state; none for a draft or a deleted draft. */
export function fileEntries(
  document: { id: string; kind: string; number: string | null },
  files: { state: string; files: StoredFiles | null; ruleSet?: string | null } | null,
): FileEntry[] {
  if (!files || document.number === null) return [];
  const base = document.kind === 'credit_note' ? '/v1/credit-notes' : '/v1/invoices';
  return fileKinds.map((kind) => ({
    kind,
    state: files.state as FileState,
    sha256: files.files?.[kind]?.sha256 ?? null,
    size: files.files?.[kind]?.size ?? null,
    contentType: fileContentTypes[kind],
    fileName: fileNameOf(document.number!, kind),
    url: `${base}/${document.id}/files/${kind}`,
    ruleSet: kind === 'pdf' || files.state !== 'ready' ? null : (files.ruleSet ?? null),
  }));
}

/**
 * Which of a document's files the platform deposit carries, and its AFNOR `flowSyntax`: the
 * buyer's preferred syntax, else the issuing establishment's default, else the Factur-X (what
 * every platform accepts, the readable invoice with its CII). Pure: the deposit reads the two
 * settings where they are stored and asks this.
 */
export function documentSyntaxOf(preferences: {
  customer?: EinvoiceSyntax | null;
  establishment?: EinvoiceSyntax | null;
}): { fileKind: Extract<FileKind, 'facturx' | 'ubl'>; flowSyntax: 'Factur-X' | 'UBL' } {
  const syntax = preferences.customer ?? preferences.establishment ?? 'cii';
  return syntax === 'ubl' ? { fileKind: 'ubl', flowSyntax: 'UBL' } : { fileKind: 'facturx', flowSyntax: 'Factur-X' };
}
