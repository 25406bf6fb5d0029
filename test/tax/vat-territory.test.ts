import { test } from 'node:test';
import assert from 'node:assert/strict';
import { vatTerritoryOf } from '../../src/tax/vat-territory.js';

/**
 * One row per rule of `research/eu-vat-domain.md` section 2 ("Territories outside the EU VAT
 * area, and regional rates") and its engine rules 1-3: [country, postal code, territory id,
 * EU VAT area for goods, for services, French VAT regime].
 */
const rows: [string, string | null, string, boolean, boolean, string | null][] = [
  // Mainland France and Corsica (CGI art. 297)
  ['FR', '75002', 'FR', true, true, 'mainland'],
  ['FR', '01000', 'FR', true, true, 'mainland'],
  ['FR', '95880', 'FR', true, true, 'mainland'],
  ['FR', '20000', 'FR-COR', true, true, 'corsica'],
  ['FR', '20290', 'FR-COR', true, true, 'corsica'],
  // DOM "art. 73": French VAT at DOM rates, outside the EU VAT area (CGI art. 296)
  ['FR', '97110', 'FR-GP', false, false, 'dom'],
  ['GP', '97110', 'FR-GP', false, false, 'dom'],
  ['FR', '97200', 'FR-MQ', false, false, 'dom'],
  ['MQ', '97233', 'FR-MQ', false, false, 'dom'],
  ['FR', '97400', 'FR-RE', false, false, 'dom'],
  ['RE', '97410', 'FR-RE', false, false, 'dom'],
  // Guyane and Mayotte: VAT provisionally not applicable (CGI art. 294-1)
  ['FR', '97300', 'FR-GF', false, false, 'suspended'],
  ['GF', '97310', 'FR-GF', false, false, 'suspended'],
  ['FR', '97600', 'FR-YT', false, false, 'suspended'],
  ['YT', '97615', 'FR-YT', false, false, 'suspended'],
  // Saint-Barthélemy and Saint-Martin sit inside the 971 range and are checked before it
  ['FR', '97133', 'FR-BL', false, false, null],
  ['BL', '97133', 'FR-BL', false, false, null],
  ['FR', '97150', 'FR-MF', false, false, null],
  ['MF', '97150', 'FR-MF', false, false, null],
  ['FR', '97134', 'FR-GP', false, false, 'dom'],
  // Saint-Pierre-et-Miquelon, Monaco (Art. 7: treated as France), the COM of the Pacific and the TAAF
  ['PM', '97500', 'FR-PM', false, false, null],
  ['MC', '98000', 'MC', true, true, 'mainland'],
  ['FR', '98000', 'MC', true, true, 'mainland'],
  ['NC', '98800', 'FR-NC', false, false, null],
  ['PF', '98714', 'FR-PF', false, false, null],
  ['WF', '98600', 'FR-WF', false, false, null],
  ['TF', '98404', 'FR-TF', false, false, null],
  // Other member states' exceptions
  ['ES', '35001', 'ES-CN', false, false, null],
  ['ES', '38001', 'ES-CN', false, false, null],
  ['ES', '51001', 'ES-CE', false, false, null],
  ['ES', '52001', 'ES-ML', false, false, null],
  ['ES', '28001', 'ES', true, true, null],
  ['DE', '27498', 'DE-HEL', false, false, null],
  ['DE', '78266', 'DE-BUS', false, false, null],
  ['DE', '10117', 'DE', true, true, null],
  ['IT', '23041', 'IT-LIV', false, false, null],
  ['IT', '22061', 'IT-CAM', false, false, null],
  ['GR', '63086', 'GR-ATH', false, false, null],
  ['FI', '22100', 'AX', false, false, null],
  ['AX', '22100', 'AX', false, false, null],
  ['AT', '6691', 'AT-JM', true, true, null],
  ['AT', '6992', 'AT-JM', true, true, null],
  ['PT', '9500-001', 'PT-20', true, true, null],
  ['PT', '9000-001', 'PT-30', true, true, null],
  ['PT', '1000-001', 'PT', true, true, null],
  ['GB', 'BT1 1AA', 'GB-NIR', true, false, null],
  ['GB', 'SW1A 1AA', 'GB', false, false, null],
  // Without a postal code, a country of one territory is that territory
  ['DE', null, 'DE', true, true, null],
  ['US', null, 'US', false, false, null],
  ['CH', '8001', 'CH', false, false, null],
];

test('postal codes map to their VAT territory (research/eu-vat-domain.md, section 2)', async (t) => {
  for (const [country, postalCode, id, goods, services, frenchVat] of rows) {
    await t.test(`${country} ${postalCode ?? '(none)'} -> ${id}`, () => {
      const result = vatTerritoryOf(country, postalCode);
      assert.ok(result.ok, JSON.stringify(result));
      assert.equal(result.territory.id, id);
      assert.deepEqual(result.territory.euVatArea, { goods, services });
      assert.equal(result.territory.frenchVat, frenchVat);
    });
  }
});

test('what cannot be mapped is said with the contract issue code', () => {
  const refusals: [string, string | null, string, string][] = [
    ['FR', null, 'french_postal_code_required', 'postalCode'],
    ['GP', '', 'french_postal_code_required', 'postalCode'],
    ['FR', '00100', 'unknown_french_postal_territory', 'postalCode'],
    ['FR', '96000', 'unknown_french_postal_territory', 'postalCode'],
    ['FR', '97700', 'unknown_french_postal_territory', 'postalCode'],
    ['GP', '97133', 'territory_conflict', 'country'],
    ['MC', '75002', 'territory_conflict', 'country'],
    ['MQ', '97110', 'territory_conflict', 'country'],
  ];
  for (const [country, postalCode, code, param] of refusals) {
    const result = vatTerritoryOf(country, postalCode);
    assert.equal(result.ok, false, `${country} ${postalCode}`);
    if (!result.ok) {
      assert.equal(result.code, code, `${country} ${postalCode}`);
      assert.equal(result.param, param);
    }
  }
});
