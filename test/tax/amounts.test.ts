import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import Big from 'big.js';
import { computeTotals, groupVatCents } from '../../src/tax/amounts.js';
import { lineNetCents } from '../../src/kernel/money.js';
import { resolveBuyer } from '../../src/tax/buyer.js';
import { conclude, prepare, type Operation, type Seller } from '../../src/tax/engine.js';
import { brFr16Rates, frenchAreas } from '../../src/tax/rates.js';
import { vatTerritoryOf } from '../../src/tax/vat-territory.js';

/** EN 16931 rounding (research/eu-vat-domain.md section 7): half-up on magnitudes, once per group. */

test('line nets and group VAT round half-up, exactly (never floats)', () => {
  assert.equal(lineNetCents('1', '19.99'), 1999);
  assert.equal(lineNetCents('3', '0.335'), 101, '1.005 rounds up');
  assert.equal(lineNetCents('0.1', '0.05'), 1, '0.005 rounds up');
  assert.equal(lineNetCents('1.5', '12.3456'), 1852);
  assert.equal(groupVatCents(1999, '20'), 400, '19.99 x 0.2 = 3.998 -> 4.00 (research: big.js half-up)');
  assert.equal(groupVatCents(1, '5.5'), 0);
  assert.equal(groupVatCents(10, '5.5'), 1, '0.055 -> 0.06');
  assert.equal(groupVatCents(12345, null), 0);
});

test('every rate of the French areas is a BR-FR-16 rate', () => {
  for (const area of Object.values(frenchAreas))
    for (const rate of area.allowed) assert.ok(brFr16Rates.includes(rate), rate);
});

const mainland = vatTerritoryOf('FR', '75002');
const seller: Seller = {
  profileId: 'txp_prop',
  place: { territory: (mainland as unknown as { territory: never }).territory, area: 'mainland' },
  regime: 'normal',
  vatNumber: 'FR44732829320',
  vatOnDebits: true,
  ossRegistered: true,
  ereportingPeriodicity: 'monthly',
};

const decimal = (digits: number, decimals: number) =>
  fc
    .tuple(fc.integer({ min: 0, max: 10 ** digits - 1 }), fc.integer({ min: 0, max: 10 ** decimals - 1 }))
    .map(([whole, fraction]) => `${whole}.${String(fraction).padStart(decimals, '0')}`);

const lineArb = fc.record({
  description: fc.constant('item'),
  quantity: decimal(4, 4).filter((value) => Number(value) > 0),
  unitPrice: decimal(6, 6),
  nature: fc.constantFrom('goods' as const, 'services' as const),
  rateCategory: fc.constantFrom(
    'standard' as const,
    'intermediate' as const,
    'reduced' as const,
    'super_reduced' as const,
  ),
});

test('BR-CO-10 to BR-CO-17 hold for every decision (fast-check)', () => {
  fc.assert(
    fc.property(
      fc.array(lineArb, { minLength: 1, maxLength: 40 }),
      fc.constantFrom(['FR', '75002'], ['FR', '97200'], ['DE', '10117'], ['US', '10001']),
      (lines, [country, postalCode]) => {
        const operation: Operation = {
          taxSource: 'service',
          date: '2026-10-15',
          currency: 'EUR',
          lines: lines.map((line) =>
            postalCode === '97200'
              ? { ...line, rateCategory: 'standard' as const }
              : country === 'US'
                ? { ...line, nature: 'goods' as const }
                : line,
          ),
          locationEvidence: [],
        };
        const buyer = resolveBuyer({
          type: 'company',
          vatNumber: country === 'DE' ? 'DE136695976' : null,
          address: { country: country!, postalCode: postalCode! },
          deliveryAddress: null,
        });
        const result = conclude(operation, seller, buyer, prepare(operation, seller, buyer), null);
        assert.equal(result.status, 'final');
        if (result.status !== 'final') return;
        const { totals, vatBreakdown } = result;
        const nets = result.lines.map((line) => line.netAmount!);
        // BT-131 = round2(quantity x price), half-up
        result.lines.forEach((line) =>
          assert.equal(
            line.netAmount,
            Number(new Big(line.quantity).times(line.unitPrice).round(2, Big.roundHalfUp).times(100).toFixed(0)),
          ),
        );
        assert.equal(
          totals.net,
          nets.reduce((a, b) => a + b, 0),
          'BR-CO-10: BT-106 = sum BT-131 (and BR-CO-13: no allowance or charge, BT-109 = BT-106)',
        );
        assert.equal(
          totals.vat,
          vatBreakdown.reduce((a, group) => a + group.taxAmount, 0),
          'BR-CO-14: BT-110 = sum BT-117',
        );
        assert.equal(totals.gross, totals.net + totals.vat, 'BR-CO-15');
        assert.equal(totals.due, totals.gross, 'BR-CO-16: nothing prepaid, no rounding amount');
        assert.equal(
          vatBreakdown.reduce((a, group) => a + group.taxableAmount, 0),
          totals.net,
          'BR-S-08 / BR-x-08: the breakdown covers every line',
        );
        for (const group of vatBreakdown) {
          const members: { netAmount: number | null }[] = result.lines.filter(
            (line) =>
              line.vatCode === group.vatCode && line.vatRate === group.vatRate && line.vatexCode === group.vatexCode,
          );
          assert.equal(
            group.taxableAmount,
            members.reduce((a: number, line) => a + line.netAmount!, 0),
            'BT-116 = sum of its lines',
          );
          const expected =
            group.vatCode === 'S'
              ? Number(
                  new Big(group.taxableAmount)
                    .div(100)
                    .times(group.vatRate!)
                    .div(100)
                    .round(2, Big.roundHalfUp)
                    .times(100)
                    .toFixed(0),
                )
              : 0;
          assert.equal(group.taxAmount, expected, 'BR-CO-17: BT-117 = round2(BT-116 x rate / 100), and 0 outside S');
        }
        for (const amount of [totals.net, totals.vat, totals.gross, totals.due])
          assert.ok(Number.isSafeInteger(amount), 'integer cents: two decimals (BR-DEC)');
      },
    ),
    { numRuns: 300 },
  );
});

test('computeTotals groups by category, rate and exemption, once per group', () => {
  const { groups, totals } = computeTotals([
    { netCents: 1, vatCode: 'S', vatRate: '20', vatexCode: null },
    { netCents: 1, vatCode: 'S', vatRate: '20', vatexCode: null },
    { netCents: 1, vatCode: 'S', vatRate: '20', vatexCode: null },
    { netCents: 500, vatCode: 'K', vatRate: '0', vatexCode: 'VATEX-EU-IC' },
  ]);
  assert.equal(groups.length, 2);
  assert.equal(groups[0]!.taxAmount, 1, '0.03 x 20 % = 0.006 -> 0.01 once, not 3 x 0.00');
  assert.deepEqual(totals, { net: 503, vat: 1, gross: 504, due: 504 });
});
