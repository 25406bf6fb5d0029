import { refuse } from '../kernel/errors.js';
import { facturxFileName } from '../einvoice/facturx.js';

/**
 * The rules of a document's attachments (BG-24 supporting documents), pure: what may be attached
 * (the MIME codes EN 16931 allows for BT-125, bytes that match their declared type), how much
 * (per file, per document), how it is qualified (BR-FR-17 codes, BR-FR-18 one `LISIBLE` at most)
 * and named (the file name is BT-122 and the name of the file embedded in the Factur-X, so it is
 * unique in its document).
 */

/** BT-125's MIME codes (EN 16931, BR-CL-24). */
export const attachmentContentTypes = [
  'application/pdf',
  'image/png',
  'image/jpeg',
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.oasis.opendocument.spreadsheet',
] as const;
export type AttachmentContentType = (typeof attachmentContentTypes)[number];

/** BR-FR-17: the codes BT-123 may carry. */
export const attachmentCodes = [
  'RIB',
  'LISIBLE',
  'FEUILLE_DE_STYLE',
  'PJA',
  'BORDEREAU_SUIVI',
  'DOCUMENT_ANNEXE',
  'BON_LIVRAISON',
  'BON_COMMANDE',
  'BORDEREAU_SUIVI_VALIDATION',
  'ETAT_ACOMPTE',
  'FACTURE_PAIEMENT_DIRECT',
  'RECAPITULATIF_COTRAITANCE',
] as const;
export type AttachmentCode = (typeof attachmentCodes)[number];

/** Decoded bytes of one attachment. */
export const maxAttachmentBytes = 10 * 1024 * 1024;
/** Attachments per document. */
export const maxAttachmentsPerDocument = 10;
/**
 * Decoded bytes of all a document's attachments: each is carried three times in its files (base64
 * in the CII and the UBL, embedded in the Factur-X), which the official validators read whole.
 */
export const maxDocumentAttachmentBytes = 20 * 1024 * 1024;
/** The upload's body: one attachment in base64 and its other fields. */
export const attachmentBodyLimit = Math.ceil(maxAttachmentBytes / 3) * 4 + 64 * 1024;

/** The metadata of an attachment, stored on its document (`attachments`) and frozen with it. */
export interface AttachmentRecord {
  id: string;
  filename: string;
  contentType: AttachmentContentType;
  size: number;
  /** Hex SHA-256 of the bytes: the ETag of its content. */
  sha256: string;
  description: string | null;
  code: AttachmentCode;
  created: string;
}

export interface AttachmentInput {
  filename: string;
  contentType: string;
  content: string;
  description?: string | null;
  code?: string;
}

const base64Shape = /^[A-Za-z0-9+/]*={0,2}$/;

/** The bytes of a base64 `content` (RFC 4648, padded, no whitespace); anything else is refused. */
export function decodeContent(content: string): Buffer {
  if (content.length === 0 || content.length % 4 !== 0 || !base64Shape.test(content))
    throw refuse('invalid_field_value', '`content` is not base64 (RFC 4648, padded, without line breaks).', {
      param: 'content',
    });
  const bytes = Buffer.from(content, 'base64');
  // Node decodes leniently: bits left in the padding make another text than the bytes'.
  if (bytes.toString('base64') !== content)
    throw refuse('invalid_field_value', '`content` is not canonical base64.', { param: 'content' });
  if (bytes.length > maxAttachmentBytes)
    throw refuse(
      'payload_too_large',
      `An attachment is at most ${maxAttachmentBytes} bytes; this one is ${bytes.length}.`,
      {
        param: 'content',
      },
    );
  return bytes;
}

const startsWith = (bytes: Buffer, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((byte, index) => bytes[at + index] === byte);
const ascii = (text: string) => [...Buffer.from(text, 'latin1')];
const zip = [0x50, 0x4b, 0x03, 0x04];
const odsMimetype = ascii('mimetypeapplication/vnd.oasis.opendocument.spreadsheet');

/**
 * Whether the bytes are of their declared type, by the signature each format opens with: `%PDF-`,
 * the PNG and JPEG magic numbers, a zip for XLSX, a zip whose first entry is the ODS `mimetype`
 * (OpenDocument 1.2, part 3, 3.3). A CSV has none: it is text, so it holds no NUL byte.
 */
export function matchesContentType(contentType: AttachmentContentType, bytes: Buffer): boolean {
  switch (contentType) {
    case 'application/pdf':
      return startsWith(bytes, ascii('%PDF-'));
    case 'image/png':
      return startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case 'image/jpeg':
      return startsWith(bytes, [0xff, 0xd8, 0xff]);
    case 'text/csv':
      return !bytes.includes(0);
    case 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet':
      return startsWith(bytes, zip);
    case 'application/vnd.oasis.opendocument.spreadsheet':
      return startsWith(bytes, zip) && startsWith(bytes, odsMimetype, 30);
  }
}

const isContentType = (value: string): value is AttachmentContentType =>
  (attachmentContentTypes as readonly string[]).includes(value);
const isCode = (value: string): value is AttachmentCode => (attachmentCodes as readonly string[]).includes(value);

// Control characters, path separators and quotes: the name goes into headers, XML and the PDF.
const unsafeName = /[\u0000-\u001f\u007f"/\\]/;

/** The file name, the type and the code of an upload, checked; the bytes, decoded and matched to the type. */
export function checkedAttachment(input: AttachmentInput): {
  filename: string;
  contentType: AttachmentContentType;
  code: AttachmentCode;
  description: string | null;
  bytes: Buffer;
} {
  const filename = input.filename.trim();
  if (filename === '' || unsafeName.test(filename) || filename === '.' || filename === '..')
    throw refuse('invalid_field_value', '`filename` is a file name without path, quote or control character.', {
      param: 'filename',
    });
  if (filename.toLowerCase() === facturxFileName)
    throw refuse('invalid_field_value', `\`${facturxFileName}\` is the name of the Factur-X's own XML.`, {
      param: 'filename',
    });
  if (!isContentType(input.contentType))
    throw refuse(
      'invalid_field_value',
      `\`contentType\` ${input.contentType} is not one EN 16931 allows for an attachment: ${attachmentContentTypes.join(', ')}.`,
      { param: 'contentType' },
    );
  const code = input.code ?? 'PJA';
  if (!isCode(code))
    throw refuse('invalid_field_value', `\`code\` is one of the BR-FR-17 codes: ${attachmentCodes.join(', ')}.`, {
      param: 'code',
    });
  const bytes = decodeContent(input.content);
  if (!matchesContentType(input.contentType, bytes))
    throw refuse('invalid_field_value', `\`content\` is not a ${input.contentType} file: its bytes do not match.`, {
      param: 'content',
    });
  const description = input.description?.trim() ? input.description.trim() : null;
  return { filename, contentType: input.contentType, code, description, bytes };
}

/** Whether one more attachment fits on a document that has `existing`: count, total size, BR-FR-18, unique names. */
export function checkRoomFor(
  existing: readonly AttachmentRecord[],
  next: { filename: string; code: AttachmentCode; size: number },
): void {
  if (existing.length >= maxAttachmentsPerDocument)
    throw refuse('invalid_field_value', `A document has at most ${maxAttachmentsPerDocument} attachments.`, {
      param: 'content',
    });
  const total = existing.reduce((sum, attachment) => sum + attachment.size, next.size);
  if (total > maxDocumentAttachmentBytes)
    throw refuse(
      'invalid_field_value',
      `A document's attachments total at most ${maxDocumentAttachmentBytes} bytes; with this one they would be ${total}.`,
      { param: 'content' },
    );
  if (next.code === 'LISIBLE' && existing.some((attachment) => attachment.code === 'LISIBLE'))
    throw refuse('invalid_field_value', 'A document has at most one attachment coded `LISIBLE` (BR-FR-18).', {
      param: 'code',
    });
  const name = next.filename.toLowerCase();
  if (existing.some((attachment) => attachment.filename.toLowerCase() === name))
    throw refuse('invalid_field_value', `The document already has an attachment named ${next.filename}.`, {
      param: 'filename',
    });
}

/** `Content-Disposition` naming the file: an ASCII fallback and the UTF-8 name (RFC 6266, RFC 8187). */
export function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** The `attachment` resource: the metadata, never the bytes (`.../content`). */
export interface AttachmentResource extends AttachmentRecord {
  object: 'attachment';
}

export const toAttachment = (record: AttachmentRecord): AttachmentResource => ({
  id: record.id,
  object: 'attachment',
  filename: record.filename,
  contentType: record.contentType,
  size: record.size,
  sha256: record.sha256,
  description: record.description,
  code: record.code,
  created: record.created,
});
