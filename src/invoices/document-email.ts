import type { Config } from '../config.js';
import type { Executor } from '../db/database.js';
import type { CallContext } from '../db/transaction.js';
import { refuse } from '../kernel/errors.js';
import { queueDocumentEmail } from '../mail/service.js';
import type { DocumentKind } from './document-axes.js';
import { documentEventData, type DocumentRow } from './document-record.js';
import { fileNameOf, fileContentTypes } from './document-files.js';
import { fileBytes, queueGeneration } from './files-store.js';
import { beingGenerated, generationFailed } from './files.js';
import { sendMove } from './submission.js';

/**
 * A finalized document e-mailed to the buyer (`POST /v1/invoices/:id/email`): its Factur-X (the
 * file as issued and archived, a PDF any reader opens) to the buyer's address frozen at
 * finalization. For a document outside e-invoicing (B2C, international: no platform carries it)
 * this is its sending: `invoice.sent` / `credit_note.sent` are recorded when the e-mail leaves
 * (mail/service.ts; in test mode it is logged, never sent, and the event is recorded at once). For
 * one in e-invoicing it is a copy (the contract's "send by e-mail" while the buyer has no directory
 * address): the platform's path keeps its own events. Refused when it cannot leave: the buyer has
 * no e-mail address (`missing_required_field`), or (live) no SMTP server is configured (`not_supported`).
 */
export async function emailDocument(
  tx: Executor,
  ctx: CallContext,
  config: Pick<Config, 'smtpUrl' | 'mailFrom'>,
  row: DocumentRow,
): Promise<DocumentRow> {
  // A draft or a cancelled document: the refusals of every send.
  if (row.documentStatus !== 'finalized') sendMove(row);
  const to = row.buyer?.email ?? null;
  if (!to)
    throw refuse(
      'missing_required_field',
      `The buyer of ${row.id} has no e-mail address: send the PDF by other means.`,
      {
        param: 'buyer.email',
      },
    );
  if (ctx.scope.livemode && !config.smtpUrl)
    throw refuse(
      'not_supported',
      'No SMTP server is configured (FACTEUR_SMTP_URL): send the PDF to the buyer by other means.',
      {
        param: 'id',
      },
    );
  const stored = await fileBytes(tx, ctx.scope, row.id, 'facturx');
  if (!stored) await queueGeneration(tx, ctx.scope, row.id, row.kind, ctx.now);
  if (stored?.state === 'failed') throw generationFailed(row, stored);
  if (!stored || stored.state !== 'ready' || !stored.bytes) throw beingGenerated(row, row.kind as DocumentKind);
  const data = documentEventData(row, row.status);
  await queueDocumentEmail(tx, ctx, config, {
    kind: row.kind === 'invoice' ? 'invoice' : 'credit_note',
    documentId: row.id,
    number: row.number!,
    to,
    buyerName: row.buyer?.name ?? null,
    country: row.buyer?.address?.country ?? null,
    amount: row.total === null ? null : { cents: row.total, currency: row.currency },
    link: null,
    attachment: {
      fileName: fileNameOf(row.number!, 'facturx'),
      contentType: fileContentTypes.facturx,
      contentBase64: stored.bytes.toString('base64'),
    },
    // In e-invoicing the platform's path says when the document is sent; the e-mail is a copy.
    event:
      row.transmissionStatus !== 'not_applicable'
        ? null
        : row.kind === 'invoice'
          ? { type: 'invoice.sent', data }
          : { type: 'credit_note.sent', data: { ...data, paStatus: row.transmissionStatus, paInvoiceId: null } },
  });
  return row;
}
