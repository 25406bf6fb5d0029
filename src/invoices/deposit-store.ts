import { sql } from 'drizzle-orm';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';

/**
 * What the data-protection export reads of the exchange's tables for the invoices: the deposit
 * flows (platform/schema.ts `platformFlows`, kind `invoices.deposit`) and the receipts of the
 * platform's events (`inboxReceipts`), read here by their names, as the export has always listed
 * them with the invoices' records.
 */

export interface DepositRecordRow {
  livemode: boolean;
  documentId: string;
  documentKind: string;
  attempt: number;
  establishmentId: string | null;
  /** The state the export has always shown: pending, waiting_directory, deposited, rejected, superseded. */
  state: string;
  trackingId: string;
  flowId: string | null;
  tries: number;
  lastError: string | null;
  nextAttemptAt: Date | null;
  created: Date;
  updated: Date;
}

/** The deposit flows of a scope in the order of their tracking id (the data-protection export). */
export async function depositRowsAfter(
  db: Executor,
  scope: Scope,
  after: string | null,
  limit: number,
): Promise<DepositRecordRow[]> {
  const result = await db.execute<Record<string, unknown>>(
    sql`select f.livemode, f.owner_id, f.detail, f.establishment_id, f.tracking_id, f.flow_id, f.tries, f.last_error,
        f.next_attempt_at, f.created, f.updated,
        case f.state when 'failed' then 'rejected' when 'abandoned' then 'superseded'
          when 'pending' then case when exists (select 1 from invoices i
              where i.company_id = f.company_id and i.livemode = f.livemode and i.id = f.owner_id
                and i.transmission_status = 'rejected' and i.einvoicing->>'paTrackingId' = f.tracking_id
                and coalesce(i.einvoicing->'depositWait', 'null'::jsonb) <> 'null'::jsonb)
            then 'waiting_directory' else 'pending' end
          else f.state end as export_state
      from platform_flows f
      where f.company_id = ${scope.companyId} and f.livemode = ${scope.livemode} and f.kind = 'invoices.deposit'
        ${after === null ? sql`` : sql`and f.tracking_id > ${after}`}
      order by f.tracking_id limit ${limit}`,
  );
  return result.rows.map((found) => {
    const detail = (found.detail ?? {}) as { attempt?: number; documentKind?: string };
    const state = found.export_state as string;
    return {
      livemode: found.livemode as boolean,
      documentId: found.owner_id as string,
      documentKind: detail.documentKind ?? 'invoice',
      attempt: Number(detail.attempt ?? 1),
      establishmentId: (found.establishment_id as string | null) ?? null,
      state,
      trackingId: found.tracking_id as string,
      flowId: (found.flow_id as string | null) ?? null,
      tries: Number(found.tries),
      lastError: (found.last_error as string | null) ?? null,
      // An ended flow has no next attempt (as the deposit jobs showed).
      nextAttemptAt:
        (state === 'pending' || state === 'waiting_directory') && found.next_attempt_at
          ? new Date(found.next_attempt_at as string)
          : null,
      created: new Date(found.created as string),
      updated: new Date(found.updated as string),
    };
  });
}

/** The receipts of the platform's events, in the order of their key (the data-protection export). */
export async function statusReceiptsAfter(db: Executor, scope: Scope, after: string | null, limit: number) {
  const result = await db.execute<{
    livemode: boolean;
    event_key: string;
    document_id: string | null;
    created: Date | string;
  }>(
    sql`select livemode, event_key, document_id, created from platform_status_receipts
      where company_id = ${scope.companyId} and livemode = ${scope.livemode}
        ${after === null ? sql`` : sql`and event_key > ${after}`}
      order by event_key limit ${limit}`,
  );
  return result.rows.map((found) => ({
    livemode: found.livemode,
    eventKey: found.event_key,
    documentId: found.document_id,
    created: new Date(found.created),
  }));
}
