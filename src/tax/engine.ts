import { ApiError, refuse, type Issue } from '../kernel/errors.js';
import { quantityPattern, unitPricePattern } from '../kernel/money.js';
import { lineFigures, type LineAdjustmentInput } from '../kernel/line-adjustments.js';
import {
  checkDocumentNet,
  resolveDocumentAdjustments,
  type DocumentAdjustmentInput,
  type DocumentAdjustments,
} from '../kernel/document-adjustments.js';
import { computeTotals, maxTotalCents, type Totals, type VatGroup } from './amounts.js';
import type { Buyer } from './buyer.js';
import { checkLineTax, decideLineTax, type LineOutcome, type LineTax } from './line-tax.js';
import type { EvidenceItem } from './location-evidence.js';
import {
  decideAxes,
  decideMentions,
  operationCategory,
  servicesTaxedInFrance,
  type Axes,
  type DecidedLineTax,
  type Mention,
} from './obligations.js';
import { displayRate, type RateCategory } from './rates.js';
import {
  applyThreshold,
  ledgerShares,
  planOperation,
  type Nature,
  type Plan,
  type SellerPlace,
  type Treatment,
} from './treatments.js';

/**
 * The tax decision engine: pure and synchronous. It takes the operation, the seller's tax profile
 * (resolved for the date), the buyer and, when EU B2C supplies are involved, what the ledger said;
 * it returns a decision or throws a typed refusal (ApiError with the contract's code and issues).
 *
 *   prepare()  checks the input against the tax source, computes the line nets, plans the place of
 *              supply of each line and the ledger shares;
 *   conclude() turns the plan into the decided lines (or checks the supplied ones), the amounts, the
 *              mentions and the three axes, or a decision not taken.
 */

export type TaxSource = 'service' | 'integration';

export interface OperationLine {
  description: string;
  quantity: string;
  unitPrice: string;
  nature: Nature;
  rateCategory?: RateCategory | undefined;
  vatRate?: string | null | undefined;
  vatCode?: string | undefined;
  vatexCode?: string | null | undefined;
  /** BG-27 / BG-28: the line's net (BT-131) is its gross amount less these plus those. */
  allowances?: LineAdjustmentInput[] | undefined;
  charges?: LineAdjustmentInput[] | undefined;
}

export interface Operation {
  taxSource: TaxSource;
  /** The operation date (tax point), `YYYY-MM-DD`. */
  date: string;
  currency: string;
  lines: OperationLine[];
  locationEvidence: EvidenceItem[];
  /** BG-20 / BG-21: split over the VAT groups by their line nets. */
  allowances?: DocumentAdjustmentInput[] | undefined;
  charges?: DocumentAdjustmentInput[] | undefined;
}

export interface Seller {
  profileId: string;
  place: SellerPlace;
  regime: 'normal' | 'simplified' | 'franchise' | null;
  vatNumber: string | null;
  vatOnDebits: boolean | null;
  ossRegistered: boolean | null;
  ereportingPeriodicity: string | null;
}

export interface Prepared {
  plan: Plan;
  nets: number[];
  adjustments: DocumentAdjustments;
  shares: { distanceSales: number; electronicServices: number };
  /** Some line is an EU B2C supply to another member state: the ledger decides. */
  needsLedger: boolean;
}

export interface ThresholdPosition {
  position: 'origin' | 'destination';
}

export interface DecidedLine {
  index: number;
  description: string;
  quantity: string;
  unitPrice: string;
  nature: Nature;
  rateCategory: RateCategory | null;
  treatment: string;
  placeOfSupply: string;
  vatCode: string | null;
  vatRate: string | null;
  vatexCode: string | null;
  netAmount: number | null;
}

export type Concluded =
  | {
      status: 'final';
      lines: DecidedLine[];
      vatBreakdown: (VatGroup & { vatRate: string | null })[];
      totals: Totals;
      mentions: Mention[];
      axes: Axes;
      operationCategory: 'goods' | 'services' | 'mixed';
    }
  | { status: 'not_taken'; lines: DecidedLine[]; reasons: Issue[] };

/** Fields that state a tax result: the client describes the operation, the engine decides them. */
const imposedLineFields = ['vatRate', 'vatCode', 'vatexCode'] as const;

const lineIssue = (code: string, index: number, message: string, field?: string): Issue => ({
  code,
  param: field ? `lines[${index}].${field}` : `lines[${index}]`,
  message,
});

function refuseWithIssues(code: ConstructorParameters<typeof ApiError>[0], issues: Issue[], summary: string): never {
  throw new ApiError(code, {
    param: issues[0]?.param ?? undefined,
    values: {
      detail: issues.length === 1 ? issues[0]!.message : `${summary} (${issues.length} reasons; see \`issues\`).`,
    },
    issues,
  });
}

/** The input rules of each tax source (contract, "What the service does", rule 5). */
function checkSource(operation: Operation): void {
  const issues: Issue[] = [];
  operation.lines.forEach((line, index) => {
    if (operation.taxSource === 'service') {
      for (const field of imposedLineFields) {
        if (line[field] !== undefined)
          issues.push(
            lineIssue(
              'tax_decision_input_rejected',
              index,
              `Line ${index} carries \`${field}\`: with \`taxSource: service\` the engine decides the rate, category and VATEX; describe the operation (nature, \`rateCategory\`) instead.`,
              field,
            ),
          );
      }
    }
  });
  if (issues.length > 0)
    refuseWithIssues(
      'tax_decision_input_rejected',
      issues,
      'The payload imposes a tax result instead of describing the operation',
    );
  if (operation.taxSource === 'integration') {
    operation.lines.forEach((line, index) => {
      for (const field of ['vatCode', 'vatRate'] as const) {
        if (line[field] === undefined)
          throw new ApiError('missing_required_field', { param: `lines[${index}].${field}` });
      }
    });
  }
}

function lineNets(operation: Operation): number[] {
  const issues: Issue[] = [];
  const nets = operation.lines.map((line, index) => {
    if (!quantityPattern.test(line.quantity) || Number(line.quantity) === 0) {
      issues.push(
        lineIssue(
          'invalid_field_value',
          index,
          `Line ${index}: \`quantity\` is a positive decimal string of at most 12 digits and 4 decimals, e.g. "1.5".`,
          'quantity',
        ),
      );
      return 0;
    }
    if (!unitPricePattern.test(line.unitPrice)) {
      issues.push(
        lineIssue(
          'invalid_field_value',
          index,
          `Line ${index}: \`unitPrice\` is a decimal string of at most 12 digits and 6 decimals, without sign, e.g. "12.50".`,
          'unitPrice',
        ),
      );
      return 0;
    }
    return lineFigures(line.quantity, line.unitPrice, line, `lines[${index}]`).netAmount;
  });
  if (issues.length > 0) refuseWithIssues('invalid_field_value', issues, 'Some lines have invalid amounts');
  const total = nets.reduce((sum, net) => sum + net, 0);
  if (total * 1.3 >= maxTotalCents)
    throw refuse('invalid_field_value', 'The operation is too large: its total must stay under 10^13 euros.', {
      param: 'lines',
    });
  return nets;
}

export function prepare(operation: Operation, seller: Seller, buyer: Buyer): Prepared {
  if (operation.lines.length === 0)
    throw refuse('invalid_field_value', 'An operation has at least one line.', { param: 'lines' });
  checkSource(operation);
  const nets = lineNets(operation);
  const adjustments = {
    allowances: resolveDocumentAdjustments(operation.allowances, 'allowance', 'allowances'),
    charges: resolveDocumentAdjustments(operation.charges, 'charge', 'charges'),
  };
  checkDocumentNet(
    nets.reduce((sum, net) => sum + net, 0),
    adjustments,
  );
  const plan = planOperation(seller.place, buyer, operation.lines, operation.locationEvidence);
  const shares = ledgerShares(plan, nets);
  return {
    plan,
    nets,
    adjustments,
    shares,
    needsLedger: plan.lines.some((line) => line.treatment.kind === 'eu_b2c'),
  };
}

function describe(treatment: Treatment): { treatment: string; place: string } {
  switch (treatment.kind) {
    case 'french':
      return { treatment: treatment.origin ? 'distance_sale_origin' : 'domestic', place: treatment.place };
    case 'destination':
      return { treatment: 'distance_sale_destination', place: treatment.destination.id };
    case 'eu_b2c':
      return { treatment: 'distance_sale_pending', place: treatment.destination.id };
    default:
      return { treatment: treatment.kind, place: treatment.place };
  }
}

function decidedLine(
  operation: Operation,
  index: number,
  treatment: Treatment,
  tax: LineTax | null,
  net: number | null,
): DecidedLine {
  const line = operation.lines[index]!;
  const described = describe(treatment);
  return {
    index,
    description: line.description,
    quantity: line.quantity,
    unitPrice: line.unitPrice,
    nature: line.nature,
    rateCategory: line.rateCategory ?? (operation.taxSource === 'service' ? 'standard' : null),
    treatment: described.treatment,
    placeOfSupply: described.place,
    vatCode: tax?.vatCode ?? null,
    vatRate: tax?.vatRate === null || tax?.vatRate === undefined ? null : displayRate(tax.vatRate),
    vatexCode: tax?.vatexCode ?? null,
    netAmount: net,
  };
}

/** Declarations the decision needs from the profile (`tax_profile_incomplete` lists the missing ones). */
function missingDeclarations(seller: Seller, decided: DecidedLineTax[], axes: Axes | null): Issue[] {
  const missing: Issue[] = [];
  const needs = (field: string, why: string) =>
    missing.push({
      code: 'tax_profile_incomplete',
      param: null,
      message: `Tax profile ${seller.profileId} does not declare \`${field}\`, which this decision needs: ${why}.`,
    });
  const regime = seller.regime;
  if (regime !== 'franchise' && !seller.vatNumber)
    needs('vatNumber', `the ${regime ?? 'declared'} regime invoices with the seller's VAT number`);
  else if (!seller.vatNumber && decided.some((line) => ['K', 'AE'].includes(line.tax.vatCode)))
    needs(
      'vatNumber',
      'an intra-EU supply or a reverse-charged service names the seller VAT number (BR-IC-02, BR-AE-02)',
    );
  if (regime !== 'franchise' && seller.vatOnDebits === null && servicesTaxedInFrance(decided).length > 0)
    needs('vatOnDebits', 'services taxed in France report their payments unless the seller opted for debits');
  if (seller.ossRegistered === null && decided.some((line) => line.treatment.kind === 'destination'))
    needs(
      'ossRegistered',
      'a distance sale taxed in another member state is declared through the OSS or a local registration',
    );
  if (
    seller.ereportingPeriodicity === null &&
    axes &&
    (axes.ereportingTransaction.state === 'due' || axes.ereportingPayment.state === 'due')
  )
    needs('ereportingPeriodicity', 'an e-reporting obligation is due');
  return missing;
}

export function conclude(
  operation: Operation,
  seller: Seller,
  buyer: Buyer,
  prepared: Prepared,
  threshold: ThresholdPosition | null,
): Concluded {
  if (seller.regime === null) {
    throw refuse(
      'tax_profile_incomplete',
      `Tax profile ${seller.profileId} does not declare its \`regime\` (normal, simplified or franchise en base); nothing is guessed.`,
    );
  }
  const regime = { regime: seller.regime };
  const plan = threshold ? applyThreshold(prepared.plan, seller.place, threshold.position) : prepared.plan;
  const outcomes: LineOutcome[] = plan.lines.map((planned) => {
    const line = operation.lines[planned.index]!;
    if (operation.taxSource === 'service')
      return decideLineTax(planned.treatment, line.rateCategory ?? 'standard', regime, operation.date, planned.index);
    return checkLineTax(
      planned.treatment,
      { vatRate: line.vatRate ?? null, vatCode: line.vatCode!, vatexCode: line.vatexCode ?? null },
      line.rateCategory,
      regime,
      operation.date,
      planned.index,
    );
  });

  const refused = outcomes.flatMap((outcome) => (outcome.kind === 'refused' ? [outcome] : []));
  if (refused.length > 0) {
    // The most specific code first: a regional regime, then an incoherent integration, then a plain value.
    const order = [
      'destination_regional_regime_not_sourced',
      'integration_vat_incoherent',
      'invalid_field_value',
    ] as const;
    const code = order.find((candidate) => refused.some((outcome) => outcome.code === candidate))!;
    const issues = refused.map((outcome) => ({ code: outcome.code, param: outcome.param, message: outcome.message }));
    const first = refused.find((outcome) => outcome.code === code)!;
    throw new ApiError(code, {
      param: first.param,
      values: {
        detail: issues.length === 1 ? first.message : `${first.message} (${issues.length} reasons; see \`issues\`).`,
      },
      issues,
    });
  }

  const unconfirmed = outcomes.flatMap((outcome, index) =>
    outcome.kind === 'unconfirmed' ? [lineIssue('eu_b2c_rate_supplied_mismatch', index, outcome.message)] : [],
  );
  if (unconfirmed.length > 0) {
    return {
      status: 'not_taken',
      lines: plan.lines.map((planned) => decidedLine(operation, planned.index, planned.treatment, null, null)),
      reasons: unconfirmed,
    };
  }

  const decided: DecidedLineTax[] = plan.lines.map((planned, index) => ({
    nature: planned.nature,
    treatment: planned.treatment,
    tax: (outcomes[index] as Extract<LineOutcome, { kind: 'tax' }>).tax,
  }));
  // BR-O-11..14: an invoice with a line not subject to VAT (O) carries nothing else.
  const outside = decided.flatMap((line, index) => (line.tax.vatCode === 'O' ? [index] : []));
  if (outside.length > 0 && outside.length < decided.length) {
    const issues = outside.map((index) =>
      lineIssue(
        operation.taxSource === 'integration' ? 'integration_vat_incoherent' : 'invalid_field_value',
        index,
        `Line ${index} is not subject to VAT (category O), and EN 16931 (BR-O-11 to BR-O-14) allows nothing else beside it on one invoice: decide the other lines separately.`,
      ),
    );
    refuseWithIssues(
      operation.taxSource === 'integration' ? 'integration_vat_incoherent' : 'invalid_field_value',
      issues,
      'Lines not subject to VAT cannot share an invoice with taxed or exempt lines',
    );
  }

  const axes = decideAxes({
    buyerType: buyer.type,
    buyerEstablishment: buyer.billing,
    regime: seller.regime,
    vatOnDebits: seller.vatOnDebits,
    lines: decided,
  });
  const missing = missingDeclarations(seller, decided, axes);
  if (missing.length > 0)
    refuseWithIssues(
      'tax_profile_incomplete',
      missing,
      `Tax profile ${seller.profileId} lacks declarations this decision needs`,
    );

  const { groups, totals } = computeTotals(
    decided.map((line, index) => ({
      netCents: prepared.nets[index]!,
      vatCode: line.tax.vatCode,
      vatRate: line.tax.vatRate,
      vatexCode: line.tax.vatexCode,
    })),
    prepared.adjustments,
  );
  return {
    status: 'final',
    lines: decided.map((line, index) => decidedLine(operation, index, line.treatment, line.tax, prepared.nets[index]!)),
    vatBreakdown: groups.map((group) => ({
      ...group,
      vatRate: group.vatRate === null ? null : displayRate(group.vatRate),
    })),
    totals,
    mentions: decideMentions(decided, seller.vatOnDebits),
    axes,
    operationCategory: operationCategory(decided.map((line) => line.nature)),
  };
}

/** The lines of a decision that could not be taken yet: described, no tax, no amount fixed. */
export function undecidedLines(operation: Operation, prepared: Prepared): DecidedLine[] {
  return prepared.plan.lines.map((planned) => decidedLine(operation, planned.index, planned.treatment, null, null));
}
