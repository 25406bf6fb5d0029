import fc from 'fast-check';
import { ApiError } from '../../src/kernel/errors.js';
import type { DocumentModel } from '../../src/einvoice/document-model.js';
import { engineDocument, type BuyerSpec, type DocumentSpec, type LineSpec, type SellerSpec } from './support.js';

/**
 * Generated documents as the service would issue them: random sellers (mainland, Corsica,
 * Guadeloupe, franchise en base, with or without the VAT-on-debits option), buyers (French
 * companies of every territory, EU companies with a VAT number, companies and consumers outside the
 * EU, French and EU consumers), lines (goods, services, electronic services; rates asked or
 * supplied; quantities and prices of up to 4 and 6 decimals; long and non-ASCII texts), invoices
 * and credit notes. The tax engine decides each one; an operation it refuses is not a document
 * and is skipped.
 */

const nonAscii = [
  'Société Générale des Études',
  'Müller & Söhne GmbH',
  'Αθηναϊκή Εμπορική Α.Ε.',
  'ООО «Северный ветер»',
  'Zoë Ľubomírová-Øster',
  'Łódź Spółka z o.o.',
  'Ærø Fiskeri ApS',
  'Ğüzel İnşaat',
  'Ἀθῆναι “Θέατρο”',
  'Ünal & Çelik <SARL>',
  'Côte-d’Ivoire Négoce',
];

const textArbitrary = (maxLength: number) =>
  fc
    .oneof(
      fc.constantFrom(...nonAscii),
      fc.string({
        unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzéèàçôûñßøåæœ ΑΩЖЯ&<>"\'—«»€%'.split('')),
        minLength: 1,
        maxLength,
      }),
    )
    .map((value) => value.replace(/\s+/g, ' ').trim())
    .filter((value) => value.length > 0);

const sellerArbitrary: fc.Arbitrary<SellerSpec> = fc
  .record({
    place: fc.constantFrom(
      { postalCode: '75002', city: 'Paris' },
      { postalCode: '69001', city: 'Lyon' },
      { postalCode: '20000', city: 'Ajaccio' },
      { postalCode: '20200', city: 'Bastia' },
      { postalCode: '97110', city: 'Pointe-à-Pitre' },
      { postalCode: '97400', city: 'Saint-Denis' },
    ),
    regime: fc.constantFrom<SellerSpec['regime']>('normal', 'normal', 'normal', 'franchise'),
    vatOnDebits: fc.boolean(),
  })
  .map(({ place, regime, vatOnDebits }) => ({ ...place, regime, vatOnDebits }));

const frenchCompanies: {
  postalCode: string;
  city: string;
  siren: string | null;
  vatNumber: string | null;
  country?: string;
}[] = [
  { postalCode: '75009', city: 'Paris', siren: '552120222', vatNumber: 'FR27552120222' },
  { postalCode: '13001', city: 'Marseille', siren: '732829320', vatNumber: null },
  { postalCode: '20090', city: 'Ajaccio', siren: '552100554', vatNumber: 'FR96552100554' },
  { postalCode: '97200', city: 'Fort-de-France', siren: '552100554', vatNumber: null },
  { postalCode: '97400', city: 'Saint-Denis', siren: '552120222', vatNumber: null },
  { postalCode: '97310', city: 'Kourou', siren: '732829320', vatNumber: null },
  { postalCode: '98000', city: 'Monaco', siren: null, vatNumber: null, country: 'MC' },
];
const euCompanies = [
  { country: 'DE', postalCode: '10115', city: 'Berlin', vatNumber: 'DE136695976' },
  { country: 'GR', postalCode: '10431', city: 'Αθήνα', vatNumber: 'EL094259216' },
  { country: 'IT', postalCode: '20121', city: 'Milano', vatNumber: 'IT00743110157' },
  { country: 'BE', postalCode: '1000', city: 'Bruxelles', vatNumber: 'BE0403019261' },
  { country: 'ES', postalCode: '28001', city: 'Madrid', vatNumber: 'ESB58378431' },
  { country: 'PL', postalCode: '00-001', city: 'Warszawa', vatNumber: 'PL5260250995' },
];
const outsideEu = [
  { country: 'CH', postalCode: '8001', city: 'Zürich' },
  { country: 'US', postalCode: '10001', city: 'New York' },
  { country: 'RU', postalCode: '101000', city: 'Москва' },
  { country: 'GB', postalCode: 'SW1A 1AA', city: 'London' },
];

const buyerArbitrary: fc.Arbitrary<BuyerSpec> = fc.oneof<fc.Arbitrary<BuyerSpec>[]>(
  fc
    .record({ place: fc.constantFrom(...frenchCompanies), name: textArbitrary(60), delivery: fc.boolean() })
    .map(({ place, name, delivery }) => ({
      type: 'company' as const,
      name,
      country: place.country ?? 'FR',
      postalCode: place.postalCode,
      city: place.city,
      siren: place.siren,
      vatNumber: place.vatNumber,
      delivery: delivery && !place.country ? { country: 'FR', postalCode: '93200', city: 'Saint-Denis' } : null,
    })),
  fc
    .record({ place: fc.constantFrom(...euCompanies), name: textArbitrary(60) })
    .map(({ place, name }) => ({ type: 'company' as const, name, ...place })),
  fc
    .record({ place: fc.constantFrom(...outsideEu), name: textArbitrary(60) })
    .map(({ place, name }) => ({ type: 'company' as const, name, ...place })),
  fc
    .record({
      place: fc.constantFrom(
        { country: 'FR', postalCode: '31000', city: 'Toulouse' },
        { country: 'FR', postalCode: '20000', city: 'Ajaccio' },
        { country: 'DE', postalCode: '80331', city: 'München' },
      ),
      name: textArbitrary(40),
    })
    .map(({ place, name }) => ({ type: 'individual' as const, name, ...place, email: 'client@example.org' })),
);

const decimal = (digits: number, decimals: number) =>
  fc
    .tuple(fc.integer({ min: 0, max: 10 ** digits - 1 }), fc.integer({ min: 0, max: 10 ** decimals - 1 }), fc.boolean())
    .map(([whole, fraction, plain]) =>
      plain || decimals === 0 ? String(whole) : `${whole}.${String(fraction).padStart(decimals, '0')}`,
    );

const lineArbitrary: fc.Arbitrary<LineSpec> = fc.record({
  description: fc.oneof(
    textArbitrary(80),
    textArbitrary(80).map((text) => `${text} `.repeat(8).trim()),
  ),
  quantity: fc.oneof(decimal(3, 4), fc.constantFrom('1', '2', '0.5', '12.25')).filter((value) => Number(value) > 0),
  unitPrice: fc.oneof(decimal(5, 2), decimal(2, 6), fc.constantFrom('0', '0.01', '99999.99')),
  unit: fc.constantFrom('C62', 'HUR', 'DAY', 'KGM', 'MTR', 'LTR', 'H87', 'E48', 'MON'),
  nature: fc.constantFrom<LineSpec['nature']>('goods', 'services', 'electronic_service'),
});

/** Supplied rates by seller area (integration), so Corsica and the DOM show their particular rates. */
const suppliedRates: Record<string, string[]> = {
  '20000': ['20', '13', '10', '5.5', '2.1', '0.9'],
  '20200': ['20', '13', '10', '5.5', '2.1', '0.9'],
  '97110': ['8.5', '2.1', '1.75', '1.05'],
  '97400': ['8.5', '2.1', '1.75', '1.05'],
};

export const specArbitrary: fc.Arbitrary<DocumentSpec> = fc
  .record({
    kind: fc.constantFrom<DocumentSpec['kind']>('invoice', 'invoice', 'invoice', 'credit_note'),
    counter: fc.integer({ min: 1, max: 999_999 }),
    day: fc.integer({ min: 0, max: 900 }),
    seller: sellerArbitrary,
    buyer: buyerArbitrary,
    lines: fc.oneof(
      // Most documents have a few lines; one in twenty has 25 to 45 (several pages).
      { weight: 19, arbitrary: fc.array(lineArbitrary, { minLength: 1, maxLength: 6 }) },
      { weight: 1, arbitrary: fc.array(lineArbitrary, { minLength: 25, maxLength: 45 }) },
    ),
    supplied: fc.boolean(),
    rateIndex: fc.nat(),
    notes: fc.option(textArbitrary(300), { nil: null }),
  })
  .map(({ kind, counter, day, seller, buyer, lines, supplied, rateIndex, notes }) => {
    const rates = suppliedRates[seller.postalCode];
    const date = new Date(Date.UTC(2026, 0, 1 + day)).toISOString().slice(0, 10);
    return {
      kind,
      number: `${kind === 'invoice' ? 'F' : 'A'}${date.slice(0, 4)}-${String(counter).padStart(6, '0')}`,
      issueDate: date,
      seller,
      buyer,
      lines:
        supplied && rates && seller.regime === 'normal'
          ? lines.map((line, index) => ({ ...line, rate: rates[(rateIndex + index) % rates.length]! }))
          : lines,
      notes,
    };
  });

/** The document of a spec, or null when the tax engine refuses the operation. */
export function documentOf(spec: DocumentSpec): DocumentModel | null {
  try {
    return engineDocument(spec);
  } catch (error) {
    if (error instanceof ApiError) return null;
    if (error instanceof Error && error.message.startsWith('decision not taken')) return null;
    throw error;
  }
}

/**
 * `count` documents the engine decides and `accept` keeps, the same ones for the same seed; the
 * ones `accept` refuses are returned apart.
 */
export function corpus(
  count: number,
  seed = 20261124,
  accept: (model: DocumentModel) => boolean = () => true,
): {
  documents: { spec: DocumentSpec; model: DocumentModel }[];
  refused: { spec: DocumentSpec; model: DocumentModel }[];
} {
  const found: { spec: DocumentSpec; model: DocumentModel }[] = [];
  const refused: { spec: DocumentSpec; model: DocumentModel }[] = [];
  let round = 0;
  while (found.length < count) {
    for (const spec of fc.sample(specArbitrary, { numRuns: count, seed: seed + round++ })) {
      const model = documentOf(spec);
      if (model) (accept(model) ? found : refused).push({ spec, model });
      if (found.length === count) break;
    }
    if (round > 50) throw new Error(`only ${found.length} documents of ${count} after ${round} rounds`);
  }
  return { documents: found, refused };
}
