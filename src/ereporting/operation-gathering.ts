import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { newId } from '../kernel/ids.js';
import { taxProfileFor } from '../tax-profiles/service.js';
import { pageEreportableDocuments, pageEreportableRefunds, paymentInvoiceFacts } from '../invoices/service.js';
import { pageEreportablePayments } from '../payments/service.js';
import { flowUnderWay } from '../platform/service.js';
import { ereportingTransmits } from '../establishments/platform-access.js';
import { declarationFlow } from './declaration-flow.js';
import {
  paymentFlow,
  ReportBuilder,
  transactionFlow,
  type DocumentFacts,
  type Flow,
  type PaymentFacts,
  type VatEntry,
} from './flows.js';
import { dueAtOf, paymentPeriodicity, periodOf, type Periodicity } from './periods.js';
import {
  findFirstAttempt,
  insertDeclaration,
  insertOperations,
  lockScopeReporting,
  reportedSources,
  updateDeclaration,
  type DeclarationRow,
  type OperationRow,
} from './store.js';

/** Operations are looked for this far back (days): late ones go to the open period. */
export const lookbackDays = 100;

const pageSize = 5000;

interface Target {
  row: DeclarationRow;
  builder: ReportBuilder;
  /** Operations gathered since the last flush (written page by page: memory stays flat). */
  operations: OperationRow[];
  /** Operations added to it by this gathering. */
  added: number;
}

interface Seller {
  establishment: string | null;
  periodicity: Periodicity;
}

type Cursor = { at: string; id: string } | null;

interface PaymentPage {
  facts: PaymentFacts[];
  /** Rows read (a payment whose invoice is gone gives no fact). */
  size: number;
  cursor: Cursor;
}

/**
 * One gathering of a scope's unreported operations into the open declarations of their periods
 * (see gatherOperations in service.ts): its steps, and what it learns on the way (the seller on
 * each date, whether an establishment transmits, the declaration of each period), read once.
 */
export class OperationGathering {
  private readonly today: string;
  private readonly from: Date;
  private readonly sellers = new Map<string, Seller | null>();
  private readonly transmits = new Map<string, boolean>();
  private readonly targets = new Map<string, Target | null>();

  constructor(
    private readonly tx: Tx,
    private readonly scope: Scope,
    private readonly now: Date,
  ) {
    this.today = now.toISOString().slice(0, 10);
    this.from = new Date(now.getTime() - lookbackDays * 86_400_000);
  }

  /** Gathers documents, then payments and refunds; returns the number of operations added. */
  async run(): Promise<number> {
    await lockScopeReporting(this.tx, this.scope);
    await this.gatherDocuments();
    await this.gatherPayments('payment');
    await this.gatherPayments('refund');
    return this.settleTotals();
  }

  private async sellerOn(date: string): Promise<Seller | null> {
    if (!this.sellers.has(date)) {
      try {
        const profile = await taxProfileFor(this.tx, this.scope, date);
        this.sellers.set(date, {
          establishment: profile.establishment.siret ?? null,
          // A profile that names no periodicity is reported monthly (the default of most regimes).
          periodicity: profile.ereportingPeriodicity ?? 'monthly',
        });
      } catch {
        this.sellers.set(date, null);
      }
    }
    return this.sellers.get(date)!;
  }

  private async blockOf(establishment: string | null): Promise<string | null> {
    const key = establishment ?? '';
    if (!this.transmits.has(key))
      this.transmits.set(key, await ereportingTransmits(this.tx, this.scope, establishment));
    return this.transmits.get(key) ? null : 'ereporting_not_enabled';
  }

  /** The open declaration an operation of `date` goes to: its own period's, else today's; null: none can take it. */
  private async targetOf(flow: Flow, date: string, currency: string): Promise<Target | null> {
    const seller = await this.sellerOn(date);
    if (!seller) return null;
    const periodicity =
      flow === '10.2' || flow === '10.4' ? paymentPeriodicity(seller.periodicity) : seller.periodicity;
    for (const day of date < this.today ? [date, this.today] : [date]) {
      const period = periodOf(day, periodicity);
      const key = `${seller.establishment ?? ''}|${flow}|${period.key}`;
      if (!this.targets.has(key)) this.targets.set(key, await this.declarationOf(seller, flow, period, currency));
      const target = this.targets.get(key);
      if (target && target.row.currency === currency) return target;
    }
    return null;
  }

  /** The period's first attempt, opened now if there is none; null when it can take nothing more. */
  private async declarationOf(
    seller: Seller,
    flow: Flow,
    period: ReturnType<typeof periodOf>,
    currency: string,
  ): Promise<Target | null> {
    const found = await findFirstAttempt(this.tx, this.scope, {
      establishment: seller.establishment,
      flow,
      period: period.key,
    });
    if (!found) return this.openDeclaration(seller, flow, period, currency);
    if (
      found.state !== 'reserved' ||
      found.currency !== currency ||
      // Its file is on its way to the platform: what it reports is fixed.
      (await flowUnderWay(this.tx, this.scope, declarationFlow.kind, found.id))
    )
      return null;
    const builder = new ReportBuilder(flow);
    builder.addLines(found.lines ?? []);
    builder.operationCount = found.operationCount;
    builder.taxableAmount = found.taxableAmount;
    builder.taxAmount = found.taxAmount;
    return { row: found, builder, operations: [], added: 0 };
  }

  private async openDeclaration(
    seller: Seller,
    flow: Flow,
    period: ReturnType<typeof periodOf>,
    currency: string,
  ): Promise<Target> {
    const now = this.now;
    const row: DeclarationRow = {
      ...this.scope,
      id: newId('ereporting', now),
      establishment: seller.establishment,
      flow,
      period: period.key,
      periodStart: period.start,
      periodEnd: period.end,
      state: 'reserved',
      attempt: 1,
      previousAttemptId: null,
      supersededById: null,
      currency,
      lines: [],
      operationCount: 0,
      taxableAmount: 0,
      taxAmount: 0,
      dueAt: dueAtOf(period),
      trackingId: null,
      flowId: null,
      paRejectionCode: null,
      paRejectionReason: null,
      transmissionBlock: await this.blockOf(seller.establishment),
      submittedAt: null,
      acceptedAt: null,
      rejectedAt: null,
      created: now,
      updated: now,
    };
    // Written at once (empty), so its operations can be written page by page; the totals follow at the end.
    await insertDeclaration(this.tx, row);
    return { row, builder: new ReportBuilder(flow), operations: [], added: 0 };
  }

  private record(
    target: Target,
    source: { kind: string; id: string; date: string; number: string | null },
    amounts: { taxableAmount: number; taxAmount: number },
  ): void {
    target.operations.push({
      ...this.scope,
      sourceKind: source.kind,
      sourceId: source.id,
      flow: target.row.flow,
      declarationId: target.row.id,
      date: source.date,
      number: source.number,
      ...amounts,
      created: this.now,
    });
  }

  private async flush(): Promise<void> {
    for (const target of this.targets.values()) {
      if (!target || target.operations.length === 0) continue;
      await insertOperations(this.tx, target.operations);
      target.added += target.operations.length;
      target.operations = [];
    }
  }

  private async gatherDocuments(): Promise<void> {
    const fromDay = this.from.toISOString().slice(0, 10);
    let after: { day: string; at: string; id: string } | null = null;
    for (;;) {
      const page = await pageEreportableDocuments(this.tx, this.scope, fromDay, after, pageSize);
      if (page.length === 0) return;
      const last = page.at(-1)!;
      after = { day: last.issue_date, at: last.finalized_at, id: last.id };
      const ids = page.map((row) => row.id);
      const reported = await reportedSources(this.tx, this.scope, ['invoice', 'credit_note'], ids);
      for (const row of page) {
        if (reported.has(row.id)) continue;
        const flow = transactionFlow(row.obligations);
        if (!flow) continue;
        const target = await this.targetOf(flow, row.issue_date, row.currency);
        if (!target) continue;
        const source = { kind: row.kind, id: row.id, date: row.issue_date, number: row.number };
        this.record(target, source, target.builder.addDocument(documentFactsOf(row)));
      }
      await this.flush();
      if (page.length < pageSize) return;
    }
  }

  private async gatherPayments(kind: 'payment' | 'refund'): Promise<void> {
    let cursor: Cursor = null;
    for (;;) {
      const page: PaymentPage = kind === 'payment' ? await this.paymentPage(cursor) : await this.refundPage(cursor);
      if (page.size === 0) return;
      cursor = page.size < pageSize ? null : page.cursor;
      const ids = page.facts.map((fact) => fact.id);
      const reported = await reportedSources(this.tx, this.scope, [kind], ids);
      for (const fact of page.facts) {
        if (reported.has(fact.id)) continue;
        const flow = paymentFlow(fact.obligations);
        if (!flow) continue;
        const target = await this.targetOf(flow, fact.date, fact.currency);
        if (!target) continue;
        const source = { kind, id: fact.id, date: fact.date, number: fact.invoiceNumber };
        this.record(target, source, target.builder.addPayment(fact));
      }
      await this.flush();
      if (cursor === null) return;
    }
  }

  private async paymentPage(after: Cursor): Promise<PaymentPage> {
    const page = await pageEreportablePayments(this.tx, this.scope, this.from.toISOString(), after, pageSize);
    if (page.length === 0) return { facts: [], size: 0, cursor: null };
    const invoiceIds = [...new Set(page.map((row) => row.invoice_id))];
    const invoices = new Map((await paymentInvoiceFacts(this.tx, this.scope, invoiceIds)).map((row) => [row.id, row]));
    const facts: PaymentFacts[] = [];
    for (const row of page) {
      const invoice = invoices.get(row.invoice_id);
      if (!invoice) continue;
      facts.push({
        kind: 'payment',
        id: row.id,
        date: row.paid_at.slice(0, 10),
        amount: Number(row.amount),
        currency: row.currency,
        invoiceNumber: invoice.number,
        invoiceIssueDate: invoice.issue_date,
        vatBreakdown: (invoice.vat_breakdown ?? []) as VatEntry[],
        obligations: invoice.obligations,
      });
    }
    return { facts, size: page.length, cursor: { at: page.at(-1)!.paid_at, id: page.at(-1)!.id } };
  }

  private async refundPage(after: Cursor): Promise<PaymentPage> {
    const page = await pageEreportableRefunds(this.tx, this.scope, this.from.toISOString(), after, pageSize);
    if (page.length === 0) return { facts: [], size: 0, cursor: null };
    const facts: PaymentFacts[] = page.map((row) => ({
      kind: 'refund',
      id: row.id,
      date: row.refunded_at.slice(0, 10),
      amount: Number(row.amount),
      currency: row.currency,
      invoiceNumber: row.credit_note_number,
      invoiceIssueDate: row.credit_note_issue_date,
      vatBreakdown: (row.vat_breakdown ?? []) as VatEntry[],
      obligations: row.obligations,
    }));
    return { facts, size: page.length, cursor: { at: page.at(-1)!.refunded_at, id: page.at(-1)!.id } };
  }

  /** Each declaration that took operations gets its new lines and totals; returns how many were added. */
  private async settleTotals(): Promise<number> {
    let added = 0;
    for (const target of this.targets.values()) {
      if (!target || target.added === 0) continue;
      added += target.added;
      const changes = {
        lines: target.builder.lines(),
        operationCount: target.builder.operationCount,
        taxableAmount: target.builder.taxableAmount,
        taxAmount: target.builder.taxAmount,
        updated: this.now,
      };
      await updateDeclaration(this.tx, this.scope, target.row.id, changes, { state: 'reserved' });
    }
    return added;
  }
}

type DocumentRow = Awaited<ReturnType<typeof pageEreportableDocuments>>[number];

function documentFactsOf(row: DocumentRow): DocumentFacts {
  return {
    kind: row.kind,
    id: row.id,
    number: row.number,
    issueDate: row.issue_date,
    currency: row.currency,
    buyerCountry: row.buyer_country,
    buyerVatNumber: row.buyer_vat_number,
    precedingInvoice:
      row.related_invoice_number && row.related_invoice_issue_date
        ? { number: row.related_invoice_number, issueDate: row.related_invoice_issue_date }
        : null,
    lines: row.lines,
    vatBreakdown: (row.vat_breakdown ?? []) as VatEntry[],
    obligations: row.obligations,
  };
}
