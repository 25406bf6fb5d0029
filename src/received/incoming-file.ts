import { CiiReadError, extractFacturXml, readCii, type ReadDocument } from '../documents/cii-reader.js';
import { readUbl, UblReadError } from './ubl-reader.js';

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

export class IncomingFileError extends Error {}

const rootName = (xml: string): string | null => {
  // The first element after the prolog, comments and processing instructions.
  const match = /<(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)[\s/>]/.exec(
    xml.replace(/<\?[\s\S]*?\?>|<!--[\s\S]*?-->/g, ''),
  );
  return match ? match[1]! : null;
};

export async function readIncomingFile(bytes: Uint8Array): Promise<IncomingFile> {
  if (bytes.length === 0) throw new IncomingFileError('the file is empty');
  const head = Buffer.from(bytes.subarray(0, 5)).toString('latin1');
  try {
    if (head === '%PDF-') {
      let embedded;
      try {
        embedded = await extractFacturXml(bytes);
      } catch (error) {
        throw new IncomingFileError(
          `the PDF cannot be read: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      if (!embedded) throw new IncomingFileError('the PDF carries no Factur-X or ZUGFeRD XML');
      return { syntax: 'Factur-X', contentType: 'application/pdf', xml: embedded.xml, document: readCii(embedded.xml) };
    }
    const xml = new TextDecoder('utf-8', { fatal: true }).decode(bytes).replace(/^\uFEFF/, '');
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
