import { readFileSync } from 'node:fs';
import { documentNameOf, type DocumentModel } from './document-model.js';
import { drawDocument, newPdfDocument, pdfBytes, type PdfOptions } from './pdf-renderer.js';
import { facturxXmpTemplate } from './standards.js';

/**
 * The Factur-X document: the readable PDF/A-3b (pdf-renderer.ts) carrying its CII as
 * `factur-x.xml` (an embedded file of MIME type text/xml, AFRelationship `Data`, listed in the
 * catalog's /AF and /Names), with the Factur-X XMP: the `fx:` properties (document type INVOICE,
 * file name, version 1.0, conformance level `EN 16931`) and the PDF/A extension schema that
 * declares them, from the block the Factur-X specification publishes (standards/xmp/). Each
 * attachment of the document (BG-24) is embedded too, AFRelationship `Supplement`.
 */

export const facturxFileName = 'factur-x.xml';
export const facturxConformanceLevel = 'EN 16931';

let extensionSchema: string | null = null;

/**
 * The two `rdf:Description` blocks of the published template: the fx properties with our
 * conformance level, and the extension schema description, which is written once per subject.
 */
export function facturxXmp(conformanceLevel = facturxConformanceLevel): string {
  extensionSchema ??= (() => {
    const template = readFileSync(facturxXmpTemplate, 'utf8');
    const start = template.indexOf('<rdf:Description');
    const end = template.lastIndexOf('</rdf:RDF>');
    if (start < 0 || end < start) throw new Error(`${facturxXmpTemplate} is not the Factur-X XMP template`);
    return template
      .slice(start, end)
      .replace(/<!--[\s\S]*?-->/g, '')
      .trim();
  })();
  return extensionSchema.replace(
    /<fx:ConformanceLevel>[^<]*<\/fx:ConformanceLevel>/,
    `<fx:ConformanceLevel>${conformanceLevel}</fx:ConformanceLevel>`,
  );
}

/** The Factur-X PDF of a document whose CII is `xml` (already written and validated). */
export function buildFacturX(model: DocumentModel, xml: string, options: PdfOptions = {}): Promise<Buffer> {
  const creationDate = options.creationDate ?? new Date();
  const doc = newPdfDocument(model, { creationDate });
  drawDocument(doc, model, options);
  doc.file(Buffer.from(xml, 'utf8'), {
    name: facturxFileName,
    type: 'text/xml',
    relationship: 'Data',
    description: `Factur-X ${facturxConformanceLevel} : ${documentNameOf(model.typeCode).toLowerCase()} ${model.number}`,
    creationDate,
    modifiedDate: creationDate,
  });
  // BG-24: each attachment a file of its own beside the XML, named as BT-122 names it, with the
  // AFRelationship Factur-X gives supporting documents (Supplement), listed in /AF and /Names.
  for (const attachment of model.attachments ?? [])
    doc.file(attachment.content, {
      name: attachment.filename,
      type: attachment.mimeCode,
      relationship: 'Supplement',
      description: attachment.description ?? attachment.code,
      creationDate,
      modifiedDate: creationDate,
    });
  doc.appendXML(facturxXmp());
  return pdfBytes(doc);
}
