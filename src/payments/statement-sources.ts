import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { claimRefundStatements, lockRefund, updateRefundFr212 } from '../invoices/service.js';
import type { Fr212 } from './collection-statement.js';
import { claimStatements, lockPayment, updatePaymentFr212 } from './store.js';

/**
 * What owes a payment statement (status 212): a payment (the money collected, positive), or the
 * refund of a credit note (the money given back: the same statement, negative). The passes that
 * move and send statements read both through this one shape.
 */
export interface Statement {
  kind: 'payment' | 'refund';
  companyId: string;
  livemode: boolean;
  /** The payment's `pay_` or the refund's `ref_`: its tracking id `fr212-<id>`. */
  id: string;
  invoiceId: string;
  /** The collected amount it reports, in cents: negative for a refund. */
  amount: number;
  /** A refund's credit note: the rates the money goes back at are its own. Null for a payment. */
  creditNoteId: string | null;
  fr212: Fr212;
}

export interface ClaimedStatement {
  statement: Statement;
  sandboxClockOffsetMs: number;
}

export interface StatementSource {
  /** Statements waiting on their invoice, or due to the platform, locked for this pass (`SKIP LOCKED`). */
  claim(
    tx: Executor,
    which: 'waiting' | 'due',
    limit: number,
    after: string | null,
    companyIds?: string[],
  ): Promise<ClaimedStatement[]>;
  update(tx: Executor, scope: Scope, id: string, fr212: Fr212): Promise<void>;
  /** One statement, locked for its change (the platform's word on it); undefined when gone or never owed. */
  lock(tx: Executor, scope: Scope, id: string): Promise<Statement | undefined>;
}

const paymentStatements: StatementSource = {
  claim: async (tx, which, limit, after, companyIds) =>
    (await claimStatements(tx, which, limit, after, companyIds)).map(({ row, sandboxClockOffsetMs }) => ({
      statement: { kind: 'payment', ...row, creditNoteId: null, fr212: row.fr212 as Fr212 },
      sandboxClockOffsetMs,
    })),
  update: (tx, scope, id, fr212) => updatePaymentFr212(tx, scope, id, fr212),
  lock: async (tx, scope, id) => {
    const row = await lockPayment(tx, scope, id);
    return row?.fr212 ? { kind: 'payment', ...row, creditNoteId: null, fr212: row.fr212 as Fr212 } : undefined;
  },
};

const refundStatements: StatementSource = {
  claim: async (tx, which, limit, after, companyIds) =>
    (await claimRefundStatements(tx, which, limit, after, companyIds)).map(({ row, sandboxClockOffsetMs }) => ({
      statement: { kind: 'refund', ...row, amount: -row.amount, fr212: row.fr212 as Fr212 },
      sandboxClockOffsetMs,
    })),
  update: (tx, scope, id, fr212) => updateRefundFr212(tx, scope, id, fr212),
  lock: async (tx, scope, id) => {
    const row = await lockRefund(tx, scope, id);
    return row?.fr212 ? { kind: 'refund', ...row, amount: -row.amount, fr212: row.fr212 as Fr212 } : undefined;
  },
};

export const statementSources: Record<Statement['kind'], StatementSource> = {
  payment: paymentStatements,
  refund: refundStatements,
};
