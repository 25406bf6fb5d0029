import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.js';
import { eventTypes, isEventType } from '../../webhooks/event-types.js';
import {
  getEventWithDeliveries,
  listEventsByDelivery,
  retryEvent,
  withDeliveries,
  type EventWithDeliveries,
} from '../../webhooks/service.js';
import { callContextOf, pageOf, type Env, type Page } from '../context.js';
import { formOf } from '../form.js';
import { html, type Html } from '../../http/html.js';
import { csrfField, formatTime, layout, noticeOf } from '../layout.js';

const pageSize = 25;
const deliveryStates = { delivered: true, undelivered: false } as const;
type DeliveryState = keyof typeof deliveryStates;

interface ListQuery {
  type?: string;
  delivery?: string;
  starting_after?: string;
}

/** An event's delivery state in one word, from its endpoints' latest generations. */
function stateOf(event: EventWithDeliveries): 'delivered' | 'failed' | 'pending' | 'no endpoint' {
  if (event.endpoints.length === 0) return 'no endpoint';
  if (event.delivered) return 'delivered';
  return event.endpoints.some((endpoint) => endpoint.state === 'pending') ? 'pending' : 'failed';
}

function stateTag(state: ReturnType<typeof stateOf>): Html {
  const tone = state === 'delivered' ? 'active' : state === 'failed' ? 'revoked' : 'pending';
  return html`<span class="status status-${tone}">${state}</span>`;
}

function filters(page: Page, type: string | undefined, delivery: DeliveryState | undefined): Html {
  return html`<form method="get" action="${page.base}/events" class="filters">
  <label for="type">Type</label>
  <select id="type" name="type"><option value="">All types</option>${eventTypes.map((t) => html`<option${t === type ? html` selected` : null}>${t}</option>`)}</select>
  <label for="delivery">Delivery</label>
  <select id="delivery" name="delivery">
    <option value="">Any</option>
    <option value="delivered"${delivery === 'delivered' ? html` selected` : null}>Delivered everywhere</option>
    <option value="undelivered"${delivery === 'undelivered' ? html` selected` : null}>Not delivered somewhere</option>
  </select>
  <button type="submit">Filter</button>
</form>`;
}

export async function eventPages(app: FastifyInstance, { deps, env }: { deps: Deps; env: Env }): Promise<void> {
  app.get('/events', async (request, reply) => {
    const page = pageOf(request, env);
    const query = request.query as ListQuery;
    const type = query.type && isEventType(query.type) ? query.type : undefined;
    const delivery = query.delivery === 'delivered' || query.delivery === 'undelivered' ? query.delivery : undefined;
    const list = await listEventsByDelivery(
      deps,
      page.scope,
      { limit: pageSize, startingAfter: query.starting_after || undefined },
      {
        type,
        delivered: delivery === undefined ? undefined : deliveryStates[delivery],
      },
    );
    const detailed = await Promise.all(list.data.map((event) => withDeliveries(deps, page.scope, event)));
    const keep = new URLSearchParams({ ...(type ? { type } : {}), ...(delivery ? { delivery } : {}) });
    const rows = detailed.map(
      (event) => html`<tr data-event="${event.id}">
  <td>${formatTime(event.created)}</td><td><code>${event.type}</code></td>
  <td><a href="${page.base}/events/${event.id}">${event.id}</a></td><td>${stateTag(stateOf(event))}</td></tr>`,
    );
    const more =
      list.has_more && list.next_cursor
        ? html`<a href="${page.base}/events?${new URLSearchParams([...keep, ['starting_after', list.next_cursor]]).toString()}" rel="next">Older events →</a>`
        : null;
    const first = query.starting_after
      ? html`<a href="${page.base}/events?${keep.toString()}">← Newest events</a>`
      : null;
    const content = html`${filters(page, type, delivery)}
${
  detailed.length === 0
    ? html`<p class="muted">No event${type || delivery ? ' matches these filters' : ' yet'}.</p>`
    : html`<div class="table-wrap"><table><thead><tr><th>Created</th><th>Type</th><th>Event</th><th>Delivery</th></tr></thead><tbody>${rows}</tbody></table></div>`
}
<p class="pager">${first} ${more}</p>`;
    return reply
      .type('text/html; charset=utf-8')
      .send(layout(page, { title: 'Events', section: 'events', notice: noticeOf(request.query) }, content));
  });

  app.get('/events/:id', async (request, reply) => {
    const page = pageOf(request, env);
    const event = await getEventWithDeliveries(deps, page.scope, (request.params as { id: string }).id);
    const { deliveries, attemptCount, generation, nextRetry, delivered, endpoints, ...envelope } = event;
    const replayAction = `${page.base}/events/${event.id}/replay`;
    const endpointRows = endpoints.map(
      (endpoint) => html`<tr data-endpoint="${endpoint.endpointId}">
  <td><a href="${page.base}/webhooks/${endpoint.endpointId}">${endpoint.endpointId}</a></td><td>${endpoint.generation}</td>
  <td>${stateTag(endpoint.state === 'delivered' ? 'delivered' : endpoint.state === 'failed' ? 'failed' : 'pending')}</td>
  <td>${endpoint.attemptCount}</td><td>${formatTime(endpoint.nextRetry)}</td>
  <td><form method="post" action="${replayAction}" class="inline">${csrfField(page)}<input type="hidden" name="endpoint" value="${endpoint.endpointId}"><button type="submit">Replay to this endpoint</button></form></td></tr>`,
    );
    const attemptRows = deliveries.map(
      (
        attempt,
      ) => html`<tr class="${attempt.status !== null && attempt.status >= 200 && attempt.status < 300 ? 'ok' : 'failed'}">
  <td>${formatTime(attempt.created)}</td><td><code>${attempt.endpointId}</code></td><td>${attempt.generation}</td><td>${attempt.attempt}</td>
  <td>${attempt.status ?? html`<span class="muted">none</span>`}</td><td>${attempt.durationMs} ms</td><td>${attempt.error ?? ''}</td></tr>`,
    );
    const content = html`<dl class="facts">
  <dt>Event</dt><dd><code>${event.id}</code></dd>
  <dt>Type</dt><dd><code>${event.type}</code></dd>
  <dt>Created</dt><dd>${formatTime(event.created)}</dd>
  <dt>API version</dt><dd>${event.apiVersion}</dd>
  <dt>Delivery</dt><dd>${stateTag(stateOf(event))} generation ${generation}, ${attemptCount} attempt(s) in it${nextRetry ? html`, next retry ${formatTime(nextRetry)}` : null}</dd>
</dl>
<div class="actions"><form method="post" action="${replayAction}" class="inline">${csrfField(page)}<button type="submit">Replay to every failed endpoint</button></form>
<a href="${page.base}/events/${event.id}">Reload</a></div>
<h2>Endpoints</h2>
${
  endpoints.length === 0
    ? html`<p class="muted">No endpoint was subscribed to this event.</p>`
    : html`<div class="table-wrap"><table id="endpoints"><thead><tr><th>Endpoint</th><th>Generation</th><th>State</th><th>Attempts</th><th>Next retry</th><th></th></tr></thead><tbody>${endpointRows}</tbody></table></div>`
}
<h2>Attempts</h2>
${
  deliveries.length === 0
    ? html`<p class="muted">No attempt yet.</p>`
    : html`<div class="table-wrap"><table id="attempts"><thead><tr><th>Time</th><th>Endpoint</th><th>Generation</th><th>Attempt</th><th>Status</th><th>Duration</th><th>Error</th></tr></thead><tbody>${attemptRows}</tbody></table></div>`
}
<h2>Payload</h2>
<pre class="payload" id="payload">${JSON.stringify(envelope, null, 2)}</pre>`;
    return reply
      .type('text/html; charset=utf-8')
      .send(
        layout(page, { title: `Event ${event.type}`, section: 'events', notice: noticeOf(request.query) }, content),
      );
  });

  app.post('/events/:id/replay', async (request, reply) => {
    const page = pageOf(request, env);
    const id = (request.params as { id: string }).id;
    const endpointId = formOf(request).text('endpoint');
    const before = await getEventWithDeliveries(deps, page.scope, id);
    const after = await retryEvent(deps, callContextOf(deps, request, page), id, endpointId);
    const replayed = after.endpoints.some(
      (e) => e.generation > (before.endpoints.find((b) => b.endpointId === e.endpointId)?.generation ?? 0),
    );
    return reply.redirect(`${page.base}/events/${id}?notice=${replayed ? 'replayed' : 'nothing_to_replay'}`, 303);
  });
}
