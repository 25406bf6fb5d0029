import Big from 'big.js';
import { Type, type Static } from 'typebox';
import { refuse } from './errors.js';
import { lineNetCents } from './money.js';

/**
 * Line allowances and charges (EN 16931 BG-27 / BG-28): a discount or a charge on one line, an
 * amount or a percentage of the line's gross amount (quantity x unit price), with a reason text
 * (BT-139 / BT-144) or a code (BT-140 UNTDID 5189 / BT-145 UNTDID 7161). The line net (BT-131) is
 * the gross amount less the allowances plus the charges. Shared by the documents and the tax
 * decisions, which must compute the same net for a line.
 */

export const maxAdjustmentsPerLine = 10;

/** UNTDID 5189, the allowance reasons EN 16931 allows (BR-CL-19). */
export const allowanceReasonCodes = [
  '41',
  '42',
  '60',
  '62',
  '63',
  '64',
  '65',
  '66',
  '67',
  '68',
  '70',
  '71',
  '88',
  '95',
  '100',
  '102',
  '103',
  '104',
  '105',
] as const;

export const lineAdjustmentInput = Type.Object(
  {
    amount: Type.Optional(
      Type.Integer({ description: 'Cents, a positive integer (BT-136 / BT-141). Give `amount` or `percentage`.' }),
    ),
    percentage: Type.Optional(
      Type.String({
        maxLength: 10,
        description:
          'A percentage of the line gross amount, quantity x unit price ("10", "2.5"), above 0 and at most 100 (BT-138 / BT-143).',
      }),
    ),
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, description: 'BT-139 / BT-144.' })),
    reasonCode: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 3,
        description: 'UNTDID 5189 for an allowance ("95" discount), UNTDID 7161 for a charge ("FC" freight).',
      }),
    ),
  },
  { additionalProperties: false },
);

export const lineAdjustmentsField = (what: string) =>
  Type.Array(lineAdjustmentInput, { maxItems: maxAdjustmentsPerLine, description: what });

export type LineAdjustmentInput = Static<typeof lineAdjustmentInput>;

/** An allowance or charge as stored and shown: `amount` in cents, resolved from the percentage if any. */
export interface LineAdjustment {
  amount: number;
  /** The percentage given, and the gross amount (cents) it applied to; both null for a fixed amount. */
  percentage: string | null;
  baseAmount: number | null;
  reason: string | null;
  reasonCode: string | null;
}

/** An allowance or charge as the line states it again (a generated invoice's own tax decision): its percentage, else its amount. */
export function adjustmentInputOf(adjustment: LineAdjustment): LineAdjustmentInput {
  return {
    ...(adjustment.percentage !== null ? { percentage: adjustment.percentage } : { amount: adjustment.amount }),
    ...(adjustment.reason !== null ? { reason: adjustment.reason } : {}),
    ...(adjustment.reasonCode !== null ? { reasonCode: adjustment.reasonCode } : {}),
  };
}

const percentagePattern = /^\d{1,3}(\.\d{1,2})?$/;

function resolveAdjustment(
  input: LineAdjustmentInput,
  kind: 'allowance' | 'charge',
  gross: number,
  at: string,
): LineAdjustment {
  const given = (input.amount !== undefined ? 1 : 0) + (input.percentage !== undefined ? 1 : 0);
  if (given !== 1)
    throw refuse('validation_error', `\`${at}\` gives either \`amount\` (cents) or \`percentage\`, exactly one.`, {
      param: at,
    });
  const reason = input.reason?.trim() || null;
  const reasonCode = input.reasonCode ?? null;
  if (reason === null && reasonCode === null)
    throw refuse(
      'validation_error',
      `\`${at}\` states its reason: \`reason\`, \`reasonCode\` or both (BR-42, BR-44).`,
      {
        param: `${at}.reason`,
      },
    );
  if (reasonCode !== null) {
    const valid =
      kind === 'allowance'
        ? (allowanceReasonCodes as readonly string[]).includes(reasonCode)
        : /^[A-Z]{1,3}$/.test(reasonCode);
    if (!valid)
      throw refuse(
        'validation_error',
        kind === 'allowance'
          ? `\`${at}.reasonCode\` is an UNTDID 5189 allowance reason (${allowanceReasonCodes.join(', ')}).`
          : `\`${at}.reasonCode\` is an UNTDID 7161 charge reason, upper-case letters ("FC", "ABL").`,
        { param: `${at}.reasonCode` },
      );
  }
  if (input.amount !== undefined) {
    if (!Number.isSafeInteger(input.amount) || input.amount <= 0)
      throw refuse('validation_error', `\`${at}.amount\` is a positive integer of cents.`, { param: `${at}.amount` });
    return { amount: input.amount, percentage: null, baseAmount: null, reason, reasonCode };
  }
  const percentage = input.percentage!;
  if (!percentagePattern.test(percentage) || new Big(percentage).lte(0) || new Big(percentage).gt(100))
    throw refuse(
      'validation_error',
      `\`${at}.percentage\` is a decimal string above 0 and at most 100, with at most 2 decimals ("10", "2.5").`,
      { param: `${at}.percentage` },
    );
  const amount = Number(new Big(gross).times(percentage).div(100).round(0, Big.roundHalfUp).toFixed(0));
  return { amount, percentage, baseAmount: gross, reason, reasonCode };
}

/** A line's figures: its gross amount, allowances, charges and net (BT-131), all in cents. */
export interface LineFigures {
  allowances: LineAdjustment[];
  charges: LineAdjustment[];
  netAmount: number;
}

/**
 * The net of a line from its quantity, unit price, allowances and charges. Refuses
 * (`validation_error`) an allowance or charge that is malformed, and allowances larger than the line.
 */
export function lineFigures(
  quantity: string,
  unitPrice: string,
  adjustments: { allowances?: LineAdjustmentInput[]; charges?: LineAdjustmentInput[] },
  at: string,
): LineFigures {
  const gross = lineNetCents(quantity, unitPrice);
  const allowances = (adjustments.allowances ?? []).map((input, index) =>
    resolveAdjustment(input, 'allowance', gross, `${at}.allowances[${index}]`),
  );
  const charges = (adjustments.charges ?? []).map((input, index) =>
    resolveAdjustment(input, 'charge', gross, `${at}.charges[${index}]`),
  );
  const netAmount = gross - sumOf(allowances) + sumOf(charges);
  if (netAmount < 0)
    throw refuse(
      'validation_error',
      `The allowances of \`${at}\` (${sumOf(allowances)} cents) exceed the line (${gross} cents, plus its charges).`,
      { param: `${at}.allowances` },
    );
  return { allowances, charges, netAmount };
}

export function sumOf(adjustments: readonly { amount: number }[]): number {
  return adjustments.reduce((sum, adjustment) => sum + adjustment.amount, 0);
}
