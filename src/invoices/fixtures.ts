import { randomBytes } from 'node:crypto';
import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import type { CallContext } from '../db/transaction.js';
import { fixtureCreated, fixtureId } from '../identifiers/fixture-id.js';
import { customerFixtures } from '../customers/service.js';
import type { Axes } from './document-axes.js';
import { checkBuyer, type BuyerInput } from './buyer.js';
import { sellerFacts } from './seller-block.js';
import { addDays, dayOf, endOfDay } from '../kernel/calendar.js';
import {
  axesColumns,
  freshEinvoicing,
  type DocumentRow,
  type Einvoicing,
  type TaxSnapshot,
} from './document-record.js';
import { resolveLines, type LineInput } from './lines.js';
import { formatNumber, seriesOf } from '../numbering/series.js';
import { moveCounterBeyond } from '../numbering/service.js';
import { paymentStatusOf } from './payment-status.js';
import { insertDocuments } from './store.js';
import { queueGenerations } from './files-store.js';

/**
 * The sandbox's fixture invoices, injected by `POST /v1/sandbox/reset` after the customers': one
 * in each state worth trying (draft, finalized, approved, paid, partly paid and overdue, rejected
 * by the platform, refused by the buyer, a consumer sale outside e-invoicing). Their ids are the
 * same after every reset, `metadata.fixture` names them, their numbers are the first of the test
 * series of the year, and the counter is moved beyond them. No event is emitted for them. They
 * carry no tax decision (fixtures are not finalized through the API); their VAT is 20 %, and their
 * obligations are those a decision would give them.
 */

interface InvoiceFixture {
  name: string;
  customer: 'fr_b2b' | 'fr_consumer';
  lines: LineInput[];
  /** Days before the reset day it was issued (numbers follow these dates). */
  issuedDaysAgo: number;
  termsDays: number;
  axes: Omit<Axes, 'paymentStatus'> | null;
  /** Cents collected (a payment fixture records them). */
  paid?: 'all' | number;
  rejection?: Partial<Einvoicing>;
  overdue?: boolean;
}

const chair: LineInput = {
  description: 'Chaise en chêne massif',
  quantity: '2',
  unitPrice: '149.00',
  unit: 'H87',
  nature: 'goods',
  rateCategory: 'standard',
};
const advice: LineInput = {
  description: 'Conseil en organisation',
  quantity: '3',
  unitPrice: '90.00',
  unit: 'HUR',
  nature: 'services',
  rateCategory: 'standard',
};
const finalized = (
  transmissionStatus: Axes['transmissionStatus'],
  transmissionDetail: Axes['transmissionDetail'] = null,
): Omit<Axes, 'paymentStatus'> => ({ documentStatus: 'finalized', transmissionStatus, transmissionDetail });

/** Name -> what it shows; documented in the README. In issue order, oldest first (numbers follow). */
export const invoiceFixtures: InvoiceFixture[] = [
  {
    name: 'paid',
    customer: 'fr_b2b',
    lines: [chair],
    issuedDaysAgo: 40,
    termsDays: 30,
    axes: finalized('approved'),
    paid: 'all',
  },
  {
    name: 'partially_paid_overdue',
    customer: 'fr_b2b',
    lines: [chair, advice],
    issuedDaysAgo: 35,
    termsDays: 15,
    axes: finalized('transmitted', 'received'),
    paid: 20_000,
    overdue: true,
  },
  {
    name: 'rejected',
    customer: 'fr_b2b',
    lines: [advice],
    issuedDaysAgo: 20,
    termsDays: 30,
    axes: finalized('rejected'),
    rejection: {
      paErrorCode: 'REJ_SEMAN',
      rejectionReason: 'BR-FR-08: le SIREN du vendeur est absent',
      rejectionNote: 'Renseigner le SIREN du vendeur (BT-30).\nDéposer à nouveau la facture corrigée.',
      rejectionCode: 'REJ_SEMAN',
      rejectionSource: 'platform',
      rejectionCategory: 'semantic_error',
    },
  },
  {
    name: 'refused',
    customer: 'fr_b2b',
    lines: [chair],
    issuedDaysAgo: 15,
    termsDays: 30,
    axes: finalized('rejected', 'refused'),
    rejection: {
      rejectionReason: 'Commande annulée',
      rejectionNote: null,
      rejectionCode: 'ANNULATION',
      rejectionSource: 'buyer',
      rejectionCategory: 'refused_by_buyer',
    },
  },
  {
    name: 'approved',
    customer: 'fr_b2b',
    lines: [advice],
    issuedDaysAgo: 10,
    termsDays: 30,
    axes: finalized('approved'),
  },
  {
    name: 'consumer_paid_by_card',
    customer: 'fr_consumer',
    lines: [chair],
    issuedDaysAgo: 5,
    termsDays: 0,
    axes: finalized('not_applicable'),
    paid: 'all',
  },
  {
    name: 'finalized',
    customer: 'fr_b2b',
    lines: [chair, advice],
    issuedDaysAgo: 1,
    termsDays: 30,
    axes: finalized('pending'),
  },
  { name: 'draft', customer: 'fr_b2b', lines: [advice], issuedDaysAgo: 0, termsDays: 30, axes: null },
];

/** The payments the fixtures record (the payments capability inserts them). */
export interface FixturePayment {
  name: string;
  invoiceId: string;
  amount: number;
  method: 'transfer' | 'card';
  paidAt: Date;
}

const vatOf = (net: number) => Math.round((net * 20) / 100);

/** The three axes a decision would give (tax/obligations.ts): a French business, or a French consumer; services on collection. */
function fixtureObligations(fixture: InvoiceFixture): TaxSnapshot['obligations'] {
  const services = fixture.lines.some((line) => line.nature !== 'goods');
  const ereportingPayment = services
    ? { state: 'due', reason: 'services_vat_on_collection' }
    : { state: 'not_applicable', reason: 'no_services_taxed_in_france' };
  return fixture.customer === 'fr_b2b'
    ? {
        einvoicing: { state: 'due', reason: 'domestic_b2b' },
        ereportingTransaction: { state: 'not_applicable', reason: 'einvoicing' },
        ereportingPayment,
      }
    : {
        einvoicing: { state: 'not_applicable', reason: 'buyer_not_taxable_person' },
        ereportingTransaction: { state: 'due', reason: 'b2c' },
        ereportingPayment,
      };
}

function customerOf(
  companyId: string,
  name: 'fr_b2b' | 'fr_consumer',
): { id: string; buyer: ReturnType<typeof checkBuyer> } {
  const index = customerFixtures.findIndex(([fixture]) => fixture === name);
  const [, input] = customerFixtures[index]!;
  const { metadata: _metadata, routingCode: _routing, ...identity } = input as typeof input & { routingCode?: unknown };
  return {
    id: fixtureId('customer', companyId, name, customerFixtures.length - index),
    buyer: checkBuyer(identity as BuyerInput),
  };
}

/**
 * Inserts the fixture invoices into the (just purged) test scope, `ctx.now` being the sandbox's
 * time after the reset, and moves the year's test invoice series beyond their numbers.
 */
export async function seedInvoiceFixtures(tx: Tx, ctx: CallContext): Promise<number> {
  const scope = ctx.scope;
  if (scope.livemode) throw new Error('fixtures are for the sandbox only');
  const today = dayOf(ctx.now);
  const count = invoiceFixtures.length;
  const sequences = new Map<string, number>();
  const nextIn = (series: string) => {
    const value = (sequences.get(series) ?? 0) + 1;
    sequences.set(series, value);
    return value;
  };
  // The sandbox's seller (its identity and head office, seeded before): the same block on every fixture.
  const { block: seller } = await sellerFacts(tx, scope, today);
  const rows: DocumentRow[] = invoiceFixtures.map((fixture, index) => {
    const position = count - index;
    const id = fixtureId('invoice', scope.companyId, fixture.name, position);
    const created = fixtureCreated(position);
    const { id: customerId, buyer } = customerOf(scope.companyId, fixture.customer);
    const lines = resolveLines(fixture.lines, new Map());
    const subtotal = lines.reduce((sum, line) => sum + line.netAmount, 0);
    const base = {
      ...scope,
      id,
      kind: 'invoice',
      customerId,
      currency: 'EUR',
      taxSource: 'service',
      taxDecisionId: null,
      backingDecisionId: null,
      deliveryDate: null,
      paymentTermsDays: fixture.termsDays,
      paymentTerms: null,
      notes: null,
      metadata: { fixture: fixture.name },
      subtotal,
      amountRefunded: 0,
      amountCredited: 0,
      invoiceType: 'standard' as const,
      deposits: [],
      amountDeducted: 0,
      deductedBy: null,
      attachments: [],
      allowances: [],
      charges: [],
      history: [] as DocumentRow['history'],
      relatedInvoiceId: null,
      relatedInvoiceNumber: null,
      quoteId: null,
      recurringInvoiceId: null,
      created,
    };
    if (!fixture.axes) {
      return {
        ...base,
        number: null,
        series: null,
        ...axesColumns(
          {
            documentStatus: 'draft',
            transmissionStatus: 'not_applicable',
            transmissionDetail: null,
            paymentStatus: 'unpaid',
          },
          'invoice',
        ),
        buyer: null,
        seller: null,
        lines,
        issueDate: null,
        dueDate: null,
        totalTax: null,
        total: null,
        amountPaid: 0,
        tax: null,
        einvoicing: freshEinvoicing(),
        portalToken: null,
        dueAt: null,
        overdueAt: null,
        finalizedAt: null,
        updated: created,
      };
    }
    const { issueDate, vat, total, paid, issuedAt } = figuresOf(fixture, subtotal, today);
    const dueDate = addDays(issueDate, fixture.termsDays);
    const series = seriesOf('invoice', false, Number(issueDate.slice(0, 4)));
    return {
      ...base,
      number: formatNumber(series, nextIn(series)),
      series,
      ...axesColumns({ ...fixture.axes, paymentStatus: paymentStatusOf(total, paid, 0) }, 'invoice'),
      buyer,
      seller,
      lines: lines.map((line) => ({ ...line, vatCode: 'S', vatRate: '20.00', vatexCode: null })),
      issueDate,
      dueDate,
      totalTax: vat,
      total,
      amountPaid: paid,
      tax: {
        decisionId: 'fixture',
        date: issueDate,
        vatBreakdown: [{ vatCode: 'S', vatRate: '20.00', vatexCode: null, taxableAmount: subtotal, taxAmount: vat }],
        mentions: [],
        obligations: fixtureObligations(fixture),
      },
      einvoicing: { ...freshEinvoicing(), ...fixture.rejection },
      portalToken: randomBytes(24).toString('base64url'),
      dueAt: endOfDay(dueDate),
      overdueAt: fixture.overdue ? endOfDay(dueDate) : null,
      finalizedAt: issuedAt,
      updated: issuedAt,
    };
  });
  await insertDocuments(tx, rows);
  // The finalized fixtures get their files like any finalized document.
  await queueGenerations(
    tx,
    scope,
    rows.filter((row) => row.number !== null).map((row) => ({ id: row.id, kind: row.kind })),
    ctx.now,
  );
  // The numbers of the fixtures are taken: the first invoice finalized after the reset follows them.
  for (const [series, last] of sequences) await moveCounterBeyond(tx, scope, series, last);
  return rows.length;
}

/** The dates and amounts of a finalized fixture, on the sandbox day `today`. */
function figuresOf(fixture: InvoiceFixture, subtotal: number, today: string) {
  const issueDate = addDays(today, -fixture.issuedDaysAgo);
  const vat = vatOf(subtotal);
  const total = subtotal + vat;
  const paid = fixture.paid === 'all' ? total : (fixture.paid ?? 0);
  return { issueDate, vat, total, paid, issuedAt: new Date(`${issueDate}T09:00:00Z`) };
}

/** The payments the fixture invoices carry (the payments capability records them), `now` being the sandbox's time. */
export function fixturePaymentsOf(scope: Scope, now: Date): FixturePayment[] {
  const count = invoiceFixtures.length;
  return invoiceFixtures.flatMap((fixture, index) => {
    if (!fixture.axes) return [];
    const subtotal = resolveLines(fixture.lines, new Map()).reduce((sum, line) => sum + line.netAmount, 0);
    const { paid, issuedAt } = figuresOf(fixture, subtotal, dayOf(now));
    if (paid === 0) return [];
    return [
      {
        name: fixture.name,
        invoiceId: fixtureId('invoice', scope.companyId, fixture.name, count - index),
        amount: paid,
        method: fixture.customer === 'fr_consumer' ? ('card' as const) : ('transfer' as const),
        paidAt: new Date(Math.min(now.getTime(), issuedAt.getTime() + 86_400_000)),
      },
    ];
  });
}
