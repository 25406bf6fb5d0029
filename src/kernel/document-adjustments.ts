import Big from 'big.js';
import { Type, type Static } from 'typebox';
import { refuse } from './errors.js';
import { allowanceReasonCodes, maxAdjustmentsPerLine } from './line-adjustments.js';

/**
 * Document-level allowances and charges (EN 16931 BG-20 / BG-21): an amount off or onto the whole
 * document, with a reason text (BT-97 / BT-104) or code (BT-98 UNTDID 5189 / BT-105 UNTDID 7161).
 * EN 16931 gives each one a VAT category and rate (BT-95 / BT-102); the client states none: each is
 * split over the document's VAT groups in proportion to their line nets, so that a discount on a
 * document at two rates lowers both bases (BR-S-08: a group's base is its line nets less its
 * allowances plus its charges). The tax decision and the document split the same way, here.
 */

export const documentAdjustmentInput = Type.Object(
  {
    amount: Type.Integer({ description: 'Cents, a positive integer (BT-92 / BT-99).' }),
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, description: 'BT-97 / BT-104.' })),
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

export const documentAdjustmentsField = (what: string) =>
  Type.Array(documentAdjustmentInput, { maxItems: maxAdjustmentsPerLine, description: what });

export type DocumentAdjustmentInput = Static<typeof documentAdjustmentInput>;

/** As stored on a document: the amount and reason given, before any split. */
export interface DocumentAdjustment {
  amount: number;
  reason: string | null;
  reasonCode: string | null;
}

export interface DocumentAdjustments {
  allowances: DocumentAdjustment[];
  charges: DocumentAdjustment[];
}

export const noDocumentAdjustments: DocumentAdjustments = { allowances: [], charges: [] };

/** Checks document allowances or charges (`validation_error`, `param` the entry) and keeps them. */
export function resolveDocumentAdjustments(
  inputs: DocumentAdjustmentInput[] | undefined,
  kind: 'allowance' | 'charge',
  field: string,
): DocumentAdjustment[] {
  return (inputs ?? []).map((input, index) => {
    const at = `${field}[${index}]`;
    if (!Number.isSafeInteger(input.amount) || input.amount <= 0)
      throw refuse('validation_error', `\`${at}.amount\` is a positive integer of cents.`, { param: `${at}.amount` });
    const reason = input.reason?.trim() || null;
    const reasonCode = input.reasonCode ?? null;
    if (reason === null && reasonCode === null)
      throw refuse(
        'validation_error',
        `\`${at}\` states its reason: \`reason\`, \`reasonCode\` or both (BR-33, BR-38).`,
        { param: `${at}.reason` },
      );
    const codeValid =
      reasonCode === null ||
      (kind === 'allowance'
        ? (allowanceReasonCodes as readonly string[]).includes(reasonCode)
        : /^[A-Z]{1,3}$/.test(reasonCode));
    if (!codeValid)
      throw refuse(
        'validation_error',
        kind === 'allowance'
          ? `\`${at}.reasonCode\` is an UNTDID 5189 allowance reason (${allowanceReasonCodes.join(', ')}).`
          : `\`${at}.reasonCode\` is an UNTDID 7161 charge reason, upper-case letters ("FC", "ABL").`,
        { param: `${at}.reasonCode` },
      );
    return { amount: input.amount, reason, reasonCode };
  });
}

const sum = (entries: readonly { amount: number }[]) => entries.reduce((total, entry) => total + entry.amount, 0);

/** BT-107 / BT-108 and the net the VAT applies to (BT-109 = BT-106 - BT-107 + BT-108), in cents. */
export function documentNet(lineTotal: number, adjustments: DocumentAdjustments): number {
  return lineTotal - sum(adjustments.allowances) + sum(adjustments.charges);
}

/** Refuses allowances larger than the lines and charges (`validation_error` on `allowances`). */
export function checkDocumentNet(lineTotal: number, adjustments: DocumentAdjustments, field = 'allowances'): void {
  if (documentNet(lineTotal, adjustments) < 0)
    throw refuse(
      'validation_error',
      `The document's allowances (${sum(adjustments.allowances)} cents) exceed its lines (${lineTotal} cents) and charges.`,
      { param: field },
    );
}

/** A VAT group as the split sees it: its key and its line nets (cents). */
export interface GroupBase<Key> {
  key: Key;
  base: number;
}

/** One allowance or charge once split: the part that falls on one VAT group. */
export interface SplitAdjustment<Key> extends DocumentAdjustment {
  charge: boolean;
  key: Key;
}

/**
 * Each allowance and charge split over the groups in proportion to their bases, in whole cents
 * (largest remainder, ties to the first group), so the parts add up to the amount exactly. Parts
 * of zero are left out; with no base at all, everything falls on the first group.
 */
export function splitDocumentAdjustments<Key>(
  groups: readonly GroupBase<Key>[],
  adjustments: DocumentAdjustments,
): SplitAdjustment<Key>[] {
  if (groups.length === 0) return [];
  const total = groups.reduce((acc, group) => acc + group.base, 0);
  const split = (entry: DocumentAdjustment, charge: boolean): SplitAdjustment<Key>[] => {
    if (total === 0) return [{ ...entry, charge, key: groups[0]!.key }];
    const exact = groups.map((group) => new Big(entry.amount).times(group.base).div(total));
    const parts = exact.map((value) => Number(value.round(0, Big.roundDown).toFixed(0)));
    let left = entry.amount - parts.reduce((acc, part) => acc + part, 0);
    const order = exact
      .map((value, index) => ({ index, fraction: value.minus(parts[index]!) }))
      .sort((a, b) => b.fraction.cmp(a.fraction) || a.index - b.index);
    for (const { index } of order) {
      if (left === 0) break;
      parts[index]! += 1;
      left -= 1;
    }
    return parts.flatMap((amount, index) =>
      amount > 0 ? [{ ...entry, amount, charge, key: groups[index]!.key }] : [],
    );
  };
  return [
    ...adjustments.allowances.flatMap((entry) => split(entry, false)),
    ...adjustments.charges.flatMap((entry) => split(entry, true)),
  ];
}
