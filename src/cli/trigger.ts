import { refuse } from '../kernel/errors.js';
import type { ServiceClient } from './service-client.js';

/**
 * `facteur trigger <type>`: the test-mode action that emits that event, through the API as an
 * integration would call it. The customers' three events need nothing else of the company; the
 * others need a document history (`ping` an endpoint of its own): the dashboard and the API do those.
 */
const triggers: Record<string, (client: ServiceClient) => Promise<{ id: string }>> = {
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
};

export const triggerableEventTypes = Object.keys(triggers);

function newCustomer(client: ServiceClient): Promise<{ id: string }> {
  return client.call('POST', '/v1/customers', {
    name: 'Client facteur trigger',
    metadata: { source: 'facteur trigger' },
  });
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
