/**
 * The payment statement (status 212, "Encaissée") a seller owes for a payment on a domestic B2B
 * e-invoice whose VAT is due on collection (services without the debit option: XP Z12-014
 * Annex B; research/fr-einvoicing-domain.md). The payment's `fr212` object says where it stands.
 * Pure: the facts of the invoice in, the statement out.
 */
import type { InvoiceCollectionFacts } from '../invoices/service.js';

/** The contract's `fr212` object. */
export type Fr212 = {
  /**
   * `awaiting_deposit`: the invoice is not on the platform yet; `pending`: the statement is due
   * (with the platform's code while it fails); `sent`: the platform took it (`sentAt`).
   */
  state: 'awaiting_deposit' | 'pending' | 'sent';
  sentAt: string | null;
  /** `awaiting_pa_deposit`, `pa_lifecycle_not_ready`, or the platform's code of the last failed attempt. */
  lastErrorCode: string | null;
  lastErrorReason?: string;
  updatedAt: string;
};

/** The two waits on the invoice (the pass that moves statements); any other code is the platform's. */
export const invoiceWaits: readonly string[] = ['awaiting_pa_deposit', 'pa_lifecycle_not_ready'];

/** A statement that failed at the platform is tried again this long after its last attempt. */
export const statementRetryMs = 5 * 60_000;

/** The platform took the statement. */
export function sentFr212(now: Date): Fr212 {
  const at = now.toISOString();
  return { state: 'sent', sentAt: at, lastErrorCode: null, updatedAt: at };
}

/** An attempt the platform did not take: the statement stays due, with its words. */
export function failedAttemptFr212(code: string, reason: string, now: Date): Fr212 {
  return { state: 'pending', sentAt: null, lastErrorCode: code, lastErrorReason: reason, updatedAt: now.toISOString() };
}

/** A pending statement is sent now: never tried, or its last failure is `statementRetryMs` old. */
export function statementSendable(fr212: Fr212, now: Date): boolean {
  if (fr212.state !== 'pending' || fr212.sentAt !== null) return false;
  if (fr212.lastErrorCode === null) return true;
  if (invoiceWaits.includes(fr212.lastErrorCode)) return false;
  return now.getTime() - Date.parse(fr212.updatedAt) >= statementRetryMs;
}

/** A statement is owed: the invoice goes through e-invoicing and its payments are reported. */
export function statementOwed(facts: Pick<InvoiceCollectionFacts, 'einvoicing' | 'ereportingPayment'>): boolean {
  return facts.einvoicing === 'due' && facts.ereportingPayment === 'due';
}

const notDepositedYet = new Set(['not_applicable', 'pending', 'sending']);

/** The `fr212` of a payment recorded now on this invoice, or null when no statement is owed. */
export function initialFr212(facts: InvoiceCollectionFacts, now: Date): Fr212 | null {
  if (!statementOwed(facts)) return null;
  const updatedAt = now.toISOString();
  if (notDepositedYet.has(facts.transmissionStatus))
    return {
      state: 'awaiting_deposit',
      sentAt: null,
      lastErrorCode: 'awaiting_pa_deposit',
      lastErrorReason:
        'The invoice is not deposited on the platform yet: the payment statement (212) waits for its deposit.',
      updatedAt,
    };
  if (facts.transmissionStatus === 'rejected' || facts.transmissionDetail === 'refused')
    return {
      state: 'pending',
      sentAt: null,
      lastErrorCode: 'pa_lifecycle_not_ready',
      lastErrorReason: `The invoice was ${facts.transmissionStatus === 'rejected' ? 'rejected by the platform' : 'refused by the buyer'}: its life cycle does not take a payment statement (212) until it is deposited again.`,
      updatedAt,
    };
  return { state: 'pending', sentAt: null, lastErrorCode: null, updatedAt };
}

/**
 * The amount collected per VAT rate (BR-FR-CDV-14: one MEN amount per rate), tax included:
 * the payment split in proportion to each rate's total on the invoice, in cents that add up to
 * the payment exactly (the cents left by rounding down go to the largest remainders). A refund
 * (negative amount) splits the same way, every share negative.
 */
export function collectedByRate(
  amount: number,
  breakdown: InvoiceCollectionFacts['vatBreakdown'],
): { vatRate: string; amount: number }[] {
  const totals = new Map<string, number>();
  for (const group of breakdown) {
    const rate = group.vatRate ?? '0';
    totals.set(rate, (totals.get(rate) ?? 0) + group.taxableAmount + group.taxAmount);
  }
  const whole = [...totals.values()].reduce((sum, total) => sum + total, 0);
  if (whole <= 0) return [{ vatRate: '0', amount }];
  const sign = amount < 0 ? -1 : 1;
  const magnitude = Math.abs(amount);
  const shares = [...totals].map(([vatRate, total], index) => {
    const exact = (magnitude * total) / whole;
    return { vatRate, index, cents: Math.floor(exact), remainder: exact - Math.floor(exact) };
  });
  let left = magnitude - shares.reduce((sum, share) => sum + share.cents, 0);
  for (const share of [...shares].sort((a, b) => b.remainder - a.remainder || a.index - b.index)) {
    if (left === 0) break;
    share.cents += 1;
    left -= 1;
  }
  return shares.map((share) => ({ vatRate: share.vatRate, amount: share.cents === 0 ? 0 : sign * share.cents }));
}

/**
 * The statement of a payment recorded earlier, once its invoice moved (deposited, rejected,
 * deposited again): the new `fr212`, or null when nothing changed. A statement sent stays sent.
 */
export function nextFr212(current: Fr212, facts: InvoiceCollectionFacts, now: Date): Fr212 | null {
  // Sent, or failing at the platform: the sender's to handle, not the invoice's.
  if (current.sentAt !== null || (current.lastErrorCode !== null && !invoiceWaits.includes(current.lastErrorCode)))
    return null;
  const next = initialFr212(facts, now);
  if (!next || (next.state === current.state && next.lastErrorCode === current.lastErrorCode)) return null;
  return next;
}

/** The contract's obligation object for a payment's statement (`payment.obligation_updated`). */
export function statementObligation(fr212: Fr212) {
  if (fr212.state === 'sent')
    return { state: 'fulfilled', reasonCode: null, reasonSource: null, owner: null, action: null, nextAttemptAt: null };
  const waiting = { state: 'waiting', reasonCode: fr212.lastErrorCode, nextAttemptAt: null };
  if (fr212.lastErrorCode === 'awaiting_pa_deposit')
    // The invoice's deposit comes first: the client sends it, then the service follows.
    return { ...waiting, reasonSource: 'service', owner: 'client', action: 'send' };
  if (fr212.lastErrorCode === 'pa_lifecycle_not_ready')
    return { ...waiting, reasonSource: 'platform', owner: 'client', action: 'resubmit' };
  if (fr212.lastErrorCode !== null)
    return {
      ...waiting,
      reasonSource: 'platform',
      owner: 'service',
      action: 'retry',
      nextAttemptAt: new Date(Date.parse(fr212.updatedAt) + statementRetryMs).toISOString(),
    };
  return { ...waiting, reasonSource: null, owner: 'service', action: null };
}
