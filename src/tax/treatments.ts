import { ApiError, refuse, type Issue } from '../kernel/errors.js';
import { evidenceTerritory, type Buyer } from './buyer.js';
import { locateConsumer, type EvidenceItem } from './location-evidence.js';
import type { FrenchRateArea } from './rates.js';
import { isEuMemberState, type VatTerritory } from './vat-territory.js';

/**
 * Where each line is taxed and how (the place of supply), before any rate. Pure. Sources, all in
 * research/eu-vat-domain.md: section 2 (territories; goods to the DOM, Guyane and Mayotte are
 * exports, CGI art. 294; B2B services to a DOM customer are taxed at the DOM rate, to a Guyane or
 * Mayotte customer not at all, BOI-TVA-GEO-20-40), section 3 (EU B2C distance sales and electronic
 * services: the EUR 10,000 threshold), section 4 (location evidence), section 6 (reverse charge
 * for B2B services, CGI 259-1 and Art. 196; intra-EU supply of goods, 262 ter I, only with the
 * buyer's VAT number of another member state; exports, 262 I), section 5 (category O for B2B
 * services outside the EU).
 *
 * Assumptions written down where the research is silent (the README lists them):
 * - goods are dispatched from the seller's establishment (the place of supply of goods);
 * - a business buyer of another member state is a taxable person only with a VAT number of that
 *   state; without one the operation follows the consumer rules (as the research says for goods);
 * - B2C services other than electronic ones are taxed where the supplier is (the general rule).
 */

export type Nature = 'goods' | 'services' | 'electronic_service';

export type Treatment =
  /** French VAT, at the rates of an area; `origin`: an EU B2C supply taxed in France under the threshold. */
  | { kind: 'french'; area: FrenchRateArea; place: string; origin: boolean }
  | { kind: 'intra_eu_supply'; place: string }
  | { kind: 'reverse_charge'; place: string }
  | { kind: 'export'; place: string }
  | { kind: 'outside_scope'; place: string; basis: 'services_abroad' | 'electronic_services_abroad' | 'guyane_mayotte' }
  /** EU B2C distance sale of goods or electronic service to another member state: the ledger decides. */
  | { kind: 'eu_b2c'; destination: VatTerritory; goods: boolean }
  /** Taxed at the destination (the ledger said so). */
  | { kind: 'destination'; destination: VatTerritory; goods: boolean };

export interface SellerPlace {
  territory: VatTerritory;
  area: FrenchRateArea;
}

export interface PlannedLine {
  index: number;
  nature: Nature;
  treatment: Treatment;
}

export interface Plan {
  lines: PlannedLine[];
  /** Where the consumer of electronic services is, and how it was established. */
  location: { country: string; territory: string; basis: 'address' | 'evidence' | 'relief' } | null;
  /** The single third-party item needs the EUR 100,000 relief (the ledger decides). */
  needsRelief: boolean;
  /** Why the location is not established (a suspended decision), or null. */
  locationPending: Issue | null;
}

type Zone = 'metro' | 'dom' | 'guyane_mayotte' | 'eu' | 'third';

/** Metro: mainland, Corsica, Monaco (Art. 7: treated as France). */
export function zoneOf(territory: VatTerritory, nature: Nature): Zone {
  if (territory.frenchVat === 'mainland' || territory.frenchVat === 'corsica') return 'metro';
  if (territory.frenchVat === 'dom') return 'dom';
  if (territory.frenchVat === 'suspended') return 'guyane_mayotte';
  const inside = nature === 'goods' ? territory.euVatArea.goods : territory.euVatArea.services;
  return inside ? 'eu' : 'third';
}

const areaOf = (territory: VatTerritory): FrenchRateArea =>
  territory.frenchVat === 'corsica' ? 'corsica' : territory.frenchVat === 'dom' ? 'dom' : 'mainland';

/** The member state a VAT number prefix belongs to must be the buyer's: `EL` for Greece, `XI` for Northern Ireland goods. */
function hasVatNumberOf(buyer: Buyer, territory: VatTerritory): boolean {
  if (!buyer.vatNumber || !buyer.vatCountry) return false;
  if (territory.id === 'GB-NIR') return buyer.vatNumber.startsWith('XI');
  return buyer.vatCountry === territory.id.slice(0, 2) && isEuMemberState(buyer.vatCountry);
}

function need(territory: VatTerritory | null, param: string, what: string): VatTerritory {
  if (!territory)
    throw new ApiError('missing_required_field', { param, values: { detail: `${what} needs the buyer's address.` } });
  return territory;
}

function goodsTreatment(seller: SellerPlace, buyer: Buyer): Treatment {
  const to = need(buyer.delivery, 'customer.address', 'A supply of goods');
  const zone = zoneOf(to, 'goods');
  if (seller.area === 'dom') {
    // From an overseas department, goods stay inside only when delivered in that same department.
    if (to.id === seller.territory.id) return { kind: 'french', area: 'dom', place: to.id, origin: false };
    return { kind: 'export', place: to.id };
  }
  switch (zone) {
    // CGI art. 297 I-2: Corsica's rates also apply to goods shipped from the mainland to Corsica.
    case 'metro':
      return { kind: 'french', area: areaOf(to), place: to.id, origin: false };
    case 'dom':
    case 'guyane_mayotte':
    case 'third':
      return { kind: 'export', place: to.id };
    case 'eu':
      return buyer.type === 'company' && hasVatNumberOf(buyer, to)
        ? { kind: 'intra_eu_supply', place: to.id }
        : { kind: 'eu_b2c', destination: to, goods: true };
  }
}

function businessServicesTreatment(seller: SellerPlace, to: VatTerritory, buyer: Buyer): Treatment {
  switch (zoneOf(to, 'services')) {
    case 'metro':
    case 'dom':
      return { kind: 'french', area: areaOf(to), place: to.id, origin: false };
    case 'guyane_mayotte':
      return { kind: 'outside_scope', place: to.id, basis: 'guyane_mayotte' };
    case 'third':
      return { kind: 'outside_scope', place: to.id, basis: 'services_abroad' };
    case 'eu':
      return hasVatNumberOf(buyer, to)
        ? { kind: 'reverse_charge', place: to.id }
        : // No VAT number of its state: treated as a consumer (general rule, at the supplier's place).
          { kind: 'french', area: seller.area, place: seller.territory.id, origin: false };
  }
}

/** Electronic services to a consumer: taxed where the consumer is (Art. 58); the location needs evidence. */
function consumerLocation(
  buyer: Buyer,
  evidence: EvidenceItem[],
): {
  territory: VatTerritory | null;
  basis: 'address' | 'evidence' | 'relief';
  needsRelief: boolean;
  pending: Issue | null;
} {
  const items = [...evidence];
  if (buyer.billing && buyer.billingCountry && !items.some((item) => item.type === 'billing_address')) {
    items.push({ type: 'billing_address', country: buyer.billingCountry, providedBy: 'supplier' });
  }
  const finding = locateConsumer(items);
  if (finding.kind === 'contradiction') {
    const issues: Issue[] = evidence.map((item, index) => ({
      code: 'invalid_field_value',
      param: `locationEvidence[${index}]`,
      message: `Item ${index} places the consumer in ${item.country}; the items and the address designate ${finding.countries.join(', ')}.`,
    }));
    throw refuse(
      'invalid_field_value',
      `The location evidence designates several countries (${finding.countries.join(', ')}): Art. 24b(d) of Regulation 282/2011 needs non-contradictory items, and the engine never picks one.`,
      {
        param: issues[0]?.param ?? 'customer.address.country',
        ...(issues.length > 0 ? { issues } : {}),
      },
    );
  }
  if (finding.kind === 'none') {
    return {
      territory: null,
      basis: 'evidence',
      needsRelief: false,
      pending: {
        code: 'location_evidence_relief_undetermined',
        param: 'locationEvidence',
        message:
          'No address and no location evidence: an electronic service to a consumer is taxed where the consumer is; bring two non-contradictory items (Art. 24b(d)).',
      },
    };
  }
  const located = evidenceTerritory(buyer, finding.country);
  if ('issue' in located)
    throw new ApiError('validation_error', {
      param: located.issue.param ?? undefined,
      values: { detail: located.issue.message },
      issues: [located.issue],
    });
  // The evidence rules decide between member states; a consumer placed in France or outside the EU
  // by its address alone is taken there.
  const otherMemberState = zoneOf(located, 'electronic_service') === 'eu';
  if (!otherMemberState || finding.kind === 'established') {
    return {
      territory: located,
      basis: finding.kind === 'established' && evidence.length > 0 ? 'evidence' : 'address',
      needsRelief: false,
      pending: null,
    };
  }
  if (finding.kind === 'needs_relief') return { territory: located, basis: 'relief', needsRelief: true, pending: null };
  return {
    territory: located,
    basis: 'evidence',
    needsRelief: false,
    pending: {
      code: 'location_evidence_relief_undetermined',
      param: 'locationEvidence',
      message: `A single item places the consumer in ${finding.country} and it is not a third party's item of Art. 24f (a)-(e): bring a second, non-contradictory item.`,
    },
  };
}

function electronicTreatment(seller: SellerPlace, to: VatTerritory): Treatment {
  switch (zoneOf(to, 'electronic_service')) {
    case 'metro':
    case 'dom':
      return { kind: 'french', area: areaOf(to), place: to.id, origin: false };
    case 'guyane_mayotte':
      return { kind: 'outside_scope', place: to.id, basis: 'guyane_mayotte' };
    case 'third':
      return { kind: 'outside_scope', place: to.id, basis: 'electronic_services_abroad' };
    case 'eu':
      return seller.area === 'dom'
        ? notModelled(
            'an electronic service from an overseas department (outside the EU VAT area) to a consumer of a member state',
          )
        : { kind: 'eu_b2c', destination: to, goods: false };
  }
}

function notModelled(what: string): never {
  throw refuse(
    'not_supported',
    `The engine does not decide ${what}: the research it rests on does not settle it, and it never guesses.`,
  );
}

export function planOperation(
  seller: SellerPlace,
  buyer: Buyer,
  lines: { nature: Nature }[],
  evidence: EvidenceItem[],
): Plan {
  const business = buyer.type === 'company';
  const needsConsumerLocation = !business && lines.some((line) => line.nature === 'electronic_service');
  const located = needsConsumerLocation ? consumerLocation(buyer, evidence) : null;
  const planned = lines.map((line, index): PlannedLine => {
    let treatment: Treatment;
    if (line.nature === 'goods') treatment = goodsTreatment(seller, buyer);
    else if (line.nature === 'services') {
      if (!business && buyer.billing && zoneOf(buyer.billing, 'services') === 'third') {
        // CGI 259 B puts some services to consumers outside the EU (advice, advertising, financial
        // services...) outside French VAT; the nature alone does not say which: never guess.
        notModelled(
          "a supply of services to a consumer outside the EU (CGI 259 B moves some of them outside French VAT; the line's nature does not say which)",
        );
      }
      treatment = business
        ? businessServicesTreatment(
            seller,
            need(buyer.billing, 'customer.address', 'A supply of services to a business'),
            buyer,
          )
        : { kind: 'french', area: seller.area, place: seller.territory.id, origin: false };
    } else if (business) {
      treatment = businessServicesTreatment(
        seller,
        need(buyer.billing, 'customer.address', 'A supply of services to a business'),
        buyer,
      );
    } else {
      treatment = located?.territory
        ? electronicTreatment(seller, located.territory)
        : { kind: 'eu_b2c', destination: seller.territory, goods: false };
    }
    return { index, nature: line.nature, treatment };
  });
  return {
    lines: planned,
    location: located?.territory
      ? { country: located.territory.id.slice(0, 2), territory: located.territory.id, basis: located.basis }
      : null,
    needsRelief: located?.needsRelief ?? false,
    locationPending: located?.pending ?? null,
  };
}

/** The ledger shares of the plan, in cents: what counts toward the EUR 10,000 (and, for electronic services, the EUR 100,000). */
export function ledgerShares(plan: Plan, netCents: number[]): { distanceSales: number; electronicServices: number } {
  let distanceSales = 0;
  let electronicServices = 0;
  for (const line of plan.lines) {
    if (line.treatment.kind !== 'eu_b2c') continue;
    distanceSales += netCents[line.index]!;
    if (!line.treatment.goods) electronicServices += netCents[line.index]!;
  }
  return { distanceSales, electronicServices };
}

/** Resolves the EU B2C lines once the ledger has spoken. */
export function applyThreshold(plan: Plan, seller: SellerPlace, position: 'origin' | 'destination'): Plan {
  return {
    ...plan,
    lines: plan.lines.map((line) => {
      const treatment = line.treatment;
      if (treatment.kind !== 'eu_b2c') return line;
      return {
        ...line,
        treatment:
          position === 'origin'
            ? { kind: 'french', area: seller.area, place: seller.territory.id, origin: true }
            : { kind: 'destination', destination: treatment.destination, goods: treatment.goods },
      };
    }),
  };
}
