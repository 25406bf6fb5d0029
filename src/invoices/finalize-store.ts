import { sql, type SQL } from 'drizzle-orm';
import { rawRow } from '../db/raw-row.js';
import { executePrepared } from '../db/prepared-statement.js';
import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import type { DocumentKind } from './document-axes.js';
import type { DocumentRow } from './document-record.js';
import { invoices } from './schema.js';
import { generationQueued } from './files-store.js';

/**
 * The two statements of a finalization that run with the draft locked, written out in SQL: the
 * finalization is the hot path of numbering, and building these through the query builder costs
 * more CPU than running them. The second one is the last before the commit: it takes the series'
 * next value (the same upsert as number-store.ts's `takeNextValue`), writes the number and the
 * frozen document, writes the number into the `*.finalized` event recorded just before and queues
 * the files' generation (an outbox row: microseconds under the lock, a round trip saved; the file
 * workers are woken after the commit, commit-notice.ts), all in one round trip, so the counter row
 * stays locked for that statement and the commit only.
 * Both are prepared statements: planning them (row-level security on each table) cost more than
 * running them.
 */

/** The document row, read column by column as Drizzle would (dates, bigints, jsonb). */
const documentRow = rawRow(invoices);
const toRow = (raw: Record<string, unknown>) => documentRow.read(raw)!;

export async function lockDraft(
  tx: Tx,
  scope: Scope,
  kind: DocumentKind,
  id: string,
): Promise<DocumentRow | undefined> {
  const result = await executePrepared(
    tx,
    sql`select ${documentRow.columns('invoices')} from invoices where company_id = ${scope.companyId} and livemode = ${scope.livemode} and kind = ${kind} and id = ${id} for update`,
  );
  const raw = result.rows[0] as Record<string, unknown> | undefined;
  return raw && toRow(raw);
}

/**
 * The statements of other capabilities that the numbering statement embeds, given by the use
 * case: the series' counter upsert (numbering), the number's format, and the write of the
 * number into the `*.finalized` event recorded just before (webhooks).
 */
export interface NumberingStatements {
  takeNext: SQL;
  /** The generation's outbox row, queued in the same statement (`queueGenerationInsert`). */
  queueGeneration: SQL;
  format(value: SQL): SQL;
  announce(number: SQL): SQL;
}

/** What the finalization writes besides the number. */
export type FinalizedFields = Pick<
  DocumentRow,
  | 'status'
  | 'documentStatus'
  | 'transmissionStatus'
  | 'transmissionDetail'
  | 'paymentStatus'
  | 'buyer'
  | 'seller'
  | 'taxSource'
  | 'backingDecisionId'
  | 'lines'
  | 'issueDate'
  | 'dueDate'
  | 'totalTax'
  | 'total'
  | 'tax'
  | 'portalToken'
  | 'dueAt'
  | 'finalizedAt'
  | 'updated'
>;

const json = (value: unknown) => (value === null ? null : JSON.stringify(value));
const instant = (value: Date | null) => (value === null ? null : value.toISOString());

/**
 * Takes the next value of `series` and writes it, formatted (`<series>-000042`, at least six
 * digits), with the finalized fields, and as `data.number` of the event `eventId`: one statement.
 * Returns the row and the value taken.
 */
export async function numberDocument(
  tx: Tx,
  scope: Scope,
  id: string,
  series: string,
  fields: FinalizedFields,
  numbering: NumberingStatements,
): Promise<{ row: DocumentRow; sequence: number }> {
  const result = await executePrepared(
    tx,
    sql`
    with taken as (${numbering.takeNext}),
    numbered as (
      update invoices set
      number = ${numbering.format(sql.raw('taken.last_value'))},
      series = ${series},
      status = ${fields.status}, document_status = ${fields.documentStatus}, transmission_status = ${fields.transmissionStatus},
      transmission_detail = ${fields.transmissionDetail}, payment_status = ${fields.paymentStatus},
      buyer = ${json(fields.buyer)}::jsonb, seller = ${json(fields.seller)}::jsonb, tax_source = ${fields.taxSource}, backing_decision_id = ${fields.backingDecisionId},
      lines = ${json(fields.lines)}::jsonb, issue_date = ${fields.issueDate}, due_date = ${fields.dueDate},
      total_tax = ${fields.totalTax}, total = ${fields.total}, tax = ${json(fields.tax)}::jsonb, portal_token = ${fields.portalToken},
      due_at = ${instant(fields.dueAt)}::timestamptz, finalized_at = ${instant(fields.finalizedAt)}::timestamptz, updated = ${instant(fields.updated)}::timestamptz
      from taken
      where company_id = ${scope.companyId} and livemode = ${scope.livemode} and id = ${id}
      returning ${documentRow.columns('invoices')}, taken.last_value as taken_value
    ),
    announced as (${numbering.announce(sql.raw('(select numbered.number from numbered)'))}),
    queued as (${numbering.queueGeneration})
    select numbered.*, (select count(*) from announced) as announced, (select count(*) from queued) as queued from numbered`,
  );
  const raw = result.rows[0] as Record<string, unknown> | undefined;
  if (!raw) throw new Error(`document ${id} vanished under its lock`);
  if (Number(raw.announced) !== 1) throw new Error(`the finalized event of document ${id} was not numbered`);
  if (Number(raw.queued) > 0) await generationQueued(tx);
  return { row: toRow(raw), sequence: Number(raw.taken_value) };
}
