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
}

export function paymentPage(facts: PageFacts): string {
  const body = facts.paid
    ? '<p class="state">This invoice is paid. Nothing is due.</p>'
    : `<p class="due">Amount due: <strong>${escape(facts.amountDue)} ${escape(facts.currency)}</strong></p>
      <p class="note">Online card payment opens here once the seller connects a payment provider. Until then, pay by bank transfer with the details printed on the invoice, quoting its number.</p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Invoice ${escape(facts.number)} – ${escape(facts.seller)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#222}h1{font-size:1.4rem}dl{display:grid;grid-template-columns:auto 1fr;gap:.3rem 1rem}dt{color:#666}.due{font-size:1.2rem}.note{color:#555}</style>
</head>
<body>
<h1>Invoice ${escape(facts.number)}</h1>
<dl>
<dt>From</dt><dd>${escape(facts.seller)}</dd>
<dt>Issued</dt><dd>${escape(facts.issueDate ?? '')}</dd>
<dt>Due</dt><dd>${escape(facts.dueDate ?? '')}</dd>
<dt>Total</dt><dd>${escape(facts.total)} ${escape(facts.currency)}</dd>
</dl>
${body}
</body>
</html>
`;
}
