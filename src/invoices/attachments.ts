import type { Deps } from '../deps.js';
import type { Scope } from '../db/scope.js';
import { inTransaction, type CallContext } from '../db/transaction.js';
import { refuse } from '../kernel/errors.js';
import { newId } from '../kernel/ids.js';
import type { ListEnvelope } from '../kernel/pagination.js';
import { sha256Hex } from '../archive/entry-hash.js';
import { releaseStorage, reserveStorage } from '../subscriptions/service.js';
import type { DocumentKind } from './document-axes.js';
import { getDocument, notEditable, notFound } from './drafts.js';
import { findDocument, updateDocument } from './store.js';
import {
  checkedAttachment,
  checkRoomFor,
  toAttachment,
  type AttachmentInput,
  type AttachmentRecord,
  type AttachmentResource,
} from './attachment-rules.js';
import { attachmentContent, deleteAttachmentContent, insertAttachmentContent } from './attachment-store.js';

/**
 * The attachments of invoices and credit notes (BG-24): added and deleted on a draft only, under
 * the document's row lock (the finalization takes the same lock, so what it freezes is what the
 * files carry), their bytes reserved in the plan's storage in the same transaction
 * (`storage_quota_exceeded`) and released when deleted.
 */

type Needs = Pick<Deps, 'db'>;

const missing = (id: string) => refuse('not_found', `No attachment ${id} on this document.`, { param: 'attachmentId' });

function recordOf(records: readonly AttachmentRecord[], id: string): AttachmentRecord {
  const record = records.find((each) => each.id === id);
  if (!record) throw missing(id);
  return record;
}

export async function addAttachment(
  deps: Needs,
  ctx: CallContext,
  kind: DocumentKind,
  documentId: string,
  input: AttachmentInput,
): Promise<AttachmentResource> {
  // Decoded and matched to its type before any lock is taken.
  const attachment = checkedAttachment(input);
  return inTransaction(deps.db, ctx, async (tx) => {
    const document = await findDocument(tx, ctx.scope, kind, documentId, true);
    if (!document) throw notFound(kind, documentId);
    if (document.documentStatus !== 'draft') throw notEditable(document);
    const size = attachment.bytes.length;
    checkRoomFor(document.attachments, { filename: attachment.filename, code: attachment.code, size });
    const record: AttachmentRecord = {
      id: newId('attachment', ctx.now),
      filename: attachment.filename,
      contentType: attachment.contentType,
      size,
      sha256: sha256Hex(attachment.bytes),
      description: attachment.description,
      code: attachment.code,
      created: ctx.now.toISOString(),
    };
    await reserveStorage(tx, ctx.scope, size);
    await insertAttachmentContent(tx, ctx.scope, {
      id: record.id,
      documentId,
      content: attachment.bytes,
      created: ctx.now,
    });
    await updateDocument(tx, ctx.scope, documentId, {
      attachments: [...document.attachments, record],
      updated: ctx.now,
    });
    return toAttachment(record);
  });
}

/** All of a document's attachments, in the order they were added (at most ten: one page). */
export async function listAttachments(
  deps: Needs,
  scope: Scope,
  kind: DocumentKind,
  documentId: string,
  url: string,
): Promise<ListEnvelope<AttachmentResource>> {
  const document = await getDocument(deps, scope, kind, documentId);
  return { object: 'list', data: document.attachments.map(toAttachment), has_more: false, next_cursor: null, url };
}

export async function getAttachment(
  deps: Needs,
  scope: Scope,
  kind: DocumentKind,
  documentId: string,
  id: string,
): Promise<AttachmentResource> {
  const document = await getDocument(deps, scope, kind, documentId);
  return toAttachment(recordOf(document.attachments, id));
}

/** The bytes as they were uploaded, with what the download's headers say of them. */
export async function attachmentFile(
  deps: Needs,
  scope: Scope,
  kind: DocumentKind,
  documentId: string,
  id: string,
): Promise<{ record: AttachmentRecord; bytes: Buffer }> {
  const document = await getDocument(deps, scope, kind, documentId);
  const record = recordOf(document.attachments, id);
  const bytes = await attachmentContent(deps.db, scope, documentId, id);
  if (!bytes) throw missing(id);
  return { record, bytes };
}

export async function deleteAttachment(
  deps: Needs,
  ctx: CallContext,
  kind: DocumentKind,
  documentId: string,
  id: string,
): Promise<{ id: string; object: 'attachment'; deleted: true }> {
  return inTransaction(deps.db, ctx, async (tx) => {
    const document = await findDocument(tx, ctx.scope, kind, documentId, true);
    if (!document) throw notFound(kind, documentId);
    recordOf(document.attachments, id);
    // Frozen with the document: its files carry it.
    if (document.documentStatus !== 'draft') throw notEditable(document);
    await releaseStorage(tx, ctx.scope, await deleteAttachmentContent(tx, ctx.scope, documentId, id));
    await updateDocument(tx, ctx.scope, documentId, {
      attachments: document.attachments.filter((each) => each.id !== id),
      updated: ctx.now,
    });
    return { id, object: 'attachment', deleted: true };
  });
}
