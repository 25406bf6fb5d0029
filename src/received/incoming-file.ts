import {
  CiiReadError,
  defaultInflationLimits,
  extractFacturXml,
  InflationLimitError,
  readCii,
  type ReadDocument,
} from '../einvoice/cii-reader.js';
import { hostileXmlReason } from '../kernel/hostile-xml.js';
import { readUbl, UblReadError } from '../einvoice/ubl-reader.js';

/**
 * What an incoming invoice file is: a Factur-X (or ZUGFeRD) PDF with its embedded CII, a CII XML,
 * or a UBL Invoice / CreditNote. Decided by the bytes, never by a name or a declared type.
 */

export type IncomingSyntax = 'CII' | 'UBL' | 'Factur-X';

export interface IncomingFile {
  syntax: IncomingSyntax;
  /** The content type the original is served with. */
  contentType: 'application/pdf' | 'application/xml';
  /** The invoice XML (the PDF's embedded one for a Factur-X). */
  xml: string;
  document: ReadDocument;
}

/** Why a file is not read: it is not an invoice we can read, or it is over a limit (a bomb). */
export class IncomingFileError extends Error {
  constructor(
    message: string,
    readonly reason: 'unreadable' | 'too_large' = 'unreadable',
  ) {
    super(message);
  }
}

/** A hostile XML (a DOCTYPE, forbidden characters: kernel/hostile-xml.ts) is refused before any parser. */
function refuseHostileXml(xml: string): void {
  const reason = hostileXmlReason(xml);
  if (reason !== null) throw new IncomingFileError(reason);
}

const rootName = (xml: string): string | null => {
  // The first element after the prolog, comments and processing instructions.
  const match = /<(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)[\s/>]/.exec(
    xml.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->/g, ''),
  );
  return match ? match[1]! : null;
};

/** The largest PDF taken (a Factur-X with scanned pages stays well within). */
export const maxIncomingPdfBytes = 50 * 1024 * 1024;

/**
 * Reads a file from outside. It runs in a thread of its own (incoming-file-thread.ts): call
 * `readIncomingFileInThread` from the service, never this on the event loop.
 */
export async function readIncomingFile(bytes: Uint8Array): Promise<IncomingFile> {
  if (bytes.length === 0) throw new IncomingFileError('the file is empty');
  const head = Buffer.from(bytes.subarray(0, 5)).toString('latin1');
  const tooLarge = (limit: number) =>
    new IncomingFileError(`the file is over the limit of ${limit} bytes (${bytes.length} bytes)`, 'too_large');
  try {
    if (head === '%PDF-') {
      if (bytes.length > maxIncomingPdfBytes) throw tooLarge(maxIncomingPdfBytes);
      let embedded;
      try {
        embedded = await extractFacturXml(bytes);
      } catch (error) {
        if (error instanceof InflationLimitError) throw new IncomingFileError(error.message, 'too_large');
        throw new IncomingFileError(
          `the PDF cannot be read: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      if (!embedded) throw new IncomingFileError('the PDF carries no Factur-X or ZUGFeRD XML');
      refuseHostileXml(embedded.xml);
      return { syntax: 'Factur-X', contentType: 'application/pdf', xml: embedded.xml, document: readCii(embedded.xml) };
    }
    if (bytes.length > defaultInflationLimits.maxBytes) throw tooLarge(defaultInflationLimits.maxBytes);
    const xml = new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
    refuseHostileXml(xml);
    const root = rootName(xml);
    if (root === 'CrossIndustryInvoice')
      return { syntax: 'CII', contentType: 'application/xml', xml, document: readCii(xml) };
    if (root === 'Invoice' || root === 'CreditNote')
      return { syntax: 'UBL', contentType: 'application/xml', xml, document: readUbl(xml) };
    throw new IncomingFileError('the file is neither a Factur-X PDF, a CII nor a UBL invoice');
  } catch (error) {
    if (error instanceof CiiReadError || error instanceof UblReadError) throw new IncomingFileError(error.message);
    if (error instanceof TypeError) throw new IncomingFileError('the file is not UTF-8 text nor a PDF');
    throw error;
  }
}
