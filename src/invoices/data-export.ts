import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { toRefund } from './credit-notes.js';
import type { DocumentKind } from './document-axes.js';
import { toDocument } from './document-record.js';
import { refundRowsAfter } from './refund-store.js';
import { documentRowsAfter } from './store.js';
import { filesSummaries } from './files-store.js';
import { depositRowsAfter, statusReceiptsAfter } from './deposit-store.js';

/**
 * What the data-protection export reads of this capability: invoices, credit notes and refunds, as
 * the API shows them; the deposits made on the company's platform and the receipts of the
 * statuses it reported, as the service keeps them.
 */

const documentRecords =
  (kind: DocumentKind) => async (tx: Tx, scope: Scope, after: string | null, limit: number, publicUrl: string) => {
    const rows = await documentRowsAfter(tx, scope, kind, after, limit);
    const files = await filesSummaries(
      tx,
      scope,
      rows.filter((row) => row.number !== null).map((row) => row.id),
    );
    return rows.map((row) => ({ key: row.id, record: toDocument(row, publicUrl, files.get(row.id) ?? null) }));
  };

export const invoiceRecords = documentRecords('invoice');
export const creditNoteRecords = documentRecords('credit_note');

export async function refundRecords(tx: Tx, scope: Scope, after: string | null, limit: number) {
  return (await refundRowsAfter(tx, scope, after, limit)).map((row) => ({ key: row.id, record: toRefund(row) }));
}

export async function depositRecords(tx: Tx, scope: Scope, after: string | null, limit: number) {
  return (await depositRowsAfter(tx, scope, after, limit)).map((row) => ({
    key: row.trackingId,
    record: {
      object: 'platform_deposit',
      livemode: row.livemode,
      documentId: row.documentId,
      documentKind: row.documentKind,
      attempt: row.attempt,
      establishmentId: row.establishmentId,
      state: row.state,
      paTrackingId: row.trackingId,
      paFlowId: row.flowId,
      tries: row.tries,
      lastError: row.lastError,
      nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
      created: row.created.toISOString(),
      updated: row.updated.toISOString(),
    },
  }));
}

export async function statusReceiptRecords(tx: Tx, scope: Scope, after: string | null, limit: number) {
  return (await statusReceiptsAfter(tx, scope, after, limit)).map((row) => ({
    key: row.eventKey,
    record: {
      object: 'platform_status_receipt',
      livemode: row.livemode,
      eventKey: row.eventKey,
      documentId: row.documentId,
      created: row.created.toISOString(),
    },
  }));
}
