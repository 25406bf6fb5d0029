import { flowTypes, type Flow, type ReportLine } from './flows.js';
import type { DeclarationRow, OperationRow } from './store.js';

/** The declaration resource (`object: "ereporting"`), its obligation and the data of its events. */

export const declarationStates = ['reserved', 'submitted', 'accepted', 'rejected'] as const;
export type DeclarationState = (typeof declarationStates)[number];

/** Where the declaration stands with the obligation, in the shape of the documents' `obligation`. */
export interface DeclarationObligation {
  state: 'waiting' | 'fulfilled';
  reasonCode: string | null;
  reasonSource: 'platform' | 'service' | null;
  owner: 'client' | 'platform' | 'service' | null;
  action: 'send' | 'resubmit' | null;
  nextAttemptAt: string | null;
}

export function declarationObligation(row: DeclarationRow): DeclarationObligation {
  const waiting = (
    reasonCode: string,
    reasonSource: DeclarationObligation['reasonSource'],
    owner: DeclarationObligation['owner'],
    action: DeclarationObligation['action'] = null,
    nextAttemptAt: string | null = null,
  ): DeclarationObligation => ({ state: 'waiting', reasonCode, reasonSource, owner, action, nextAttemptAt });
  switch (row.state as DeclarationState) {
    case 'reserved':
      // Its establishment does not transmit (the client's move: connect it, allow e-reporting);
      // otherwise the pass sends it once its period is over.
      return row.transmissionBlock
        ? waiting(row.transmissionBlock, 'service', 'client')
        : waiting('not_sent', 'service', 'service', 'send', row.dueAt.toISOString());
    case 'submitted':
      return waiting('awaiting_platform', 'service', 'platform');
    case 'rejected':
      return row.supersededById
        ? waiting('superseded', 'service', 'service', 'send')
        : waiting(row.paRejectionCode ?? 'rejected', 'platform', 'client', 'resubmit');
    case 'accepted':
      return {
        state: 'fulfilled',
        reasonCode: null,
        reasonSource: null,
        owner: null,
        action: null,
        nextAttemptAt: null,
      };
  }
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export interface OperationResource {
  sourceKind: string;
  sourceId: string;
  number: string | null;
  date: string;
  taxableAmount: number;
  taxAmount: number;
}

export function toDeclaration(row: DeclarationRow, operations?: OperationRow[]) {
  return {
    id: row.id,
    object: 'ereporting' as const,
    livemode: row.livemode,
    status: row.state as DeclarationState,
    type: flowTypes[row.flow as Flow],
    flow: row.flow as Flow,
    period: row.period,
    periodStart: row.periodStart,
    periodEnd: row.periodEnd,
    establishment: row.establishment,
    attempt: row.attempt,
    previousAttemptId: row.previousAttemptId,
    supersededById: row.supersededById,
    currency: row.currency,
    operationCount: row.operationCount,
    taxableAmount: row.taxableAmount,
    taxAmount: row.taxAmount,
    lines: (row.lines ?? []) as ReportLine[],
    obligation: declarationObligation(row),
    paRejectionCode: row.paRejectionCode,
    paRejectionReason: row.paRejectionReason,
    flowId: row.flowId,
    dueAt: row.dueAt.toISOString(),
    submittedAt: iso(row.submittedAt),
    acceptedAt: iso(row.acceptedAt),
    rejectedAt: iso(row.rejectedAt),
    created: row.created.toISOString(),
    updated: row.updated.toISOString(),
    ...(operations
      ? {
          operations: operations.map((op): OperationResource => ({
            sourceKind: op.sourceKind,
            sourceId: op.sourceId,
            number: op.number,
            date: op.date,
            taxableAmount: op.taxableAmount,
            taxAmount: op.taxAmount,
          })),
        }
      : {}),
  };
}

export type Declaration = ReturnType<typeof toDeclaration>;

/** `ereporting.submitted`: the contract's fields. */
export function submittedEventData(row: DeclarationRow): Record<string, unknown> {
  return {
    id: row.id,
    object: 'ereporting',
    status: row.state,
    type: flowTypes[row.flow as Flow],
    period: row.period,
    attempt: row.attempt,
  };
}

/** `ereporting.obligation_updated`: the contract's obligation-event fields. */
export function obligationEventData(row: DeclarationRow, reason: string | null): Record<string, unknown> {
  return { id: row.id, object: 'ereporting', status: row.state, obligation: declarationObligation(row), reason };
}

/** `ereporting.accepted` and `ereporting.rejected`: the submitted fields, the obligation and the platform's words. */
export function verdictEventData(row: DeclarationRow): Record<string, unknown> {
  return {
    ...submittedEventData(row),
    obligation: declarationObligation(row),
    paRejectionCode: row.paRejectionCode,
    paRejectionReason: row.paRejectionReason,
  };
}
