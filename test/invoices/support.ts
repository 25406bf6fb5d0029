import { equipSeller, startHarness, type Harness } from '../support/harness.js';
import { createCompany } from '../../src/companies/service.js';

/**
 * Helpers of the document tests: a seller whose SIREN is known (self-invoicing), its tax
 * profile, customers, tax decisions that match a document's lines, and finalized invoices.
 */

export const sellerSiren = '100000009';

export const sellerProfile = {
  validFrom: '2024-01-01',
  establishment: { siret: '10000000900017', postalCode: '75008', country: 'FR' },
  vatNumber: 'FR88100000009',
  regime: 'normal',
  vatOnDebits: false,
  ossRegistered: true,
  ereportingPeriodicity: 'monthly',
};

/** A French business buyer (SIREN 732829320), disclosed. */
export const frenchBuyer = {
  type: 'company',
  name: 'Atelier Lumière SAS',
  email: 'compta@atelier.example',
  siret: '73282932000017',
  vatNumber: 'FR44732829320',
  address: { line1: '12 rue de la Paix', postalCode: '75002', city: 'Paris', country: 'FR' },
};

export const consumerBuyer = {
  type: 'individual',
  name: 'Camille Martin',
  // BR-FR-12: a document names the buyer's electronic address or e-mail.
  email: 'camille.martin@example.com',
  address: { line1: '8 place Bellecour', postalCode: '69002', city: 'Lyon', country: 'FR' },
};

export const chair = { description: 'Chaise en chêne', quantity: '2', unitPrice: '149.00', nature: 'goods' };
export const advice = { description: 'Conseil', quantity: '3', unitPrice: '90', nature: 'services' };

export interface Seller {
  companyId: string;
  key: string;
}

/** A company with the known SIREN, a key of the environment, and a tax profile. */
export async function seller(h: Harness, options: { env?: 'test' | 'live'; plan?: string } = {}): Promise<Seller> {
  const company = await createCompany(h.deps, { name: 'Vendeur SAS', siren: sellerSiren, plan: options.plan ?? 'pro' });
  await equipSeller(h.deps, company.id, company.siren);
  const key = await h.key(company.id, { env: options.env ?? 'test' });
  const profile = await h.call('POST', '/v1/tax-profiles', { key, body: sellerProfile });
  if (profile.statusCode !== 201) throw new Error(`tax profile: ${profile.body}`);
  return { companyId: company.id, key };
}

export async function customer(h: Harness, key: string, body: Record<string, unknown> = frenchBuyer): Promise<string> {
  const response = await h.call('POST', '/v1/customers', { key, body });
  if (response.statusCode !== 201) throw new Error(`customer: ${response.body}`);
  return response.data.id;
}

export const today = (h: Harness) => h.clock.now().toISOString().slice(0, 10);

type Party = { customerId: string } | { customer: Record<string, unknown> };

/** A tax decision on these lines for this buyer (`customer` is the inline buyer as the decision takes it). */
export async function decision(
  h: Harness,
  key: string,
  party: Party,
  lines: Record<string, unknown>[] = [chair],
  extra: Record<string, unknown> = {},
): Promise<any> {
  const body = { taxSource: 'service', date: today(h), currency: 'EUR', ...party, lines, ...extra };
  const response = await h.call('POST', '/v1/tax-decisions', { key, body });
  if (response.statusCode !== 201) throw new Error(`decision: ${response.body}`);
  return response.data;
}

/** The decision's inline customer for an inline buyer (what the engine reads of it). */
export const asDecisionCustomer = (buyer: Record<string, any>) => ({
  type: buyer.type ?? 'company',
  ...(buyer.vatNumber ? { vatNumber: buyer.vatNumber } : {}),
  ...(buyer.address ? { address: { postalCode: buyer.address.postalCode, country: buyer.address.country } } : {}),
});

/** A draft with its decision, ready to finalize. */
export async function readyDraft(
  h: Harness,
  key: string,
  options: { customerId?: string; lines?: Record<string, unknown>[]; body?: Record<string, unknown> } = {},
): Promise<any> {
  const lines = options.lines ?? [chair];
  const customerId = options.customerId ?? (await customer(h, key));
  const taken = await decision(h, key, { customerId }, lines);
  const response = await h.call('POST', '/v1/invoices', {
    key,
    body: { customerId, lines, taxDecisionId: taken.id, ...options.body },
  });
  if (response.statusCode !== 201) throw new Error(`draft: ${response.body}`);
  return response.data;
}

export async function finalizedInvoice(
  h: Harness,
  key: string,
  options: Parameters<typeof readyDraft>[2] = {},
): Promise<any> {
  const draft = await readyDraft(h, key, options);
  const response = await h.call('POST', `/v1/invoices/${draft.id}/finalize`, { key });
  if (response.statusCode !== 200) throw new Error(`finalize: ${response.body}`);
  return response.data;
}

export async function eventsOf(h: Harness, key: string, type?: string): Promise<any[]> {
  const response = await h.call('GET', `/v1/events?limit=100${type ? `&type=${type}` : ''}`, { key });
  return response.data.data;
}

/**
 * A harness on a sandbox clock that moves one second before each request, so that what
 * successive requests create (documents, events) lists in their order.
 */
export async function documentHarness(): Promise<Harness> {
  const h = await startHarness({ clockStart: '2026-10-15T10:00:00Z' });
  const call = h.call.bind(h);
  h.call = (...args) => {
    h.clock.advance(1000);
    return call(...args);
  };
  return h;
}

/** A finalized credit note of all of `invoice`, on its own tax decision. */
export async function finalizedCreditNote(h: Harness, key: string, invoice: any): Promise<any> {
  const lines = invoice.lines.map((l: any) => ({
    description: l.description,
    quantity: l.quantity,
    unitPrice: l.unitPrice,
    nature: l.nature,
  }));
  const taken = await decision(h, key, { customerId: invoice.customerId }, lines);
  const draft = await h.call('POST', '/v1/credit-notes', {
    key,
    body: { relatedInvoiceId: invoice.id, taxDecisionId: taken.id },
  });
  if (draft.statusCode !== 201) throw new Error(`credit note: ${draft.body}`);
  const finalized = await h.call('POST', `/v1/credit-notes/${draft.data.id}/finalize`, { key });
  if (finalized.statusCode !== 200) throw new Error(`credit note finalize: ${finalized.body}`);
  return finalized.data;
}

export { pageTexts } from '../support/pdf-text.js';
