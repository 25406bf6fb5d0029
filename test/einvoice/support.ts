import type { DocumentAdjustmentInput } from '../../src/kernel/document-adjustments.js';
import { lineFigures, type LineAdjustmentInput } from '../../src/kernel/line-adjustments.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  documentModelOf,
  paymentNotes,
  type DocumentModel,
  type SellerBlock,
} from '../../src/einvoice/document-model.js';
import { resolveBuyer } from '../../src/tax/buyer.js';
import { conclude, prepare, type Operation, type Seller } from '../../src/tax/engine.js';
import { vatTerritoryOf } from '../../src/tax/vat-territory.js';

/** Where the tests cache the compiled stylesheets (shared by the test processes of one machine). */
export const testCacheDir = process.env.FACTEUR_TEST_SEF_CACHE ?? join(tmpdir(), 'facteur-sef-cache');

/** A plain domestic B2B invoice: two services at 20 %, one good at 5.5 %, VAT on debits. */
export function sampleInvoice(overrides: Partial<DocumentModel> = {}): DocumentModel {
  return {
    typeCode: '380',
    number: 'F2026-000001',
    issueDate: '2026-11-24',
    dueDate: '2026-12-24',
    deliveryDate: '2026-11-20',
    currency: 'EUR',
    precedingInvoice: null,
    billingFrame: 'M1',
    vatOnDebits: true,
    processing: 'B2B',
    paymentTerms: 'Paiement à 30 jours, par virement.',
    paymentMeansCode: '58',
    notes: [
      ...paymentNotes({ buyerType: 'company' }),
      { subject: 'REG', text: "Option pour le paiement de la taxe d'après les débits" },
    ],
    seller: {
      legalName: 'Atelier Dupont & Fils',
      tradeName: 'Dupont <Ateliers>',
      legalForm: 'SAS',
      shareCapital: '10000',
      siren: '732829320',
      siret: '73282932000074',
      vatNumber: 'FR44732829320',
      registration: { kind: 'RCS', place: 'Paris' },
      address: { line1: '12 rue de la Paix', line2: null, postalCode: '75002', city: 'Paris', country: 'FR' },
      electronicAddress: '732829320_FACTURES',
      contact: { name: 'Marie Dupont', email: 'compta@dupont.example', phone: '+33 1 23 45 67 89' },
      iban: 'FR7630006000011234567890189',
      bic: 'AGRIFRPP',
    },
    buyer: {
      type: 'company',
      name: 'Société Générale des Études',
      siren: '552120222',
      siret: '55212022200013',
      vatNumber: 'FR27552120222',
      electronicAddress: '552120222',
      routingCode: 'SERVICE-ACHATS',
      email: null,
      address: {
        line1: '29 boulevard Haussmann',
        line2: 'Bâtiment B',
        postalCode: '75009',
        city: 'Paris',
        country: 'FR',
      },
      deliveryAddress: {
        line1: '1 quai de Seine',
        line2: null,
        postalCode: '93200',
        city: 'Saint-Denis',
        country: 'FR',
      },
    },
    lines: [
      {
        id: '1',
        description: 'Conseil en organisation (journées)',
        quantity: '2.5',
        unitCode: 'DAY',
        unitPrice: '800',
        netAmount: 200000,
        vatCode: 'S',
        vatRate: '20.00',
        vatexCode: null,
      },
      {
        id: '2',
        description: 'Formation « Factur-X » — support imprimé',
        quantity: '3',
        unitCode: 'C62',
        unitPrice: '12.345',
        netAmount: 3704,
        vatCode: 'S',
        vatRate: '5.50',
        vatexCode: null,
      },
      {
        id: '3',
        description: 'Déplacement',
        quantity: '1',
        unitCode: 'C62',
        unitPrice: '150.00',
        netAmount: 15000,
        vatCode: 'S',
        vatRate: '20.00',
        vatexCode: null,
      },
    ],
    vatBreakdown: [
      {
        vatCode: 'S',
        vatRate: '20.00',
        vatexCode: null,
        exemptionReason: null,
        taxableAmount: 215000,
        taxAmount: 43000,
      },
      { vatCode: 'S', vatRate: '5.50', vatexCode: null, exemptionReason: null, taxableAmount: 3704, taxAmount: 204 },
    ],
    totals: { net: 218704, vat: 43204, gross: 261908, paid: 0, due: 261908 },
    ...overrides,
  };
}

/** A seller establishment and regime for the engine-driven documents below. */
export interface SellerSpec {
  postalCode: string;
  city: string;
  regime: 'normal' | 'franchise';
  vatOnDebits: boolean;
}

export interface BuyerSpec {
  type: 'company' | 'individual';
  name: string;
  country: string;
  postalCode: string;
  city: string;
  siren?: string | null;
  vatNumber?: string | null;
  email?: string | null;
  delivery?: { country: string; postalCode: string; city: string } | null;
}

export interface LineSpec {
  description: string;
  quantity: string;
  unitPrice: string;
  unit: string;
  nature: 'goods' | 'services' | 'electronic_service';
  /** `taxSource: service` asks a category; otherwise the rate is supplied (integration), category S. */
  rate?: string;
  /** BG-27 / BG-28, as the API takes them. */
  allowances?: LineAdjustmentInput[];
  charges?: LineAdjustmentInput[];
}

export interface DocumentSpec {
  kind: 'invoice' | 'credit_note';
  number: string;
  issueDate: string;
  seller: SellerSpec;
  buyer: BuyerSpec;
  lines: LineSpec[];
  notes?: string | null;
  /** BG-20 / BG-21, as the API takes them. */
  allowances?: DocumentAdjustmentInput[];
  charges?: DocumentAdjustmentInput[];
}

const sellerIdentity = (spec: SellerSpec): SellerBlock => ({
  legalName: 'Atelier Dupont & Fils',
  tradeName: null,
  legalForm: spec.regime === 'franchise' ? 'EI' : 'SAS',
  shareCapital: spec.regime === 'franchise' ? null : '10000',
  siren: '732829320',
  siret: '73282932000074',
  vatNumber: spec.regime === 'franchise' ? null : 'FR44732829320',
  registration: { kind: spec.regime === 'franchise' ? 'RM' : 'RCS', place: spec.city },
  address: { line1: '12 rue de la Paix', line2: null, postalCode: spec.postalCode, city: spec.city, country: 'FR' },
  electronicAddress: '732829320_FACTURES',
  contact: { name: null, email: 'compta@dupont.example', phone: null },
  iban: 'FR7630006000011234567890189',
  bic: 'AGRIFRPP',
});

/**
 * A finalized document as the service would make it: the tax engine decides the lines (prepare,
 * then conclude; an EU B2C distance sale is taken under the threshold), then `documentModelOf`.
 */
export function engineDocument(spec: DocumentSpec): DocumentModel {
  const territory = vatTerritoryOf('FR', spec.seller.postalCode);
  if (!territory.ok || !territory.territory.frenchVat || territory.territory.frenchVat === 'suspended')
    throw new Error(`no French VAT at ${spec.seller.postalCode}`);
  const seller: Seller = {
    profileId: 'txp_test',
    place: { territory: territory.territory, area: territory.territory.frenchVat },
    regime: spec.seller.regime,
    vatNumber: spec.seller.regime === 'franchise' ? null : 'FR44732829320',
    vatOnDebits: spec.seller.vatOnDebits,
    ossRegistered: true,
    ereportingPeriodicity: 'monthly',
  };
  const address = { country: spec.buyer.country, postalCode: spec.buyer.postalCode };
  const buyer = resolveBuyer({
    type: spec.buyer.type,
    vatNumber: spec.buyer.vatNumber ?? null,
    address,
    deliveryAddress: spec.buyer.delivery
      ? { country: spec.buyer.delivery.country, postalCode: spec.buyer.delivery.postalCode }
      : null,
  });
  const integration = spec.lines.some((line) => line.rate !== undefined);
  const operation: Operation = {
    taxSource: integration ? 'integration' : 'service',
    date: spec.issueDate,
    currency: 'EUR',
    locationEvidence: [],
    allowances: spec.allowances,
    charges: spec.charges,
    lines: spec.lines.map((line) => ({
      description: line.description,
      quantity: line.quantity,
      unitPrice: line.unitPrice,
      nature: line.nature,
      ...(line.allowances ? { allowances: line.allowances } : {}),
      ...(line.charges ? { charges: line.charges } : {}),
      ...(integration
        ? { vatCode: 'S', vatRate: line.rate ?? '20', vatexCode: null }
        : { rateCategory: 'standard' as const }),
    })),
  };
  const prepared = prepare(operation, seller, buyer);
  const concluded = conclude(operation, seller, buyer, prepared, prepared.needsLedger ? { position: 'origin' } : null);
  if (concluded.status !== 'final') throw new Error(`decision not taken: ${JSON.stringify(concluded.reasons)}`);
  const axes = concluded.axes;
  const siren = spec.buyer.siren ?? null;
  return documentModelOf({
    kind: spec.kind,
    number: spec.number,
    issueDate: spec.issueDate,
    dueDate: spec.kind === 'invoice' ? addDays(spec.issueDate, 30) : null,
    deliveryDate: null,
    paymentTerms: spec.kind === 'invoice' ? 'Paiement à 30 jours.' : null,
    notes: spec.notes ?? null,
    amountPaid: 0,
    allowances: prepared.adjustments.allowances,
    charges: prepared.adjustments.charges,
    precedingInvoice: spec.kind === 'credit_note' ? { number: 'F2026-000001', issueDate: '2026-01-15' } : null,
    seller: sellerIdentity(spec.seller),
    buyer: {
      type: spec.buyer.type,
      name: spec.buyer.name,
      siren,
      siret: null,
      vatNumber: spec.buyer.vatNumber ?? null,
      electronicAddress: siren && spec.buyer.country === 'FR' ? `${siren}_FACT` : null,
      routingCode: null,
      email: spec.buyer.email ?? (spec.buyer.type === 'company' ? 'factures@client.example' : null),
      address: {
        line1: '3 avenue du Client',
        line2: null,
        postalCode: spec.buyer.postalCode,
        city: spec.buyer.city,
        country: spec.buyer.country,
      },
      deliveryAddress: spec.buyer.delivery
        ? { line1: '1 quai des Livraisons', line2: null, ...spec.buyer.delivery }
        : null,
    },
    lines: concluded.lines.map((line, index) => ({
      description: line.description,
      quantity: line.quantity,
      unitPrice: line.unitPrice,
      unit: spec.lines[index]!.unit,
      nature: line.nature,
      vatCode: line.vatCode,
      vatRate: line.vatRate,
      vatexCode: line.vatexCode,
      // The engine's net (BT-131) and the allowances and charges it was computed from.
      ...lineFigures(line.quantity, line.unitPrice, spec.lines[index]!, `lines[${index}]`),
    })),
    tax: {
      vatBreakdown: concluded.vatBreakdown,
      mentions: concluded.mentions,
      obligations: axes as unknown as Record<string, { state: string; reason: string }>,
    },
  });
}

export function addDays(isoDate: string, days: number): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

export const sellers = {
  paris: { postalCode: '75002', city: 'Paris', regime: 'normal', vatOnDebits: false },
  parisDebits: { postalCode: '75002', city: 'Paris', regime: 'normal', vatOnDebits: true },
  corsica: { postalCode: '20000', city: 'Ajaccio', regime: 'normal', vatOnDebits: false },
  guadeloupe: { postalCode: '97110', city: 'Pointe-à-Pitre', regime: 'normal', vatOnDebits: false },
  franchise: { postalCode: '69001', city: 'Lyon', regime: 'franchise', vatOnDebits: false },
} satisfies Record<string, SellerSpec>;

export const buyers = {
  domestic: {
    type: 'company',
    name: 'Société Générale des Études',
    country: 'FR',
    postalCode: '75009',
    city: 'Paris',
    siren: '552120222',
    vatNumber: 'FR27552120222',
  },
  corsica: {
    type: 'company',
    name: 'Corsica Ferries Éléments',
    country: 'FR',
    postalCode: '20090',
    city: 'Ajaccio',
    siren: '552100554',
    vatNumber: 'FR96552100554',
  },
  martinique: {
    type: 'company',
    name: 'Habitation Clément',
    country: 'FR',
    postalCode: '97200',
    city: 'Fort-de-France',
    siren: '552100554',
    vatNumber: null,
  },
  germany: {
    type: 'company',
    name: 'Müller & Söhne GmbH',
    country: 'DE',
    postalCode: '10115',
    city: 'Berlin',
    vatNumber: 'DE136695976',
  },
  greece: {
    type: 'company',
    name: 'Αθηναϊκή Εμπορική Α.Ε.',
    country: 'GR',
    postalCode: '10431',
    city: 'Αθήνα',
    vatNumber: 'EL094259216',
  },
  swiss: { type: 'company', name: 'Zürcher Uhren AG', country: 'CH', postalCode: '8001', city: 'Zürich' },
  russia: { type: 'company', name: 'ООО «Северный ветер»', country: 'RU', postalCode: '101000', city: 'Москва' },
  consumer: {
    type: 'individual',
    name: 'Zoë Ľubomírová-Øster',
    country: 'FR',
    postalCode: '13001',
    city: 'Marseille',
    email: 'zoe@example.org',
  },
} satisfies Record<string, BuyerSpec>;
