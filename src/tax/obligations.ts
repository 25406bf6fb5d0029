import type { LineTax, MentionCode } from './line-tax.js';
import type { Nature, Treatment } from './treatments.js';
import type { VatTerritory } from './vat-territory.js';

/**
 * The three obligation axes of a decision (shared/API.md) and its legal mentions. Sources:
 * research/eu-vat-domain.md section 6 ("Which French obligation applies", "Legal mentions",
 * "VAT on debits vs on collection") and research/fr-einvoicing-domain.md sections 5 and 7
 * (e-reporting scope, payment data only for services taxed on collection, mentions).
 */

export type AxisState = 'due' | 'not_applicable';
export interface Axis {
  state: AxisState;
  reason: string;
}
export interface Axes {
  einvoicing: Axis;
  ereportingTransaction: Axis;
  ereportingPayment: Axis;
}

export interface DecidedLineTax {
  nature: Nature;
  treatment: Treatment;
  tax: LineTax;
}

export interface AxesInput {
  buyerType: 'company' | 'individual';
  buyerEstablishment: VatTerritory | null;
  regime: 'normal' | 'simplified' | 'franchise';
  vatOnDebits: boolean | null;
  lines: DecidedLineTax[];
}

/** Operations exempt under CGI 261 to 261 E are outside both e-invoicing and e-reporting. */
const exempt261 = (tax: LineTax) => tax.vatCode === 'E' && (tax.vatexCode ?? '').startsWith('VATEX-FR-CGI261');

/** Established in France for e-invoicing: a French territory where French VAT applies (Monaco is an international counterparty). */
export function establishedInFrance(territory: VatTerritory | null): boolean {
  return (
    territory !== null &&
    territory.id !== 'MC' &&
    (territory.frenchVat === 'mainland' || territory.frenchVat === 'corsica' || territory.frenchVat === 'dom')
  );
}

/** Services on which French VAT is charged (not reverse-charged, not exempt): their payments are reported unless the seller opted for debits. */
export const servicesTaxedInFrance = (lines: DecidedLineTax[]) =>
  lines.filter((line) => line.nature !== 'goods' && line.treatment.kind === 'french' && line.tax.vatCode === 'S');

export function decideAxes(input: AxesInput): Axes {
  const allExempt = input.lines.length > 0 && input.lines.every((line) => exempt261(line.tax));
  const na = (reason: string): Axis => ({ state: 'not_applicable', reason });
  const due = (reason: string): Axis => ({ state: 'due', reason });
  if (allExempt)
    return {
      einvoicing: na('exempt_operation'),
      ereportingTransaction: na('exempt_operation'),
      ereportingPayment: na('exempt_operation'),
    };

  const business = input.buyerType === 'company';
  const domesticB2b = business && establishedInFrance(input.buyerEstablishment);
  const einvoicing = domesticB2b
    ? due('domestic_b2b')
    : na(business ? 'buyer_established_outside_france' : 'buyer_not_taxable_person');
  const ereportingTransaction = domesticB2b ? na('einvoicing') : due(business ? 'international_b2b' : 'b2c');

  let ereportingPayment: Axis;
  if (input.regime === 'franchise') ereportingPayment = na('franchise_en_base');
  else if (servicesTaxedInFrance(input.lines).length === 0) ereportingPayment = na('no_services_taxed_in_france');
  else if (input.vatOnDebits) ereportingPayment = na('vat_on_debits');
  else ereportingPayment = due('services_vat_on_collection');
  return { einvoicing, ereportingTransaction, ereportingPayment };
}

export interface Mention {
  code: MentionCode | 'vat_on_debits' | 'operation_category';
  text: string;
  /** The lines the mention is about (indexes in the request). */
  lines: number[];
}

const texts: Record<MentionCode, string> = {
  franchise_en_base: 'TVA non applicable, art. 293 B du CGI',
  reverse_charge: 'Autoliquidation',
  intra_eu_supply: 'Exonération de TVA, article 262 ter I du CGI',
  export: 'Exonération de TVA, article 262 I du CGI',
  outside_scope_services:
    'TVA non applicable, art. 259-1° du CGI (prestation de services dont le lieu est hors de France)',
  outside_scope_electronic_services:
    "TVA non applicable, art. 259 D du CGI (services électroniques à un non-assujetti établi hors de l'Union européenne)",
  guyane_mayotte: 'TVA non applicable, art. 294-1 du CGI',
};

export function decideMentions(lines: DecidedLineTax[], vatOnDebits: boolean | null): Mention[] {
  const mentions: Mention[] = [];
  for (const code of Object.keys(texts) as MentionCode[]) {
    const concerned = lines.flatMap((line, index) => (line.tax.mention === code ? [index] : []));
    if (concerned.length > 0) mentions.push({ code, text: texts[code], lines: concerned });
  }
  const taxedInFrance = lines.flatMap((line, index) =>
    line.treatment.kind === 'french' && line.tax.vatCode === 'S' ? [index] : [],
  );
  if (vatOnDebits && taxedInFrance.length > 0) {
    mentions.push({
      code: 'vat_on_debits',
      text: "Option pour le paiement de la taxe d'après les débits",
      lines: taxedInFrance,
    });
  }
  const goods = lines.some((line) => line.nature === 'goods');
  const services = lines.some((line) => line.nature !== 'goods');
  const category =
    goods && services
      ? 'Opération mixte (livraison de biens et prestation de services)'
      : goods
        ? 'Livraison de biens'
        : 'Prestation de services';
  mentions.push({ code: 'operation_category', text: category, lines: lines.map((_, index) => index) });
  return mentions;
}

/** BT-23's letter: B goods, S services, M mixed (research/fr-einvoicing-domain.md section 5, BR-FR-08). */
export function operationCategory(natures: Nature[]): 'goods' | 'services' | 'mixed' {
  const goods = natures.includes('goods');
  const services = natures.some((nature) => nature !== 'goods');
  return goods && services ? 'mixed' : goods ? 'goods' : 'services';
}
