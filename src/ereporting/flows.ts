/**
 * Which operations go to which part of flow 10, and how they are gathered (research/
 * fr-einvoicing-domain.md section 5, "Flows" and "E-reporting scope"; XP Z12-013 `FlowType`):
 *
 * | operation                                   | obligation axis (tax decision)                 | flow | how                         |
 * |---------------------------------------------|------------------------------------------------|------|-----------------------------|
 * | invoice / credit note to a consumer         | `ereportingTransaction` due, reason `b2c`      | 10.3 | per day, VAT rate, category |
 * | invoice / credit note, international B2B    | `ereportingTransaction` due, `international_b2b` | 10.1 | one line per document     |
 * | payment / refund of a consumer's invoice    | `ereportingPayment` due                        | 10.4 | per day and VAT rate        |
 * | payment / refund, international B2B         | `ereportingPayment` due                        | 10.2 | one line per payment        |
 * | payment of a domestic B2B invoice           | `ereportingPayment` due, e-invoicing due       | none | the 212 status carries it   |
 * | anything else (exempt, domestic B2B)        | not applicable                                 | none |                             |
 *
 * A credit note counts negatively, in the period of its own date; a refund likewise, in the period
 * it was made: a correction never rewrites a declaration already sent. Categories (the reform's
 * transaction categories): `TLB1` goods taxed in France, `TPS1` services taxed in France, `TNT1`
 * operations not taxed in France (exempt, zero-rated, reverse-charged, outside scope).
 */

export const flows = ['10.1', '10.2', '10.3', '10.4'] as const;
export type Flow = (typeof flows)[number];

/** The AFNOR `FlowType` of each part of flow 10. */
export const flowTypes: Record<Flow, string> = {
  '10.1': 'UnitaryCustomerTransactionReport',
  '10.2': 'UnitaryCustomerPaymentReport',
  '10.3': 'AggregatedCustomerTransactionReport',
  '10.4': 'AggregatedCustomerPaymentReport',
};

export const isPaymentFlow = (flow: Flow) => flow === '10.2' || flow === '10.4';

export type Category = 'TLB1' | 'TPS1' | 'TNT1';

type Obligations = Record<string, { state: string; reason: string }> | null;

export interface VatEntry {
  vatCode: string;
  vatRate: string | null;
  /** The VATEX exemption code of a category other than S (the tax snapshot carries it). */
  vatexCode?: string | null;
  taxableAmount: number;
  taxAmount: number;
}

/** What e-reporting reads of an issued invoice or credit note. */
export interface DocumentFacts {
  kind: 'invoice' | 'credit_note';
  id: string;
  number: string;
  issueDate: string;
  currency: string;
  buyerCountry: string | null;
  buyerVatNumber: string | null;
  /** The invoice a credit note corrects (flow 10.1 carries it, rule G1.32), when known. */
  precedingInvoice?: { number: string; issueDate: string } | null;
  lines: { nature: string; vatCode: string | null; vatRate: string | null; netAmount: number }[];
  vatBreakdown: VatEntry[];
  obligations: Obligations;
}

/** What e-reporting reads of a payment (money in) or a refund (money back), with its invoice's facts. */
export interface PaymentFacts {
  kind: 'payment' | 'refund';
  id: string;
  /** The day the money moved (UTC). */
  date: string;
  amount: number;
  currency: string;
  invoiceNumber: string | null;
  /** The issue date of that invoice (or credit note): flow 10.2 names it (TT-102). */
  invoiceIssueDate?: string | null;
  vatBreakdown: VatEntry[];
  obligations: Obligations;
}

const due = (obligations: Obligations, axis: string) => obligations?.[axis]?.state === 'due';

export function transactionFlow(obligations: Obligations): Flow | null {
  if (!due(obligations, 'ereportingTransaction')) return null;
  return obligations!.ereportingTransaction!.reason === 'international_b2b' ? '10.1' : '10.3';
}

export function paymentFlow(obligations: Obligations): Flow | null {
  if (!due(obligations, 'ereportingPayment')) return null;
  // Domestic B2B: the payment is reported by the invoice's 212 status, not by flow 10.
  if (due(obligations, 'einvoicing')) return null;
  return obligations?.ereportingTransaction?.reason === 'international_b2b' ? '10.2' : '10.4';
}

export function categoryOf(nature: string, vatCode: string | null): Category {
  if (vatCode !== null && vatCode !== 'S') return 'TNT1';
  return nature === 'goods' ? 'TLB1' : 'TPS1';
}

export interface TransactionPart {
  category: Category;
  vatCode: string;
  vatRate: string | null;
  /** Absent on lines stored before it was kept. */
  vatexCode?: string | null;
  taxableAmount: number;
  taxAmount: number;
}

/** The billing framework of flow 10.1 (TT-28): goods, services or both. */
export type BillingFramework = 'B1' | 'S1' | 'M1';

export function billingFrameworkOf(natures: string[]): BillingFramework {
  const goods = natures.filter((nature) => nature === 'goods').length;
  if (natures.length === 0) return 'M1';
  return goods === natures.length ? 'B1' : goods === 0 ? 'S1' : 'M1';
}

/** Splits `total` over `weights` in proportion, cents exact (largest remainder, first wins ties). */
export function share(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum === 0) return weights.map((_, i) => (i === 0 ? total : 0));
  const exact = weights.map((w) => (total * w) / sum);
  const parts = exact.map((x) => Math.trunc(x));
  let rest = total - parts.reduce((a, b) => a + b, 0);
  const order = exact
    .map((x, i) => ({ i, frac: Math.abs(x - parts[i]!) }))
    .sort((a, b) => b.frac - a.frac || a.i - b.i);
  const step = rest >= 0 ? 1 : -1;
  for (let k = 0; rest !== 0; k = (k + 1) % order.length, rest -= step) parts[order[k]!.i]! += step;
  return parts;
}

/**
 * A document's amounts per (category, VAT code, rate): the line nets grouped, the tax of each VAT
 * breakdown entry shared over its groups by their nets. A credit note counts negatively.
 */
export function transactionParts(document: DocumentFacts): TransactionPart[] {
  const sign = document.kind === 'credit_note' ? -1 : 1;
  const parts: TransactionPart[] = [];
  for (const entry of document.vatBreakdown) {
    const lines = document.lines.filter(
      (line) => (line.vatCode ?? 'S') === entry.vatCode && (line.vatRate ?? null) === (entry.vatRate ?? null),
    );
    const byCategory = new Map<Category, number>();
    for (const line of lines) {
      const category = categoryOf(line.nature, entry.vatCode);
      byCategory.set(category, (byCategory.get(category) ?? 0) + line.netAmount);
    }
    if (byCategory.size === 0) {
      // Lines stored without their VAT code: the document's dominant nature names the category.
      const goods = document.lines.filter((line) => line.nature === 'goods').length * 2 > document.lines.length;
      byCategory.set(categoryOf(goods ? 'goods' : 'services', entry.vatCode), entry.taxableAmount);
    }
    const categories = [...byCategory.keys()];
    const taxable = share(entry.taxableAmount, [...byCategory.values()]);
    const tax = share(entry.taxAmount, [...byCategory.values()]);
    categories.forEach((category, i) =>
      parts.push({
        category,
        vatCode: entry.vatCode,
        vatRate: entry.vatRate,
        ...(entry.vatexCode ? { vatexCode: entry.vatexCode } : {}),
        taxableAmount: sign * taxable[i]!,
        taxAmount: sign * tax[i]!,
      }),
    );
  }
  return parts;
}

/** A payment's amount (tax included) per VAT rate of the services taxed in France, in proportion; a refund counts negatively. */
export function paymentParts(payment: PaymentFacts): { vatRate: string; amount: number }[] {
  const taxed = payment.vatBreakdown.filter((entry) => entry.vatCode === 'S' && entry.vatRate !== null);
  if (taxed.length === 0) return [];
  const sign = payment.kind === 'refund' ? -1 : 1;
  const amounts = share(
    payment.amount,
    taxed.map((entry) => entry.taxableAmount + entry.taxAmount),
  );
  return taxed.map((entry, i) => ({ vatRate: entry.vatRate!, amount: sign * amounts[i]! }));
}

/** The lines of a declaration, as transmitted (amounts in cents). */
export type ReportLine =
  | {
      kind: 'aggregated_transaction';
      date: string;
      category: Category;
      vatRate: string | null;
      taxableAmount: number;
      taxAmount: number;
      count: number;
    }
  | {
      kind: 'transaction';
      number: string;
      issueDate: string;
      /** UNTDID 1001: 380 invoice, 381 credit note. */
      typeCode: '380' | '381';
      buyerCountry: string | null;
      buyerVatNumber: string | null;
      /** Absent on lines stored before they were kept. */
      billingFramework?: BillingFramework;
      precedingInvoice?: { number: string; issueDate: string } | null;
      parts: TransactionPart[];
    }
  | { kind: 'aggregated_payment'; date: string; vatRate: string; amount: number; count: number }
  | {
      kind: 'payment';
      invoiceNumber: string | null;
      /** Absent on lines stored before it was kept. */
      invoiceIssueDate?: string | null;
      date: string;
      vatRate: string;
      amount: number;
    };

/** Accumulates operations into the lines of one declaration, in constant memory per group. */
export class ReportBuilder {
  private readonly groups = new Map<string, ReportLine>();
  private readonly unitary: ReportLine[] = [];
  operationCount = 0;
  taxableAmount = 0;
  taxAmount = 0;

  constructor(readonly flow: Flow) {}

  addDocument(document: DocumentFacts): { taxableAmount: number; taxAmount: number } {
    const parts = transactionParts(document);
    const taxable = parts.reduce((a, p) => a + p.taxableAmount, 0);
    const tax = parts.reduce((a, p) => a + p.taxAmount, 0);
    this.operationCount++;
    this.taxableAmount += taxable;
    this.taxAmount += tax;
    if (this.flow === '10.1') {
      this.unitary.push({
        kind: 'transaction',
        number: document.number,
        issueDate: document.issueDate,
        typeCode: document.kind === 'credit_note' ? '381' : '380',
        buyerCountry: document.buyerCountry,
        buyerVatNumber: document.buyerVatNumber,
        billingFramework: billingFrameworkOf(document.lines.map((line) => line.nature)),
        precedingInvoice: document.precedingInvoice ?? null,
        parts,
      });
    } else {
      const counted = new Set<string>();
      for (const part of parts) {
        const key = `${document.issueDate}|${part.category}|${part.vatRate ?? ''}`;
        const line = this.groups.get(key) as Extract<ReportLine, { kind: 'aggregated_transaction' }> | undefined;
        const first = !counted.has(key);
        counted.add(key);
        if (line) {
          line.taxableAmount += part.taxableAmount;
          line.taxAmount += part.taxAmount;
          if (first) line.count++;
        } else
          this.groups.set(key, {
            kind: 'aggregated_transaction',
            date: document.issueDate,
            category: part.category,
            vatRate: part.vatRate,
            taxableAmount: part.taxableAmount,
            taxAmount: part.taxAmount,
            count: 1,
          });
      }
    }
    return { taxableAmount: taxable, taxAmount: tax };
  }

  addPayment(payment: PaymentFacts): { taxableAmount: number; taxAmount: number } {
    const parts = paymentParts(payment);
    const amount = parts.reduce((a, p) => a + p.amount, 0);
    this.operationCount++;
    this.taxableAmount += amount;
    for (const part of parts) {
      if (this.flow === '10.2') {
        this.unitary.push({
          kind: 'payment',
          invoiceNumber: payment.invoiceNumber,
          invoiceIssueDate: payment.invoiceIssueDate ?? null,
          date: payment.date,
          vatRate: part.vatRate,
          amount: part.amount,
        });
        continue;
      }
      const key = `${payment.date}|${part.vatRate}`;
      const line = this.groups.get(key) as Extract<ReportLine, { kind: 'aggregated_payment' }> | undefined;
      if (line) {
        line.amount += part.amount;
        line.count++;
      } else
        this.groups.set(key, {
          kind: 'aggregated_payment',
          date: payment.date,
          vatRate: part.vatRate,
          amount: part.amount,
          count: 1,
        });
    }
    return { taxableAmount: amount, taxAmount: 0 };
  }

  /** Adds lines already built (a declaration's earlier lines). */
  addLines(lines: ReportLine[]): void {
    for (const line of lines) {
      if (line.kind === 'aggregated_transaction') {
        const key = `${line.date}|${line.category}|${line.vatRate ?? ''}`;
        const found = this.groups.get(key) as typeof line | undefined;
        if (found) {
          found.taxableAmount += line.taxableAmount;
          found.taxAmount += line.taxAmount;
          found.count += line.count;
        } else this.groups.set(key, { ...line });
      } else if (line.kind === 'aggregated_payment') {
        const key = `${line.date}|${line.vatRate}`;
        const found = this.groups.get(key) as typeof line | undefined;
        if (found) {
          found.amount += line.amount;
          found.count += line.count;
        } else this.groups.set(key, { ...line });
      } else this.unitary.push(line);
    }
  }

  lines(): ReportLine[] {
    const grouped = [...this.groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, l]) => l);
    return [...grouped, ...this.unitary];
  }
}
