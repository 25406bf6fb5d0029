/**
 * The e-invoice syntax a platform deposit carries: `cii`, the Factur-X (the readable PDF with its
 * CII inside), or `ubl`, UBL 2.1. A buyer may state its own (the customer's `einvoiceSyntax`); an
 * establishment has a default for buyers that state none.
 */
export const einvoiceSyntaxes = ['cii', 'ubl'] as const;
export type EinvoiceSyntax = (typeof einvoiceSyntaxes)[number];
