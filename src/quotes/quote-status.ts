import { refuse } from '../kernel/errors.js';

/**
 * The life of a quote, as a table (the contract lists the events; the moves are ours):
 *
 *   draft                        finalize   finalized   (numbered in the quote series; no event: the contract has no `quote.finalized`)
 *   finalized, sent              send       sent        quote.sent
 *   finalized, sent              accept     accepted    quote.accepted
 *   finalized, sent              refuse     refused     quote.refused
 *   finalized, sent              expire     expired     quote.expired    (the validity date passed; by the scheduler)
 *   finalized, sent, accepted    convert    converted   quote.converted  (a draft invoice is created: invoice.created)
 *
 * Everything else is `invalid_status_transition`. Pure.
 */

export const quoteStatuses = ['draft', 'finalized', 'sent', 'accepted', 'refused', 'expired', 'converted'] as const;
export type QuoteStatus = (typeof quoteStatuses)[number];
export type QuoteAction = 'finalize' | 'send' | 'accept' | 'refuse' | 'expire' | 'convert';

export const quoteMoves: Record<QuoteAction, { from: readonly QuoteStatus[]; to: QuoteStatus; event: string | null }> =
  {
    finalize: { from: ['draft'], to: 'finalized', event: null },
    send: { from: ['finalized', 'sent'], to: 'sent', event: 'quote.sent' },
    accept: { from: ['finalized', 'sent'], to: 'accepted', event: 'quote.accepted' },
    refuse: { from: ['finalized', 'sent'], to: 'refused', event: 'quote.refused' },
    expire: { from: ['finalized', 'sent'], to: 'expired', event: 'quote.expired' },
    convert: { from: ['finalized', 'sent', 'accepted'], to: 'converted', event: 'quote.converted' },
  };

export function quoteMove(
  id: string,
  status: QuoteStatus,
  action: QuoteAction,
): { to: QuoteStatus; event: string | null } {
  const move = quoteMoves[action];
  if (!move.from.includes(status)) {
    throw refuse(
      'invalid_status_transition',
      `Quote ${id} is ${status}: it cannot be ${action === 'send' ? 'sent' : `${action}${action.endsWith('e') ? 'd' : 'ed'}`} (only a ${move.from.join(', ')} quote can).`,
      { param: 'id' },
    );
  }
  return { to: move.to, event: move.event };
}

/** A quote acted upon after its validity date (before the expiry pass marked it) is refused. */
export function checkStillValid(id: string, validUntil: string | null, today: string): void {
  if (validUntil !== null && validUntil < today) {
    throw refuse('invalid_status_transition', `Quote ${id} expired on ${validUntil}: issue a new quote.`, {
      param: 'id',
    });
  }
}
