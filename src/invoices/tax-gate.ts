import type { Deps } from '../deps.js';
import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { ApiError, refuse } from '../kernel/errors.js';
import { getTaxDecision, type TaxDecision } from '../tax/service.js';
import { countDecisionShare } from '../ledgers/service.js';
import type { BuyerTaxFacts } from './buyer.js';
import { sameDecimal, type DocumentLine } from './lines.js';
import { documentNet, type DocumentAdjustment } from '../kernel/document-adjustments.js';
import { explained } from './refusals.js';

/**
 * The one place the invoices capability reads the tax capability: a final, unexpired decision
 * that backs no other document and matches the document's customer, currency, lines and totals
 * (contract: "every fiscal invoice is backed by an immutable tax decision", the `tax_decision_*`
 * codes). `DecisionFacts` is what a document needs of a decision, so a change of the decision
 * resource touches `factsOf` alone.
 */

export interface DecisionLineFacts {
  description: string;
  quantity: string;
  unitPrice: string;
  nature: string;
  rateCategory: string | null;
  vatCode: string | null;
  vatRate: string | null;
  vatexCode: string | null;
  netAmount: number | null;
}

export interface DecisionFacts {
  id: string;
  status: string;
  expiresAt: string | null;
  taxSource: 'service' | 'integration';
  date: string;
  currency: string;
  customerId: string | null;
  buyer: BuyerTaxFacts;
  lines: DecisionLineFacts[];
  totals: { net: number; vat: number; gross: number; due: number } | null;
  vatBreakdown: {
    vatCode: string;
    vatRate: string | null;
    vatexCode: string | null;
    taxableAmount: number;
    taxAmount: number;
  }[];
  mentions: { code: string; text: string; lines: number[] }[];
  obligations: Record<string, { state: string; reason: string }> | null;
  /** The decision reserved a share of an EU threshold ledger: the share becomes counted with the document. */
  reservesLedgerShare: boolean;
}

export function factsOf(decision: TaxDecision): DecisionFacts {
  return {
    id: decision.id,
    status: decision.status,
    expiresAt: decision.expiresAt,
    taxSource: decision.taxSource,
    date: decision.date,
    currency: decision.currency,
    customerId: decision.customerId,
    buyer: {
      type: decision.buyer.type,
      vatNumber: decision.buyer.vatNumber,
      territory: decision.buyer.territory,
      deliveryTerritory: decision.buyer.deliveryTerritory,
    },
    lines: decision.lines.map((line) => ({
      description: line.description,
      quantity: line.quantity,
      unitPrice: line.unitPrice,
      nature: line.nature,
      rateCategory: line.rateCategory,
      vatCode: line.vatCode,
      vatRate: line.vatRate,
      vatexCode: line.vatexCode,
      netAmount: line.netAmount,
    })),
    totals: decision.totals,
    vatBreakdown: decision.vatBreakdown,
    mentions: decision.mentions,
    obligations: decision.axes,
    reservesLedgerShare: decision.euThreshold !== null,
  };
}

/** The decision named by a document, or `tax_decision_required` when there is none in this environment. */
export async function readDecision(deps: Pick<Deps, 'db'>, scope: Scope, id: string | null): Promise<DecisionFacts> {
  const named = decisionNamed(id);
  try {
    return factsOf(await getTaxDecision(deps, scope, named));
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') return decisionFactsOf(null, named);
    throw error;
  }
}

/** The decision's id, or `tax_decision_required` when the document names none. */
export function decisionNamed(id: string | null): string {
  if (id !== null) return id;
  throw explained(
    'tax_decision_required',
    'The document names no tax decision: every fiscal document is backed by a final decision. Create one with `POST /v1/tax-decisions` describing these lines, then set `taxDecisionId`.',
    { param: 'taxDecisionId' },
  );
}

/** The facts of the decision `id` as a lookup read it (null: none in this environment, `tax_decision_required`). */
export function decisionFactsOf(decision: TaxDecision | null, id: string): DecisionFacts {
  if (decision) return factsOf(decision);
  throw explained(
    'tax_decision_required',
    `No tax decision ${id} in this environment backs the document. Create one with \`POST /v1/tax-decisions\`.`,
    { param: 'taxDecisionId' },
  );
}

/** The document as the gate compares it with its decision. */
export interface BackedDocument {
  customerId: string | null;
  buyer: BuyerTaxFacts;
  currency: string;
  taxSource: string | null;
  lines: DocumentLine[];
  subtotal: number;
  /** BG-20 / BG-21: the decision's net (BT-109) is the lines' total less these plus those. */
  allowances?: DocumentAdjustment[];
  charges?: DocumentAdjustment[];
}

const normalizedVat = (value: string | null) =>
  value === null || value.trim() === '' ? null : value.trim().toUpperCase();

function lineMismatch(index: number, what: string): ApiError {
  return refuse(
    'tax_decision_lines_mismatch',
    `Line ${index} does not match line ${index} of the tax decision: ${what}. The document's lines must cover exactly the decided lines, in order.`,
    { param: `lines[${index}]` },
  );
}

/**
 * The checks of the gate, in the order a reader would make them. Pure: throws the first refusal.
 * `backedBy` is the document the decision already backs, if any.
 */
export function checkBacking(
  decision: DecisionFacts,
  document: BackedDocument,
  now: Date,
  backedBy: string | null,
): void {
  const id = decision.id;
  if (decision.status !== 'final')
    throw new ApiError('tax_decision_not_final', { values: { id, status: decision.status }, param: 'taxDecisionId' });
  if (decision.expiresAt === null || Date.parse(decision.expiresAt) <= now.getTime()) {
    throw new ApiError('tax_decision_expired', {
      values: { id, expiresAt: decision.expiresAt ?? 'its creation' },
      param: 'taxDecisionId',
    });
  }
  if (backedBy !== null) {
    throw explained(
      'tax_decision_required',
      `Tax decision ${id} already backs ${backedBy}: one final decision backs exactly one document. Create a new decision for this one.`,
      { param: 'taxDecisionId' },
    );
  }
  if (decision.customerId !== document.customerId) {
    const named = (value: string | null) => (value === null ? 'an inline buyer' : `customer ${value}`);
    throw refuse(
      'tax_decision_customer_mismatch',
      `Tax decision ${id} was taken for ${named(decision.customerId)}, the document is addressed to ${named(document.customerId)}.`,
      { param: document.customerId === null ? 'buyer' : 'customerId' },
    );
  }
  const drifted = (['type', 'vatNumber', 'territory', 'deliveryTerritory'] as const).filter((field) => {
    const a = decision.buyer[field];
    const b = document.buyer[field];
    return field === 'vatNumber' ? normalizedVat(a) !== normalizedVat(b) : a !== b;
  });
  if (drifted.length > 0) {
    throw refuse(
      'tax_decision_buyer_drifted',
      `The buyer no longer matches tax decision ${id} (${drifted.join(', ')} changed since the decision): take a new decision for the buyer as it is now.`,
      { param: document.customerId === null ? 'buyer' : 'customerId' },
    );
  }
  if (decision.currency !== document.currency) {
    throw refuse(
      'tax_decision_currency_mismatch',
      `Tax decision ${id} is in ${decision.currency}, the document in ${document.currency}.`,
      { param: 'currency' },
    );
  }
  if (document.taxSource !== null && document.taxSource !== decision.taxSource) {
    throw refuse(
      'tax_decision_lines_mismatch',
      `The document's \`taxSource\` is ${document.taxSource}, tax decision ${id}'s is ${decision.taxSource}.`,
      { param: 'taxSource' },
    );
  }
  if (document.lines.length !== decision.lines.length) {
    throw refuse(
      'tax_decision_lines_mismatch',
      `The document has ${document.lines.length} line(s), tax decision ${id} decided ${decision.lines.length}. The lines must cover exactly the decided lines.`,
      { param: 'lines' },
    );
  }
  document.lines.forEach((line, index) => {
    const decided = decision.lines[index]!;
    if (line.description !== decided.description) throw lineMismatch(index, 'the description differs');
    if (!sameDecimal(line.quantity, decided.quantity))
      throw lineMismatch(index, `quantity ${line.quantity} against ${decided.quantity}`);
    if (!sameDecimal(line.unitPrice, decided.unitPrice))
      throw lineMismatch(index, `unit price ${line.unitPrice} against ${decided.unitPrice}`);
    if (line.nature !== decided.nature) throw lineMismatch(index, `nature ${line.nature} against ${decided.nature}`);
    if (decision.taxSource === 'service') {
      const asked = line.rateCategory ?? 'standard';
      if (decided.rateCategory !== null && asked !== decided.rateCategory)
        throw lineMismatch(index, `rate category ${asked} against ${decided.rateCategory}`);
    } else {
      if (line.vatCode !== null && line.vatCode !== decided.vatCode)
        throw lineMismatch(index, `VAT category ${line.vatCode} against ${decided.vatCode}`);
      if (line.vatCode !== null && !sameDecimal(line.vatRate, decided.vatRate))
        throw lineMismatch(index, `VAT rate ${line.vatRate ?? 'none'} against ${decided.vatRate ?? 'none'}`);
      if (line.vatCode !== null && (line.vatexCode ?? null) !== (decided.vatexCode ?? null))
        throw lineMismatch(index, `VATEX code ${line.vatexCode ?? 'none'} against ${decided.vatexCode ?? 'none'}`);
    }
  });
  const totals = decision.totals;
  if (totals === null)
    throw refuse(
      'tax_snapshot_inconsistent',
      `Tax decision ${id} is final but fixes no amount; re-issue the document from a new decision.`,
      { param: 'taxDecisionId' },
    );
  const decidedNet = decision.lines.reduce((sum, line) => sum + (line.netAmount ?? 0), 0);
  const net = documentNet(document.subtotal, {
    allowances: document.allowances ?? [],
    charges: document.charges ?? [],
  });
  if (decidedNet !== document.subtotal) {
    throw refuse(
      'tax_decision_totals_inconsistent',
      `The document's lines total ${document.subtotal} cents excluding VAT, tax decision ${id} fixed ${decidedNet}.`,
      { param: 'lines' },
    );
  }
  if (totals.net !== net) {
    throw refuse(
      'tax_decision_totals_inconsistent',
      `The document's net after its allowances and charges is ${net} cents excluding VAT, tax decision ${id} fixed ${totals.net}: the decision states the same document allowances and charges.`,
      { param: net === document.subtotal ? 'lines' : 'allowances' },
    );
  }
  document.lines.forEach((line, index) => {
    if (decision.lines[index]!.netAmount !== line.netAmount) {
      throw refuse(
        'tax_decision_totals_inconsistent',
        `Line ${index} nets ${line.netAmount} cents, tax decision ${id} fixed ${decision.lines[index]!.netAmount}.`,
        { param: `lines[${index}]` },
      );
    }
  });
  const vat = decision.vatBreakdown.reduce((sum, group) => sum + group.taxAmount, 0);
  const taxable = decision.vatBreakdown.reduce((sum, group) => sum + group.taxableAmount, 0);
  if (vat !== totals.vat || taxable !== totals.net || totals.gross !== totals.net + totals.vat) {
    throw refuse(
      'tax_snapshot_inconsistent',
      `Tax decision ${id} contradicts itself (its VAT breakdown does not add up to its totals); take a new decision.`,
      { param: 'taxDecisionId' },
    );
  }
}

/** The lines as the decision fixed them: the VAT of each, copied onto the document. */
export function decidedLines(decision: DecisionFacts, lines: DocumentLine[]): DocumentLine[] {
  return lines.map((line, index) => {
    const decided = decision.lines[index]!;
    return {
      ...line,
      rateCategory: decided.rateCategory ?? line.rateCategory,
      vatCode: decided.vatCode,
      vatRate: decided.vatRate,
      vatexCode: decided.vatexCode,
    };
  });
}

/** True when the decision puts the document on the e-invoicing channel (deposit through the platform). */
export function einvoicingDue(decision: DecisionFacts): boolean {
  return decision.obligations?.einvoicing?.state === 'due';
}

/** In the finalizing transaction: the decision's reserved ledger share becomes counted (or `tax_decision_expired`). */
export async function consumeLedgerShare(
  tx: Executor,
  scope: Scope,
  decision: DecisionFacts,
  now: Date,
): Promise<void> {
  if (decision.reservesLedgerShare) await countDecisionShare(tx, scope, decision.id, now);
}
