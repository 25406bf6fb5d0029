/**
 * Where a consumer of electronic services is, from typed items of evidence (Implementing
 * Regulation 282/2011, research/eu-vat-domain.md section 4):
 * - Art. 24b(d): two items of non-contradictory evidence from the Art. 24f list (a)-(f);
 * - Art. 24b second paragraph (the EUR 100,000 relief): one item provided by a person involved in
 *   the supply other than the supplier, of types (a)-(e) (`other` does not qualify), while the
 *   relief holds (the ledger establishes it);
 * - contradicting items: never decided silently.
 * The billing address of the customer is item (a), held by the supplier.
 */

export const evidenceTypes = ['billing_address', 'ip_address', 'bank', 'sim_mcc', 'fixed_line', 'other'] as const;
export type EvidenceType = (typeof evidenceTypes)[number];
export type EvidenceProvider = 'supplier' | 'third_party';

export interface EvidenceItem {
  type: EvidenceType;
  /** ISO 3166-1 alpha-2. */
  country: string;
  providedBy: EvidenceProvider;
}

export type LocationFinding =
  | { kind: 'none' }
  | { kind: 'contradiction'; countries: string[] }
  /** Two or more agreeing items (Art. 24b(d)). */
  | { kind: 'established'; country: string; items: number }
  /** A single third-party item of types (a)-(e): enough only under the relief. */
  | { kind: 'needs_relief'; country: string }
  /** A single item that cannot stand alone (supplier-held, or `other`). */
  | { kind: 'insufficient'; country: string };

/** `items` are the request's evidence (their index is their position) plus, last, the billing address when it is not already listed. */
export function locateConsumer(items: EvidenceItem[]): LocationFinding {
  if (items.length === 0) return { kind: 'none' };
  const countries = [...new Set(items.map((item) => item.country))];
  if (countries.length > 1) return { kind: 'contradiction', countries };
  const country = countries[0]!;
  if (items.length >= 2) return { kind: 'established', country, items: items.length };
  const only = items[0]!;
  if (only.providedBy === 'third_party' && only.type !== 'other') return { kind: 'needs_relief', country };
  return { kind: 'insufficient', country };
}
