import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import { inScope, type Scope } from '../db/scope.js';
import { documentAttachments } from './schema.js';

/** The bytes of documents' attachments (`document_attachments`); their metadata is the document's. */

export async function insertAttachmentContent(
  db: Executor,
  scope: Scope,
  row: { id: string; documentId: string; content: Buffer; created: Date },
): Promise<void> {
  await db.insert(documentAttachments).values({ ...scope, ...row });
}

export async function attachmentContent(
  db: Executor,
  scope: Scope,
  documentId: string,
  id: string,
): Promise<Buffer | null> {
  const [row] = await db
    .select({ content: documentAttachments.content })
    .from(documentAttachments)
    .where(
      and(
        inScope(documentAttachments, scope),
        eq(documentAttachments.documentId, documentId),
        eq(documentAttachments.id, id),
      ),
    )
    .limit(1);
  return row?.content ?? null;
}

/** Every attachment's bytes of a document, by id (the file worker embeds them). */
export async function attachmentContents(db: Executor, scope: Scope, documentId: string): Promise<Map<string, Buffer>> {
  const rows = await db
    .select({ id: documentAttachments.id, content: documentAttachments.content })
    .from(documentAttachments)
    .where(and(inScope(documentAttachments, scope), eq(documentAttachments.documentId, documentId)));
  return new Map(rows.map((row) => [row.id, row.content]));
}

/** Deletes one attachment's bytes; the bytes it freed, 0 when there was none. */
export async function deleteAttachmentContent(
  db: Executor,
  scope: Scope,
  documentId: string,
  id: string,
): Promise<number> {
  const rows = await db
    .delete(documentAttachments)
    .where(
      and(
        inScope(documentAttachments, scope),
        eq(documentAttachments.documentId, documentId),
        eq(documentAttachments.id, id),
      ),
    )
    .returning({ bytes: sql<string>`octet_length(${documentAttachments.content})` });
  return rows.reduce((total, row) => total + Number(row.bytes), 0);
}

/** Sandbox reset: every attachment of the scope; the bytes they freed. */
export async function deleteScopeAttachments(db: Executor, scope: Scope): Promise<number> {
  const rows = await db
    .delete(documentAttachments)
    .where(inScope(documentAttachments, scope))
    .returning({ bytes: sql<string>`octet_length(${documentAttachments.content})` });
  return rows.reduce((total, row) => total + Number(row.bytes), 0);
}
