import { canonicalJson } from '../kernel/canonical-json.js';
import { refuse, type Issue } from '../kernel/errors.js';
import type { Buyer } from './buyer.js';
import type { DecisionInput } from './decision-input.js';
import type { Concluded, DecidedLine, Seller } from './engine.js';
import type { Plan } from './treatments.js';
import type { DecisionVatValidation } from './vat-proof.js';

/** The tax decision resource, and the rule of its retries. */

export type DecisionStatus = 'final' | 'suspended' | 'not_taken';

export interface TaxDecision {
  id: string;
  object: 'tax_decision';
  livemode: boolean;
  status: DecisionStatus;
  /** End of the usage window: a final decision backs a document until then (null when not final). */
  expiresAt: string | null;
  taxSource: 'service' | 'integration';
  date: string;
  currency: string;
  customerId: string | null;
  buyer: {
    type: 'company' | 'individual';
    vatNumber: string | null;
    territory: string | null;
    deliveryTerritory: string | null;
    location: Plan['location'];
  };
  seller: {
    taxProfileId: string;
    territory: string;
    regime: string | null;
    vatOnDebits: boolean | null;
    ossRegistered: boolean | null;
  };
  lines: DecidedLine[];
  vatBreakdown: {
    vatCode: string;
    vatRate: string | null;
    vatexCode: string | null;
    taxableAmount: number;
    taxAmount: number;
  }[];
  totals: { net: number; vat: number; gross: number; due: number } | null;
  mentions: { code: string; text: string; lines: number[] }[];
  operationCategory: 'goods' | 'services' | 'mixed' | null;
  axes: Record<'einvoicing' | 'ereportingTransaction' | 'ereportingPayment', { state: string; reason: string }> | null;
  euThreshold: { year: number; position: 'origin' | 'destination'; reservationId: string } | null;
  /** VIES's confirmation of the buyer's intra-EU VAT number, when a line rests on it (live); null otherwise. */
  vatValidation: DecisionVatValidation | null;
  /** Why a decision is suspended or not taken (codes of the catalogue); empty for a final one. */
  reasons: Issue[];
  retryOf: string | null;
  metadata: Record<string, unknown>;
  created: string;
}

export interface RecordParts {
  id: string;
  livemode: boolean;
  input: DecisionInput;
  seller: Seller;
  buyer: Buyer;
  plan: Plan;
  now: Date;
  expiresAt: Date | null;
  euThreshold: TaxDecision['euThreshold'];
  vatValidation: DecisionVatValidation | null;
}

export function decisionRecord(
  parts: RecordParts,
  outcome: Concluded | { status: 'suspended'; lines: DecidedLine[]; reasons: Issue[] },
): TaxDecision {
  const final = outcome.status === 'final' ? outcome : null;
  return {
    id: parts.id,
    object: 'tax_decision',
    livemode: parts.livemode,
    status: outcome.status,
    expiresAt: final && parts.expiresAt ? parts.expiresAt.toISOString() : null,
    taxSource: parts.input.taxSource,
    date: parts.input.date,
    currency: parts.input.currency,
    customerId: parts.input.customerId ?? null,
    buyer: {
      type: parts.buyer.type,
      vatNumber: parts.buyer.vatNumber,
      territory: parts.buyer.billing?.id ?? null,
      deliveryTerritory: parts.buyer.delivery?.id ?? null,
      location: parts.plan.location,
    },
    seller: {
      taxProfileId: parts.seller.profileId,
      territory: parts.seller.place.territory.id,
      regime: parts.seller.regime,
      vatOnDebits: parts.seller.vatOnDebits,
      ossRegistered: parts.seller.ossRegistered,
    },
    lines: outcome.lines,
    vatBreakdown: final ? final.vatBreakdown : [],
    totals: final ? final.totals : null,
    mentions: final ? final.mentions : [],
    operationCategory: final ? final.operationCategory : null,
    axes: final ? final.axes : null,
    euThreshold: final ? parts.euThreshold : null,
    vatValidation: parts.vatValidation,
    reasons: outcome.status === 'final' ? [] : outcome.reasons,
    retryOf: parts.input.retryOf ?? null,
    metadata: parts.input.metadata ?? {},
    created: parts.now.toISOString(),
  };
}

/** What identifies the operation: everything but the evidence, the retry link and the metadata. */
function operationOf(input: DecisionInput): string {
  const { locationEvidence: _evidence, retryOf: _retry, metadata: _metadata, ...operation } = input;
  return canonicalJson(operation);
}

/**
 * A retry describes the same operation and may only add evidence (contract,
 * `tax_decision_retry_invalid`); a final decision still in its usage window has nothing to retry.
 */
export function checkRetry(
  previous: { id: string; status: string; expiresAt: Date | null; input: DecisionInput },
  input: DecisionInput,
  now: Date,
): void {
  if (previous.status === 'final' && previous.expiresAt && previous.expiresAt.getTime() > now.getTime()) {
    throw refuse(
      'tax_decision_retry_invalid',
      `Tax decision ${previous.id} is final and usable until ${previous.expiresAt.toISOString()}: there is nothing to retry.`,
      { param: 'retryOf' },
    );
  }
  if (operationOf(previous.input) !== operationOf(input)) {
    throw refuse(
      'tax_decision_retry_invalid',
      `The retry of ${previous.id} alters the operation (date, currency, buyer, lines or tax source); only missing evidence may be added. Describe a different operation without \`retryOf\`.`,
      { param: 'retryOf' },
    );
  }
  const remaining = (input.locationEvidence ?? []).map((item) => canonicalJson(item));
  for (const item of previous.input.locationEvidence ?? []) {
    const at = remaining.indexOf(canonicalJson(item));
    if (at < 0)
      throw refuse(
        'tax_decision_retry_invalid',
        `The retry of ${previous.id} drops or changes evidence it had; only new items may be added.`,
        { param: 'locationEvidence' },
      );
    remaining.splice(at, 1);
  }
}
