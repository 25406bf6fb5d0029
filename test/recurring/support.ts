import assert from 'node:assert/strict';
import type { Harness } from '../support/harness.js';
import { dayOf, addDays } from '../../src/kernel/calendar.js';

/** Helpers of the recurring-invoice tests: a template, the sandbox clock moved to a run. */

export const advice = { description: 'Conseil mensuel', quantity: '2', unitPrice: '90', nature: 'services' };

/** The day after the harness's today: templates starting then are due only when a clock gets there. */
export const tomorrow = (h: Harness) => addDays(dayOf(h.clock.now()), 1);

/** A recurring invoice, created (201) or the test fails with the answer. */
export async function recurring(h: Harness, key: string, body: Record<string, unknown>): Promise<any> {
  const response = await h.call('POST', '/v1/recurring-invoices', {
    key,
    body: { interval: 'monthly', lines: [advice], startDate: tomorrow(h), ...body },
  });
  assert.equal(response.statusCode, 201, response.body);
  return response.data;
}

/** Moves the company's sandbox clock to one second after `instant` (the runs then due happen in the request). */
export async function advanceTo(h: Harness, key: string, instant: string): Promise<void> {
  const clock = await h.call('GET', '/v1/sandbox/clock', { key });
  // At least a second: the advance is what runs the pass, even for a period already due.
  const seconds = Math.max(1, Math.ceil((Date.parse(instant) - Date.parse(clock.data.now)) / 1000) + 1);
  const moved = await h.call('POST', '/v1/sandbox/clock/advance', { key, body: { seconds } });
  assert.equal(moved.statusCode, 200, moved.body);
}

export async function generated(h: Harness, key: string, id: string): Promise<any[]> {
  const response = await h.call('GET', `/v1/recurring-invoices/${id}/invoices?limit=100`, { key });
  assert.equal(response.statusCode, 200, response.body);
  return response.data.data;
}

export async function eventsOf(h: Harness, key: string, type: string): Promise<any[]> {
  const response = await h.call('GET', `/v1/events?limit=100&type=${type}`, { key });
  return response.data.data;
}
