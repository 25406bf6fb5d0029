import Big from 'big.js';
import {
  noDocumentAdjustments,
  splitDocumentAdjustments,
  type DocumentAdjustments,
} from '../kernel/document-adjustments.js';

/**
 * Amounts of a decision, in exact decimals (big.js, never floats), following the EN 16931
 * "add, then apply" model of research/eu-vat-domain.md section 7:
 *   BT-131 line net = round2(quantity x unit price), half-up on magnitudes, less the line's
 *   allowances plus its charges (BG-27 / BG-28);
 *   BT-116 per (category, rate) = sum of its line nets less its share of the document allowances
 *   plus its share of the document charges (BG-20 / BG-21, split by line nets, BR-S-08);
 *   BT-117 = round2(BT-116 x rate / 100), once per group; BT-106 = sum BT-131 (BR-CO-10);
 *   BT-109 = BT-106 - BT-107 + BT-108 (BR-CO-11/12/13); BT-110 = sum BT-117 (BR-CO-14);
 *   BT-112 = BT-109 + BT-110 (BR-CO-15); nothing prepaid, no rounding amount, so BT-115 = BT-112
 *   (BR-CO-16); BR-CO-17 holds by construction of BT-117.
 * Results are integer cents (the API's money), which keeps every amount at two decimals (BR-DEC).
 */

/** The largest document total the API returns: integer cents must stay exact in JSON (2^53). */
export const maxTotalCents = 1_000_000_000_000_000; // 10^13 euros

/** BT-117 of one group: round2(base x rate / 100) in euros, i.e. round0(cents x rate / 100) in cents. */
export function groupVatCents(baseCents: number, rate: string | null): number {
  if (rate === null) return 0;
  return Number(new Big(baseCents).times(rate).div(100).round(0, Big.roundHalfUp).toFixed(0));
}

export interface AmountLine {
  netCents: number;
  vatCode: string;
  /** Null for category O (BR-O-05: no rate). */
  vatRate: string | null;
  vatexCode: string | null;
}

export interface VatGroup {
  vatCode: string;
  vatRate: string | null;
  vatexCode: string | null;
  /** BT-116, cents. */
  taxableAmount: number;
  /** BT-117, cents. */
  taxAmount: number;
}

export interface Totals {
  /** BT-109: sum of line nets (BT-106) less the document allowances plus its charges, cents. */
  net: number;
  /** BT-110, cents. */
  vat: number;
  /** BT-112, cents. */
  gross: number;
  /** BT-115, cents. */
  due: number;
}

/**
 * Groups by (category, rate, exemption code), one BT-117 per group, then the document totals. The
 * document's allowances and charges (BG-20 / BG-21) are split over the groups by their line nets:
 * a group's base (BT-116) is its line nets less its allowances plus its charges, and BT-109 the
 * sum of the bases.
 */
export function computeTotals(
  lines: AmountLine[],
  adjustments: DocumentAdjustments = noDocumentAdjustments,
): { groups: VatGroup[]; totals: Totals } {
  const groups = new Map<string, VatGroup>();
  for (const line of lines) {
    const key = `${line.vatCode}|${line.vatRate ?? ''}|${line.vatexCode ?? ''}`;
    const group = groups.get(key) ?? {
      vatCode: line.vatCode,
      vatRate: line.vatRate,
      vatexCode: line.vatexCode,
      taxableAmount: 0,
      taxAmount: 0,
    };
    group.taxableAmount += line.netCents;
    groups.set(key, group);
  }
  const list = [...groups.values()];
  const parts = splitDocumentAdjustments(
    list.map((group) => ({ key: group, base: group.taxableAmount })),
    adjustments,
  );
  for (const part of parts) part.key.taxableAmount += part.charge ? part.amount : -part.amount;
  for (const group of list)
    group.taxAmount = group.vatCode === 'S' ? groupVatCents(group.taxableAmount, group.vatRate) : 0;
  const net = list.reduce((sum, group) => sum + group.taxableAmount, 0);
  const vat = list.reduce((sum, group) => sum + group.taxAmount, 0);
  return { groups: list, totals: { net, vat, gross: net + vat, due: net + vat } };
}
