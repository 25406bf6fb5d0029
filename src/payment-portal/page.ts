import { escapeHtml as escape } from '../http/html.js';

/** The public payment page of a live invoice, server-rendered, no script. Pure. */

export interface PageFacts {
  seller: string;
  number: string;
  issueDate: string | null;
  dueDate: string | null;
  total: string;
  amountDue: string;
  currency: string;
  paid: boolean;
  /** The seller connected a card payment provider: the page offers to pay the amount due by card. */
  card: boolean;
  /** Where the card form posts (`/pay/:token/checkout`). */
  checkoutPath: string;
  /** Back from Stripe (`?checkout=`), or the provider not answering: a line above the amount. */
  message: 'success' | 'cancelled' | 'unavailable' | null;
}

const messages = {
  success:
    'Thank you: your card payment is being confirmed. This page shows the invoice paid once the payment provider has told the seller.',
  cancelled: 'The card payment was cancelled; nothing was charged.',
  unavailable: 'Card payment is unavailable right now; retry in a few minutes, or pay by bank transfer.',
} as const;

export function paymentPage(facts: PageFacts): string {
  const body = facts.paid
    ? '<p class="state">This invoice is paid. Nothing is due.</p>'
    : `<p class="due">Amount due: <strong>${escape(facts.amountDue)} ${escape(facts.currency)}</strong></p>
      ${
        facts.card
          ? `<form method="post" action="${escape(facts.checkoutPath)}"><button type="submit">Pay ${escape(facts.amountDue)} ${escape(facts.currency)} by card</button></form>
      <p class="note">Or pay by bank transfer with the details printed on the invoice, quoting its number.</p>`
          : '<p class="note">Online card payment opens here once the seller connects a payment provider. Until then, pay by bank transfer with the details printed on the invoice, quoting its number.</p>'
      }`;
  const notice = facts.message ? `<p class="notice" role="status">${escape(messages[facts.message])}</p>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Invoice ${escape(facts.number)} – ${escape(facts.seller)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#222}h1{font-size:1.4rem}dl{display:grid;grid-template-columns:auto 1fr;gap:.3rem 1rem}dt{color:#666}.due{font-size:1.2rem}.note{color:#555}.notice{background:#eef6ee;padding:.5rem .8rem}button{font-size:1.1rem;padding:.5rem 1rem}</style>
</head>
<body>
<h1>Invoice ${escape(facts.number)}</h1>
<dl>
<dt>From</dt><dd>${escape(facts.seller)}</dd>
<dt>Issued</dt><dd>${escape(facts.issueDate ?? '')}</dd>
<dt>Due</dt><dd>${escape(facts.dueDate ?? '')}</dd>
<dt>Total</dt><dd>${escape(facts.total)} ${escape(facts.currency)}</dd>
</dl>
${notice}
${body}
</body>
</html>
`;
}
