import { html, type Html } from '../http/html.js';
import { euros } from '../kernel/money.js';
import type { QuoteView } from '../quotes/service.js';

/** The public page of a quote, server-rendered, no script. Pure. */

const states: Record<string, string> = {
  finalized: 'This quote is ready and not sent yet.',
  sent: 'This quote awaits your answer: reply to the seller to accept or refuse it.',
  accepted: 'This quote was accepted.',
  refused: 'This quote was refused.',
  expired: 'This quote has expired.',
  converted: 'This quote was accepted and invoiced.',
};

export function quotePage({ seller, quote }: QuoteView): string {
  const rows: Html[] = quote.lines.map(
    (line) =>
      html`<tr><td>${line.description}</td><td class="n">${line.quantity}</td><td class="n">${line.unitPrice}</td><td class="n">${euros(line.netAmount)}</td></tr>`,
  );
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Quote ${quote.number ?? ''} – ${seller}</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#222}h1{font-size:1.4rem}dl{display:grid;grid-template-columns:auto 1fr;gap:.3rem 1rem}dt{color:#666}table{width:100%;border-collapse:collapse;margin:1rem 0}td,th{padding:.3rem;border-bottom:1px solid #ddd;text-align:left}.n{text-align:right}.state{font-size:1.1rem}</style>
</head>
<body>
<h1>Quote ${quote.number ?? ''}</h1>
<dl>
<dt>From</dt><dd>${seller}</dd>
<dt>Issued</dt><dd>${quote.issueDate ?? ''}</dd>
<dt>Valid until</dt><dd>${quote.validUntil ?? ''}</dd>
</dl>
<table>
<thead><tr><th>Description</th><th class="n">Quantity</th><th class="n">Unit price</th><th class="n">Net (${quote.currency})</th></tr></thead>
<tbody>${rows}</tbody>
<tfoot><tr><th colspan="3">Total excluding VAT</th><th class="n">${euros(quote.subtotal)}</th></tr></tfoot>
</table>
<p class="state">${states[quote.status] ?? ''}</p>
</body>
</html>
`;
  return page.toString();
}
