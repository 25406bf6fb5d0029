import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/kernel/errors.js';
import { resolveBuyer, type BuyerInput } from '../../src/tax/buyer.js';
import { conclude, prepare, type Operation, type OperationLine, type Seller } from '../../src/tax/engine.js';
import type { EvidenceItem } from '../../src/tax/location-evidence.js';
import { vatTerritoryOf } from '../../src/tax/vat-territory.js';

/**
 * The engine, pure: one row per territory and per rule, each citing its source in research/
 * (eu = research/eu-vat-domain.md, fr = research/fr-einvoicing-domain.md).
 */

function seller(postalCode = '75002', overrides: Partial<Seller> = {}): Seller {
  const result = vatTerritoryOf('FR', postalCode);
  if (!result.ok || !result.territory.frenchVat || result.territory.frenchVat === 'suspended')
    throw new Error('bad seller territory');
  return {
    profileId: 'txp_test',
    place: { territory: result.territory, area: result.territory.frenchVat },
    regime: 'normal',
    vatNumber: 'FR44732829320',
    vatOnDebits: false,
    ossRegistered: true,
    ereportingPeriodicity: 'monthly',
    ...overrides,
  };
}

const company = (country: string, postalCode: string | null, vatNumber: string | null = null): BuyerInput => ({
  type: 'company',
  vatNumber,
  address: { country, postalCode },
  deliveryAddress: null,
});
const person = (country: string | null, postalCode: string | null = null): BuyerInput => ({
  type: 'individual',
  vatNumber: null,
  address: country ? { country, postalCode } : null,
  deliveryAddress: null,
});
const goods = (overrides: Partial<OperationLine> = {}): OperationLine => ({
  description: 'x',
  quantity: '1',
  unitPrice: '100.00',
  nature: 'goods',
  ...overrides,
});
const services = (overrides: Partial<OperationLine> = {}): OperationLine => goods({ nature: 'services', ...overrides });
const eservice = (overrides: Partial<OperationLine> = {}): OperationLine =>
  goods({ nature: 'electronic_service', ...overrides });

interface Row {
  name: string;
  source: string;
  seller?: Seller;
  buyer: BuyerInput;
  lines: OperationLine[];
  evidence?: EvidenceItem[];
  taxSource?: 'service' | 'integration';
  position?: 'origin' | 'destination';
  date?: string;
  expect:
    | {
        vatCode: string;
        vatRate: string | null;
        vatexCode?: string | null;
        treatment: string;
        mention?: string;
        place?: string;
      }
    | { refused: string; param?: string; issue?: string }
    | { status: 'not_taken' | 'suspended'; reason: string }
    | { ledger: true };
}

function run(row: Row) {
  const operation: Operation = {
    taxSource: row.taxSource ?? 'service',
    date: row.date ?? '2026-10-15',
    currency: 'EUR',
    lines: row.lines,
    locationEvidence: row.evidence ?? [],
  };
  const s = row.seller ?? seller();
  const buyer = resolveBuyer(row.buyer);
  const prepared = prepare(operation, s, buyer);
  if (prepared.plan.locationPending)
    return {
      status: 'suspended' as const,
      reasons: [prepared.plan.locationPending],
      needsLedger: prepared.needsLedger,
    };
  if (prepared.needsLedger && !row.position) return { ledger: true as const };
  return conclude(operation, s, buyer, prepared, row.position ? { position: row.position } : null);
}

const rows: Row[] = [
  // French rates by territory
  {
    name: 'mainland B2B goods, standard',
    source: 'fr 7 (mainland 20 %)',
    buyer: company('FR', '75002'),
    lines: [goods()],
    expect: { vatCode: 'S', vatRate: '20.00', treatment: 'domestic', place: 'FR' },
  },
  {
    name: 'mainland intermediate',
    source: 'fr 7 (10 %)',
    buyer: company('FR', '69002'),
    lines: [goods({ rateCategory: 'intermediate' })],
    expect: { vatCode: 'S', vatRate: '10.00', treatment: 'domestic' },
  },
  {
    name: 'mainland reduced',
    source: 'fr 7 (5.5 %)',
    buyer: person('FR', '69002'),
    lines: [goods({ rateCategory: 'reduced' })],
    expect: { vatCode: 'S', vatRate: '5.50', treatment: 'domestic' },
  },
  {
    name: 'mainland super-reduced',
    source: 'fr 7 (2.1 %)',
    buyer: person('FR', '13001'),
    lines: [goods({ rateCategory: 'super_reduced' })],
    expect: { vatCode: 'S', vatRate: '2.10', treatment: 'domestic' },
  },
  {
    name: 'Monaco buyer: treated as France',
    source: 'eu 2 (Art. 7, MC uses the French rates)',
    buyer: company('MC', '98000'),
    lines: [services()],
    expect: { vatCode: 'S', vatRate: '20.00', treatment: 'domestic', place: 'MC' },
  },
  {
    name: 'Corsica: goods shipped to Corsica, normal rate',
    source: 'eu 2 (Corsica, CGI 297 I-2)',
    buyer: company('FR', '20000'),
    lines: [goods()],
    expect: { vatCode: 'S', vatRate: '20.00', treatment: 'domestic', place: 'FR-COR' },
  },
  {
    name: 'Corsica: the reduced rate depends on the product',
    source: 'eu 2 (CGI 297 particular rates)',
    buyer: company('FR', '20200'),
    lines: [goods({ rateCategory: 'reduced' })],
    expect: { refused: 'invalid_field_value', param: 'lines[0].rateCategory' },
  },
  {
    name: 'Corsican seller, B2C services: Corsica',
    source: 'eu 2 (Corsica)',
    seller: seller('20000'),
    buyer: person('FR', '75002'),
    lines: [services()],
    expect: { vatCode: 'S', vatRate: '20.00', treatment: 'domestic', place: 'FR-COR' },
  },
  {
    name: 'Guadeloupe: mainland goods are an export',
    source: 'eu 2 (DOM: goods metropole to DOM = export, CGI 294-2)',
    buyer: company('FR', '97110'),
    lines: [goods()],
    expect: { vatCode: 'G', vatRate: '0.00', vatexCode: 'VATEX-EU-G', treatment: 'export', mention: 'export' },
  },
  {
    name: 'Martinique: B2B services at the DOM rate',
    source: 'eu 2 (B2B services to a DOM customer taxed at the DOM rate)',
    buyer: company('FR', '97200'),
    lines: [services()],
    expect: { vatCode: 'S', vatRate: '8.50', treatment: 'domestic', place: 'FR-MQ' },
  },
  {
    name: 'La Réunion: B2B services reduced 2.1',
    source: 'eu 2 (CGI 296: 2.1 reduced)',
    buyer: company('RE', '97400'),
    lines: [services({ rateCategory: 'reduced' })],
    expect: { vatCode: 'S', vatRate: '2.10', treatment: 'domestic', place: 'FR-RE' },
  },
  {
    name: 'DOM intermediate category is not sourced',
    source: 'eu 2 (CGI 296 has no 10 %)',
    buyer: company('FR', '97400'),
    lines: [services({ rateCategory: 'intermediate' })],
    expect: { refused: 'invalid_field_value', param: 'lines[0].rateCategory' },
  },
  {
    name: 'Guadeloupe seller, local sale at 8.5',
    source: 'eu 2 (CGI 296)',
    seller: seller('97110'),
    buyer: person('FR', '97122'),
    lines: [goods()],
    expect: { vatCode: 'S', vatRate: '8.50', treatment: 'domestic', place: 'FR-GP' },
  },
  {
    name: 'Guyane: goods are an export',
    source: 'eu 2 (Guyane/Mayotte: goods = export)',
    buyer: company('GF', '97300'),
    lines: [goods()],
    expect: { vatCode: 'G', vatRate: '0.00', treatment: 'export' },
  },
  {
    name: 'Mayotte: B2B services not taxable',
    source: 'eu 2 (CGI 294-1; B2B services to Guyane/Mayotte not taxable)',
    buyer: company('FR', '97600'),
    lines: [services()],
    expect: {
      vatCode: 'O',
      vatRate: null,
      vatexCode: 'VATEX-EU-O',
      treatment: 'outside_scope',
      mention: 'guyane_mayotte',
    },
  },
  {
    name: 'Saint-Barthélemy (in the 971 range): export',
    source: 'eu 2 (Saint-Barthélemy before the 971 rule)',
    buyer: company('FR', '97133'),
    lines: [goods()],
    expect: { vatCode: 'G', vatRate: '0.00', treatment: 'export', place: 'FR-BL' },
  },
  {
    name: 'Saint-Pierre-et-Miquelon: export',
    source: 'eu 2 (PM outside EU and French VAT)',
    buyer: person('PM', '97500'),
    lines: [goods()],
    expect: { vatCode: 'G', vatRate: '0.00', treatment: 'export' },
  },
  {
    name: 'New Caledonia B2B services: outside scope',
    source: 'eu 2 (NC third territory) + eu 5 (category O)',
    buyer: company('NC', '98800'),
    lines: [services()],
    expect: { vatCode: 'O', vatRate: null, treatment: 'outside_scope', mention: 'outside_scope_services' },
  },
  // EU and third countries
  {
    name: 'intra-EU supply of goods to a German business',
    source: 'eu 6 (262 ter I, K + VATEX-EU-IC)',
    buyer: company('DE', '10117', 'DE136695976'),
    lines: [goods()],
    expect: {
      vatCode: 'K',
      vatRate: '0.00',
      vatexCode: 'VATEX-EU-IC',
      treatment: 'intra_eu_supply',
      mention: 'intra_eu_supply',
    },
  },
  {
    name: 'reverse charge: B2B services to Germany',
    source: 'eu 6 (CGI 259-1, Art. 196, AE + VATEX-EU-AE)',
    buyer: company('DE', '10117', 'DE136695976'),
    lines: [services()],
    expect: {
      vatCode: 'AE',
      vatRate: '0.00',
      vatexCode: 'VATEX-EU-AE',
      treatment: 'reverse_charge',
      mention: 'reverse_charge',
    },
  },
  {
    name: 'export to the United States',
    source: 'eu 6 (262 I, G + VATEX-EU-G)',
    buyer: company('US', '10001'),
    lines: [goods()],
    expect: { vatCode: 'G', vatRate: '0.00', treatment: 'export' },
  },
  {
    name: 'Canary Islands: export',
    source: 'eu 2 (ES-CN outside EU VAT)',
    buyer: person('ES', '35001'),
    lines: [goods()],
    expect: { vatCode: 'G', vatRate: '0.00', treatment: 'export', place: 'ES-CN' },
  },
  {
    name: 'Åland: export',
    source: 'eu 2 (AX outside EU VAT)',
    buyer: person('FI', '22100'),
    lines: [goods()],
    expect: { vatCode: 'G', vatRate: '0.00', treatment: 'export', place: 'AX' },
  },
  {
    name: 'Heligoland: export',
    source: 'eu 2 (DE-HEL)',
    buyer: company('DE', '27498'),
    lines: [goods()],
    expect: { vatCode: 'G', vatRate: '0.00', treatment: 'export', place: 'DE-HEL' },
  },
  {
    name: 'Northern Ireland goods with an XI number: intra-EU supply',
    source: 'eu 2 (GB-NIR inside for goods, XI numbers)',
    buyer: company('GB', 'BT1 1AA', 'XI980780684'),
    lines: [goods()],
    expect: { vatCode: 'K', vatRate: '0.00', treatment: 'intra_eu_supply' },
  },
  {
    name: 'Northern Ireland services: third country',
    source: 'eu 2 (GB-NIR services: UK)',
    buyer: company('GB', 'BT1 1AA', 'XI980780684'),
    lines: [services()],
    expect: { vatCode: 'O', vatRate: null, treatment: 'outside_scope' },
  },
  // EU B2C: the ledger decides
  {
    name: 'distance sale to an Italian consumer: the ledger decides',
    source: 'eu 3 (EUR 10,000)',
    buyer: person('IT', '20121'),
    lines: [goods()],
    expect: { ledger: true },
  },
  {
    name: 'distance sale under the threshold: French VAT',
    source: 'eu 3 (origin taxation)',
    buyer: person('IT', '20121'),
    lines: [goods()],
    position: 'origin',
    expect: { vatCode: 'S', vatRate: '20.00', treatment: 'distance_sale_origin', place: 'FR' },
  },
  {
    name: 'distance sale over the threshold: Italian standard rate',
    source: 'eu 3 + eu 1 (IT 22)',
    buyer: person('IT', '20121'),
    lines: [goods()],
    position: 'destination',
    expect: { vatCode: 'S', vatRate: '22.00', treatment: 'distance_sale_destination', place: 'IT' },
  },
  {
    name: 'distance sale to Madeira: regional 22',
    source: 'eu 2 (Madeira 22) [src pages]',
    buyer: person('PT', '9000-001'),
    lines: [goods()],
    position: 'destination',
    expect: { vatCode: 'S', vatRate: '22.00', treatment: 'distance_sale_destination', place: 'PT-30' },
  },
  {
    name: 'distance sale to the Azores: regional 16',
    source: 'eu 2 (Azores 16) [src pages]',
    buyer: person('PT', '9500-001'),
    lines: [goods()],
    position: 'destination',
    expect: { vatCode: 'S', vatRate: '16.00', treatment: 'distance_sale_destination', place: 'PT-20' },
  },
  {
    name: 'Romania 21 % from 2025-08-01',
    source: 'eu 1 (RO 19 -> 21 on 2025-08-01)',
    buyer: person('RO', '010011'),
    lines: [goods()],
    position: 'destination',
    date: '2025-08-01',
    expect: { vatCode: 'S', vatRate: '21.00', treatment: 'distance_sale_destination' },
  },
  {
    name: 'Romania 19 % before',
    source: 'eu 1 (RO)',
    buyer: person('RO', '010011'),
    lines: [goods()],
    position: 'destination',
    date: '2025-07-31',
    expect: { vatCode: 'S', vatRate: '19.00', treatment: 'distance_sale_destination' },
  },
  {
    name: 'Jungholz goods at destination: regional regime not sourced',
    source: 'eu 2 (AT-JM 19 % without source)',
    buyer: person('AT', '6691'),
    lines: [goods()],
    position: 'destination',
    expect: { refused: 'destination_regional_regime_not_sourced', param: 'lines[0]' },
  },
  {
    name: 'Jungholz electronic service at destination: the standard rate',
    source: 'contract (destination_regional_regime_not_sourced) + eu 1 (AT 20)',
    buyer: person('AT', '6691'),
    lines: [eservice()],
    evidence: [{ type: 'bank', country: 'AT', providedBy: 'third_party' }],
    position: 'destination',
    expect: { vatCode: 'S', vatRate: '20.00', treatment: 'distance_sale_destination' },
  },
  {
    name: 'destination reduced rate is not held',
    source: 'contract (eu_b2c_rate_supplied_mismatch: only the destination standard rate is confirmed)',
    buyer: person('DE', '10117'),
    lines: [goods({ rateCategory: 'reduced' })],
    position: 'destination',
    expect: { refused: 'invalid_field_value', param: 'lines[0].rateCategory' },
  },
  // Electronic services and evidence
  {
    name: 'electronic service to a German consumer, two agreeing items',
    source: 'eu 4 (Art. 24b(d))',
    buyer: person('DE', '10117'),
    lines: [eservice()],
    evidence: [{ type: 'ip_address', country: 'DE', providedBy: 'supplier' }],
    expect: { ledger: true },
  },
  {
    name: 'electronic service, one supplier item only: suspended',
    source: 'eu 4 (two items needed)',
    buyer: person(null),
    lines: [eservice()],
    evidence: [{ type: 'ip_address', country: 'BE', providedBy: 'supplier' }],
    expect: { status: 'suspended', reason: 'location_evidence_relief_undetermined' },
  },
  {
    name: 'electronic service, one third-party item: the relief decides',
    source: 'eu 4 (Art. 24b second paragraph)',
    buyer: person(null),
    lines: [eservice()],
    evidence: [{ type: 'bank', country: 'BE', providedBy: 'third_party' }],
    expect: { ledger: true },
  },
  {
    name: 'evidence places the consumer in Germany without an address there',
    source: 'eu 2 (Heligoland, Büsingen: the postal code decides)',
    buyer: person(null),
    lines: [eservice()],
    evidence: [
      { type: 'bank', country: 'DE', providedBy: 'third_party' },
      { type: 'ip_address', country: 'DE', providedBy: 'supplier' },
    ],
    expect: { refused: 'validation_error', issue: 'postal_code_required_for_territory_check' },
  },
  {
    name: 'electronic service, no evidence at all: suspended',
    source: 'eu 4',
    buyer: person(null),
    lines: [eservice()],
    expect: { status: 'suspended', reason: 'location_evidence_relief_undetermined' },
  },
  {
    name: 'electronic service, contradicting items',
    source: 'eu 4 (never decide silently)',
    buyer: person('DE', '10117'),
    lines: [eservice()],
    evidence: [{ type: 'ip_address', country: 'AT', providedBy: 'supplier' }],
    expect: { refused: 'invalid_field_value', param: 'locationEvidence[0]' },
  },
  {
    name: 'services to a US consumer: not decided (CGI 259 B exceptions)',
    source: 'fr 7 + eu 4 (place of supply of B2C services; exceptions by kind of service)',
    buyer: person('US', '10001'),
    lines: [services()],
    expect: { refused: 'not_supported' },
  },
  {
    name: 'electronic service to a US consumer: outside scope',
    source: 'eu 4 + eu 5 (O)',
    buyer: person('US', '10001'),
    lines: [eservice()],
    expect: { vatCode: 'O', vatRate: null, treatment: 'outside_scope', mention: 'outside_scope_electronic_services' },
  },
  {
    name: 'electronic service to a French consumer: domestic',
    source: 'eu 4 (the evidence rules decide between member states)',
    buyer: person('FR', '75011'),
    lines: [eservice()],
    expect: { vatCode: 'S', vatRate: '20.00', treatment: 'domestic' },
  },
  // Franchise en base
  {
    name: 'franchise en base: E + VATEX-FR-FRANCHISE',
    source: 'eu 6 (art. 293 B)',
    seller: seller('75002', { regime: 'franchise', vatNumber: null, ereportingPeriodicity: 'bimonthly' }),
    buyer: company('FR', '75002'),
    lines: [services()],
    expect: {
      vatCode: 'E',
      vatRate: '0.00',
      vatexCode: 'VATEX-FR-FRANCHISE',
      treatment: 'domestic',
      mention: 'franchise_en_base',
    },
  },
  {
    name: 'franchise seller exporting: still G',
    source: 'eu 6 (franchise covers French-taxable supplies only)',
    seller: seller('75002', { regime: 'franchise', vatNumber: null, ereportingPeriodicity: 'bimonthly' }),
    buyer: company('US', '10001'),
    lines: [goods()],
    expect: { vatCode: 'G', vatRate: '0.00', treatment: 'export' },
  },
  // Refusals of the engine
  {
    name: 'a service input imposing a rate',
    source: 'contract (tax_decision_input_rejected)',
    buyer: company('FR', '75002'),
    lines: [goods(), goods({ vatRate: '20' })],
    expect: { refused: 'tax_decision_input_rejected', param: 'lines[1].vatRate' },
  },
  {
    name: 'exempt category needs its legal basis',
    source: 'eu 5 (E needs its VATEX)',
    buyer: company('FR', '75002'),
    lines: [services({ rateCategory: 'exempt' })],
    expect: { refused: 'invalid_field_value', param: 'lines[0].rateCategory' },
  },
  {
    name: 'O beside taxed lines (BR-O-11)',
    source: 'eu 5 (O-11..14)',
    buyer: company('FR', '97300'),
    lines: [goods(), services()],
    expect: { refused: 'invalid_field_value', param: 'lines[1]' },
  },
  {
    name: 'profile without vatOnDebits, services in France',
    source: 'fr 7 (VAT on collection vs debits)',
    seller: seller('75002', { vatOnDebits: null }),
    buyer: company('FR', '75002'),
    lines: [services()],
    expect: { refused: 'tax_profile_incomplete' },
  },
  {
    name: 'profile without OSS declaration, destination taxation',
    source: 'eu 3 (OSS)',
    seller: seller('75002', { ossRegistered: null }),
    buyer: person('IT', '20121'),
    lines: [goods()],
    position: 'destination',
    expect: { refused: 'tax_profile_incomplete' },
  },
  {
    name: 'profile without regime',
    source: 'contract (tax_profile_incomplete)',
    seller: seller('75002', { regime: null }),
    buyer: company('FR', '75002'),
    lines: [goods()],
    expect: { refused: 'tax_profile_incomplete' },
  },
  // Buyer address issues (the contract's issue table)
  {
    name: 'French address without postal code',
    source: 'contract (french_postal_code_required) + eu 2',
    buyer: company('FR', null),
    lines: [goods()],
    expect: { refused: 'validation_error', param: 'customer.address.postalCode', issue: 'french_postal_code_required' },
  },
  {
    name: 'Spanish address without postal code',
    source: 'contract (postal_code_required_for_territory_check) + eu 2 (Canaries)',
    buyer: person('ES', null),
    lines: [goods()],
    expect: {
      refused: 'validation_error',
      param: 'customer.address.postalCode',
      issue: 'postal_code_required_for_territory_check',
    },
  },
  {
    name: 'French postal code of no territory',
    source: 'contract (unknown_french_postal_territory)',
    buyer: person('FR', '00100'),
    lines: [goods()],
    expect: {
      refused: 'validation_error',
      param: 'customer.address.postalCode',
      issue: 'unknown_french_postal_territory',
    },
  },
  {
    name: 'Portuguese postal code of no territory',
    source: 'contract (unknown_regional_postal_territory)',
    buyer: person('PT', '0999-001'),
    lines: [goods()],
    expect: {
      refused: 'validation_error',
      param: 'customer.address.postalCode',
      issue: 'unknown_regional_postal_territory',
    },
  },
  {
    name: 'invalid postal code',
    source: 'contract (invalid_postal_code)',
    buyer: person('DE', '1234'),
    lines: [goods()],
    expect: { refused: 'validation_error', param: 'customer.address.postalCode', issue: 'invalid_postal_code' },
  },
  {
    name: 'unknown country code',
    source: 'contract (unknown_country_code)',
    buyer: person('ZZ', '1234'),
    lines: [goods()],
    expect: { refused: 'invalid_field_value', param: 'customer.address.country', issue: 'unknown_country_code' },
  },
  {
    name: 'country and postal code disagree',
    source: 'contract (territory_conflict) + eu 2 (97133 is Saint-Barthélemy)',
    buyer: person('GP', '97133'),
    lines: [goods()],
    expect: { refused: 'validation_error', param: 'customer.address.country', issue: 'territory_conflict' },
  },
  // A valid French code of another territory than the country: the territory rule comes before the
  // country's own postal pattern (GP takes only 971xx, MC only 980xx), so the conflict is said.
  {
    name: 'a Paris postal code written GP',
    source: 'contract (territory_conflict)',
    buyer: person('GP', '75002'),
    lines: [goods()],
    expect: { refused: 'validation_error', param: 'customer.address.country', issue: 'territory_conflict' },
  },
  {
    name: 'a Guadeloupe postal code written MQ',
    source: 'contract (territory_conflict)',
    buyer: company('MQ', '97110'),
    lines: [goods()],
    expect: { refused: 'validation_error', param: 'customer.address.country', issue: 'territory_conflict' },
  },
  {
    name: 'a mainland postal code written MC, as the delivery address',
    source: 'contract (territory_conflict)',
    buyer: { ...company('FR', '75002'), deliveryAddress: { country: 'MC', postalCode: '75002' } },
    lines: [goods()],
    expect: { refused: 'validation_error', param: 'customer.deliveryAddress.country', issue: 'territory_conflict' },
  },
  {
    name: 'a Guadeloupe code of four digits stays an invalid postal code',
    source: 'contract (invalid_postal_code)',
    buyer: person('GP', '9711'),
    lines: [goods()],
    expect: { refused: 'validation_error', param: 'customer.address.postalCode', issue: 'invalid_postal_code' },
  },
  // Integration
  {
    name: 'integration: coherent 20 %',
    source: 'contract rule 5 (integration)',
    taxSource: 'integration',
    buyer: company('FR', '75002'),
    lines: [goods({ vatRate: '20', vatCode: 'S', vatexCode: null })],
    expect: { vatCode: 'S', vatRate: '20.00', treatment: 'domestic' },
  },
  {
    name: 'integration: 8.5 on a mainland sale',
    source: 'fr 7 + eu 2',
    taxSource: 'integration',
    buyer: company('FR', '75002'),
    lines: [goods({ vatRate: '8.5', vatCode: 'S', vatexCode: null })],
    expect: { refused: 'integration_vat_incoherent', param: 'lines[0].vatRate' },
  },
  {
    name: 'integration: S on an intra-EU supply',
    source: 'eu 6 (K)',
    taxSource: 'integration',
    buyer: company('DE', '10117', 'DE136695976'),
    lines: [goods({ vatRate: '20', vatCode: 'S', vatexCode: null })],
    expect: { refused: 'integration_vat_incoherent', param: 'lines[0].vatCode' },
  },
  {
    name: 'integration: K with the wrong VATEX',
    source: 'eu 5 (pairings)',
    taxSource: 'integration',
    buyer: company('DE', '10117', 'DE136695976'),
    lines: [goods({ vatRate: '0', vatCode: 'K', vatexCode: 'VATEX-EU-G' })],
    expect: { refused: 'integration_vat_incoherent', param: 'lines[0].vatexCode' },
  },
  {
    name: 'integration: Corsica 13 % petroleum',
    source: 'eu 2 (CGI 297: 13 %)',
    taxSource: 'integration',
    buyer: company('FR', '20000'),
    lines: [goods({ vatRate: '13', vatCode: 'S', vatexCode: null })],
    expect: { vatCode: 'S', vatRate: '13.00', treatment: 'domestic' },
  },
  {
    name: 'integration: franchise declared but S supplied',
    source: 'eu 6 (293 B)',
    seller: seller('75002', { regime: 'franchise', vatNumber: null, ereportingPeriodicity: 'bimonthly' }),
    taxSource: 'integration',
    buyer: company('FR', '75002'),
    lines: [goods({ vatRate: '20', vatCode: 'S', vatexCode: null })],
    expect: { refused: 'integration_vat_incoherent' },
  },
  {
    name: 'integration: EU B2C at destination, not the standard rate',
    source: 'contract (eu_b2c_rate_supplied_mismatch) + eu 1 (DE 19)',
    taxSource: 'integration',
    buyer: person('DE', '10117'),
    lines: [goods({ vatRate: '7', vatCode: 'S', vatexCode: null })],
    position: 'destination',
    expect: { status: 'not_taken', reason: 'eu_b2c_rate_supplied_mismatch' },
  },
  {
    name: 'integration: EU B2C at destination, the standard rate',
    source: 'eu 1 (DE 19)',
    taxSource: 'integration',
    buyer: person('DE', '10117'),
    lines: [goods({ vatRate: '19', vatCode: 'S', vatexCode: null })],
    position: 'destination',
    expect: { vatCode: 'S', vatRate: '19.00', treatment: 'distance_sale_destination' },
  },
  {
    name: 'integration: EU B2C under the threshold, a foreign rate',
    source: 'contract (seller territory bands)',
    taxSource: 'integration',
    buyer: person('DE', '10117'),
    lines: [goods({ vatRate: '19', vatCode: 'S', vatexCode: null })],
    position: 'origin',
    expect: { status: 'not_taken', reason: 'eu_b2c_rate_supplied_mismatch' },
  },
];

for (const row of rows) {
  test(`${row.name} [${row.source}]`, () => {
    const { expect } = row;
    if ('refused' in expect) {
      assert.throws(
        () => run(row),
        (error: unknown) => {
          assert.ok(error instanceof ApiError, String(error));
          assert.equal(error.code, expect.refused, error.message);
          if (expect.param) assert.equal(error.param, expect.param);
          if (expect.issue) assert.equal(error.issues?.[0]?.code, expect.issue);
          for (const issue of error.issues ?? []) assert.doesNotMatch(issue.message, /rue|Paris|Berlin/);
          return true;
        },
      );
      return;
    }
    const result = run(row) as ReturnType<typeof run>;
    if ('ledger' in expect) {
      assert.ok('ledger' in result, JSON.stringify(result));
      return;
    }
    if ('reason' in expect) {
      assert.ok('status' in result, JSON.stringify(result));
      assert.equal(result.status, expect.status);
      assert.equal((result as { reasons: { code: string }[] }).reasons[0]!.code, expect.reason);
      return;
    }
    assert.ok('status' in result && result.status === 'final', JSON.stringify(result));
    const line = result.lines[0]!;
    assert.equal(line.vatCode, expect.vatCode);
    assert.equal(line.vatRate, expect.vatRate);
    if (expect.vatexCode !== undefined) assert.equal(line.vatexCode, expect.vatexCode);
    assert.equal(line.treatment, expect.treatment);
    if (expect.place) assert.equal(line.placeOfSupply, expect.place);
    if (expect.mention)
      assert.ok(
        result.mentions.some((mention) => mention.code === expect.mention),
        JSON.stringify(result.mentions),
      );
  });
}

test('the three axes (fr 5 and eu 6: who falls under e-invoicing, e-reporting, payment data)', () => {
  const decide = (buyer: BuyerInput, lines: OperationLine[], s = seller()) => {
    const result = conclude(
      { taxSource: 'service', date: '2026-10-15', currency: 'EUR', lines, locationEvidence: [] },
      s,
      resolveBuyer(buyer),
      prepare(
        { taxSource: 'service', date: '2026-10-15', currency: 'EUR', lines, locationEvidence: [] },
        s,
        resolveBuyer(buyer),
      ),
      null,
    );
    assert.equal(result.status, 'final');
    return result.status === 'final' ? result.axes : null;
  };
  const domestic = decide(company('FR', '75002'), [services()])!;
  assert.deepEqual(
    [domestic.einvoicing.state, domestic.ereportingTransaction.state, domestic.ereportingPayment.state],
    ['due', 'not_applicable', 'due'],
  );
  const debits = decide(company('FR', '75002'), [services()], seller('75002', { vatOnDebits: true }))!;
  assert.equal(debits.ereportingPayment.reason, 'vat_on_debits');
  const b2c = decide(person('FR', '75002'), [goods()])!;
  assert.deepEqual(
    [b2c.einvoicing.reason, b2c.ereportingTransaction.reason, b2c.ereportingPayment.reason],
    ['buyer_not_taxable_person', 'b2c', 'no_services_taxed_in_france'],
  );
  const international = decide(company('DE', '10117', 'DE136695976'), [services()])!;
  assert.deepEqual(
    [
      international.einvoicing.reason,
      international.ereportingTransaction.reason,
      international.ereportingPayment.reason,
    ],
    ['buyer_established_outside_france', 'international_b2b', 'no_services_taxed_in_france'],
  );
  const monaco = decide(company('MC', '98000'), [goods()])!;
  assert.equal(monaco.einvoicing.state, 'not_applicable', 'Monaco is an international counterparty (fr 7)');
  const dom = decide(company('FR', '97200'), [services()])!;
  assert.equal(dom.einvoicing.state, 'due');
});

test('mentions: VAT on debits, operation category', () => {
  const lines = [goods(), services()];
  const s = seller('75002', { vatOnDebits: true });
  const operation: Operation = {
    taxSource: 'service',
    date: '2026-10-15',
    currency: 'EUR',
    lines,
    locationEvidence: [],
  };
  const buyer = resolveBuyer(company('FR', '75002'));
  const result = conclude(operation, s, buyer, prepare(operation, s, buyer), null);
  assert.equal(result.status, 'final');
  if (result.status !== 'final') return;
  assert.deepEqual(
    result.mentions.map((mention) => mention.code),
    ['vat_on_debits', 'operation_category'],
  );
  assert.equal(result.operationCategory, 'mixed');
});
