import { refuse } from '../kernel/errors.js';
import type { ServiceClient } from './service-client.js';

/**
 * `facteur trigger <type>`: the test-mode calls that emit that event, through the API as an
 * integration would make them (the README's quick start): a customer; for a document, the
 * company's tax profile when it has none, a tax decision, the draft, and as far along its life as
 * the event needs (finalize, send, a payment of the whole). Each run acts on objects of its own.
 */
type Trigger = (client: ServiceClient) => Promise<{ id: string }>;

const triggers: Record<string, Trigger> = {
  'customer.created': (client) => newCustomer(client),
  'customer.updated': async (client) => {
    const customer = await newCustomer(client);
    return client.call('POST', `/v1/customers/${customer.id}`, { name: 'Client facteur trigger (updated)' });
  },
  'customer.deleted': async (client) => {
    const customer = await newCustomer(client);
    await client.call('DELETE', `/v1/customers/${customer.id}`);
    return customer;
  },
  'invoice.created': (client) => draftInvoice(client),
  'invoice.finalized': (client) => finalizedInvoice(client),
  'invoice.sent': async (client) => {
    const invoice = await finalizedInvoice(client);
    return client.call('POST', `/v1/invoices/${invoice.id}/send`);
  },
  'invoice.paid': (client) => paidInvoice(client),
  'payment.created': async (client) => (await paidInvoice(client)).payment,
  'credit_note.created': async (client) => {
    const invoice = await finalizedInvoice(client);
    return client.call('POST', '/v1/credit-notes', {
      relatedInvoiceId: invoice.id,
      metadata: { source: 'facteur trigger' },
    });
  },
  'quote.created': async (client) => {
    const customer = await newCustomer(client);
    return client.call('POST', '/v1/quotes', {
      customerId: customer.id,
      lines,
      metadata: { source: 'facteur trigger' },
    });
  },
};

export const triggerableEventTypes = Object.keys(triggers);

/** The documents' one line: a domestic B2B service at 20 % (324.00 EUR with its VAT, as the quick start's). */
const lines = [{ description: 'Conseil en organisation', quantity: '3', unitPrice: '90.00', nature: 'services' }];

/**
 * The buyer: a French business the sandbox's directory knows (any SIRET with valid check digits),
 * the second one when the company is the first (a document to one's own SIREN is refused).
 */
const buyers = [
  { siren: '404833048', siret: '40483304800014', vatNumber: 'FR83404833048' },
  { siren: '531938264', siret: '53193826400011', vatNumber: 'FR01531938264' },
];

function newCustomer(client: ServiceClient, buyer?: (typeof buyers)[number]): Promise<{ id: string }> {
  return client.call('POST', '/v1/customers', {
    name: 'Client facteur trigger',
    metadata: { source: 'facteur trigger' },
    ...(buyer
      ? {
          siret: buyer.siret,
          vatNumber: buyer.vatNumber,
          address: { line1: '12 rue de la Paix', postalCode: '75002', city: 'Paris', country: 'FR' },
        }
      : {}),
  });
}

/**
 * The company's tax profile, which every tax decision reads; a company without one (a fresh demo
 * company) gets one for its default establishment: normal regime, VAT on receipts, monthly.
 */
async function ensureTaxProfile(
  client: ServiceClient,
  account: { siren: string; company: { vatNumber: string | null } },
): Promise<void> {
  const profiles = await client.call('GET', '/v1/tax-profiles');
  if (profiles.data.length > 0) return;
  const establishments = await client.call('GET', '/v1/establishments');
  const establishment =
    establishments.data.find((candidate: { isDefault: boolean }) => candidate.isDefault) ?? establishments.data[0];
  if (!establishment)
    throw refuse('not_found', 'The company has no establishment: create one (POST /v1/establishments) first.');
  await client.call('POST', '/v1/tax-profiles', {
    validFrom: '2024-01-01',
    establishment: {
      siret: establishment.siret,
      postalCode: establishment.address?.postalCode ?? '75002',
      country: establishment.address?.country ?? 'FR',
    },
    // The French VAT number of the SIREN (key (12 + 3 x (SIREN mod 97)) mod 97) when the identity has none.
    vatNumber:
      account.company.vatNumber ??
      `FR${String((12 + 3 * (Number(account.siren) % 97)) % 97).padStart(2, '0')}${account.siren}`,
    regime: 'normal',
    vatOnDebits: false,
    ossRegistered: false,
    ereportingPeriodicity: 'monthly',
  });
}

async function draftInvoice(client: ServiceClient): Promise<{ id: string }> {
  const account = await client.call('GET', '/v1/account');
  await ensureTaxProfile(client, account);
  const customer = await newCustomer(
    client,
    buyers.find((buyer) => buyer.siren !== account.siren),
  );
  const decision = await client.call('POST', '/v1/tax-decisions', {
    taxSource: 'service',
    date: new Date().toISOString().slice(0, 10),
    currency: 'EUR',
    customerId: customer.id,
    lines,
  });
  return client.call('POST', '/v1/invoices', {
    customerId: customer.id,
    taxDecisionId: decision.id,
    lines,
    metadata: { source: 'facteur trigger' },
  });
}

async function finalizedInvoice(client: ServiceClient): Promise<{ id: string; amountDue: number }> {
  const draft = await draftInvoice(client);
  return client.call('POST', `/v1/invoices/${draft.id}/finalize`);
}

/** A finalized invoice paid in full by transfer: `payment.created`, `payment.received`, `invoice.paid`. */
async function paidInvoice(client: ServiceClient): Promise<{ id: string; payment: { id: string } }> {
  const invoice = await finalizedInvoice(client);
  const payment = await client.call('POST', '/v1/payments', {
    invoiceId: invoice.id,
    amount: invoice.amountDue,
    method: 'transfer',
  });
  return { id: invoice.id, payment };
}

export async function trigger(client: ServiceClient, type: string | undefined): Promise<unknown> {
  const action = type ? triggers[type] : undefined;
  if (!type || !action)
    throw refuse(
      'invalid_field_value',
      `${type ? `"${type}" cannot be triggered from the command line` : 'Name the event type'}; one of: ${triggerableEventTypes.join(', ')}.`,
      { param: 'type' },
    );
  const object = await action(client);
  return { triggered: type, livemode: false, object: object.id };
}
