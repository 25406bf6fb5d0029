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

function stateTag(page: Page, state: ReturnType<typeof stateOf>): Html {
  const tone = state === 'delivered' ? 'active' : state === 'failed' ? 'revoked' : 'pending';
  return html`<span data-state="${state}" class="status status-${tone}">${page.m.eventState[state]}</span>`;
}

function filters(page: Page, type: string | undefined, delivery: DeliveryState | undefined): Html {
  const { m } = page;
  return html`<form method="get" action="${page.base}/events" class="filters">
  <label for="type">${m.type}</label>
  <select id="type" name="type"><option value="">${m.allTypes}</option>${eventTypes.map((t) => html`<option${t === type ? html` selected` : null}>${t}</option>`)}</select>
  <label for="delivery">${m.delivery}</label>
  <select id="delivery" name="delivery">
    <option value="">${m.any}</option>
    <option value="delivered"${delivery === 'delivered' ? html` selected` : null}>${m.deliveredEverywhere}</option>
    <option value="undelivered"${delivery === 'undelivered' ? html` selected` : null}>${m.notDeliveredSomewhere}</option>
  </select>
  <button type="submit">${m.filter}</button>
</form>`;
}

export async function eventPages(app: FastifyInstance, { deps, env }: { deps: Deps; env: Env }): Promise<void> {
  app.get('/events', async (request, reply) => {
    const page = pageOf(request, env);
    const { m } = page;
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
  <td>${formatTime(page, event.created)}</td><td><code>${event.type}</code></td>
  <td><a href="${page.base}/events/${event.id}">${event.id}</a></td><td>${stateTag(page, stateOf(event))}</td></tr>`,
    );
    const more =
      list.has_more && list.next_cursor
        ? html`<a href="${page.base}/events?${new URLSearchParams([...keep, ['starting_after', list.next_cursor]]).toString()}" rel="next">${m.olderEvents}</a>`
        : null;
    const first = query.starting_after
      ? html`<a href="${page.base}/events?${keep.toString()}">${m.newestEvents}</a>`
      : null;
    const content = html`${filters(page, type, delivery)}
${
  detailed.length === 0
    ? html`<p class="muted">${m.noEvent(Boolean(type || delivery))}</p>`
    : html`<div class="table-wrap"><table><thead><tr><th>${m.created}</th><th>${m.type}</th><th>${m.event}</th><th>${m.delivery}</th></tr></thead><tbody>${rows}</tbody></table></div>`
}
<p class="pager">${first} ${more}</p>`;
    return reply
      .type('text/html; charset=utf-8')
      .send(layout(page, { title: m.sections.events, section: 'events', notice: noticeOf(request.query, m) }, content));
  });

  app.get('/events/:id', async (request, reply) => {
    const page = pageOf(request, env);
    const { m } = page;
    const event = await getEventWithDeliveries(deps, page.scope, (request.params as { id: string }).id);
    const { deliveries, attemptCount, generation, nextRetry, delivered, endpoints, ...envelope } = event;
    const replayAction = `${page.base}/events/${event.id}/replay`;
    const endpointRows = endpoints.map(
      (endpoint) => html`<tr data-endpoint="${endpoint.endpointId}">
  <td><a href="${page.base}/webhooks/${endpoint.endpointId}">${endpoint.endpointId}</a></td><td>${endpoint.generation}</td>
  <td>${stateTag(page, endpoint.state === 'delivered' ? 'delivered' : endpoint.state === 'failed' ? 'failed' : 'pending')}</td>
  <td>${endpoint.attemptCount}</td><td>${formatTime(page, endpoint.nextRetry)}</td>
  <td><form method="post" action="${replayAction}" class="inline">${csrfField(page)}<input type="hidden" name="endpoint" value="${endpoint.endpointId}"><button type="submit">${m.replayHere}</button></form></td></tr>`,
    );
    const attemptRows = deliveries.map(
      (
        attempt,
      ) => html`<tr class="${attempt.status !== null && attempt.status >= 200 && attempt.status < 300 ? 'ok' : 'failed'}">
  <td>${formatTime(page, attempt.created)}</td><td><code>${attempt.endpointId}</code></td><td>${attempt.generation}</td><td>${attempt.attempt}</td>
  <td>${attempt.status ?? html`<span class="muted">${m.none}</span>`}</td><td>${attempt.durationMs} ms</td><td>${attempt.error ?? ''}</td></tr>`,
    );
    const content = html`<dl class="facts">
  <dt>${m.event}</dt><dd><code>${event.id}</code></dd>
  <dt>${m.type}</dt><dd><code>${event.type}</code></dd>
  <dt>${m.created}</dt><dd>${formatTime(page, event.created)}</dd>
  <dt>${m.apiVersion}</dt><dd>${event.apiVersion}</dd>
  <dt>${m.delivery}</dt><dd>${stateTag(page, stateOf(event))}${m.generationLine(generation, attemptCount)}${nextRetry ? html`${m.nextRetryAt}${formatTime(page, nextRetry)}` : null}</dd>
</dl>
<div class="actions"><form method="post" action="${replayAction}" class="inline">${csrfField(page)}<button type="submit">${m.replayEverywhere}</button></form>
<a href="${page.base}/events/${event.id}">${m.reload}</a></div>
<h2>${m.endpoints}</h2>
${
  endpoints.length === 0
    ? html`<p class="muted">${m.noEndpointSubscribed}</p>`
    : html`<div class="table-wrap"><table id="endpoints"><thead><tr><th>${m.endpoint}</th><th>${m.generation}</th><th>${m.state}</th><th>${m.attempts}</th><th>${m.nextRetry}</th><th></th></tr></thead><tbody>${endpointRows}</tbody></table></div>`
}
<h2>${m.attempts}</h2>
${
  deliveries.length === 0
    ? html`<p class="muted">${m.noAttemptYet}</p>`
    : html`<div class="table-wrap"><table id="attempts"><thead><tr><th>${m.time}</th><th>${m.endpoint}</th><th>${m.generation}</th><th>${m.attempt}</th><th>${m.status}</th><th>${m.duration}</th><th>${m.error}</th></tr></thead><tbody>${attemptRows}</tbody></table></div>`
}
<h2>${m.payload}</h2>
<pre class="payload" id="payload">${JSON.stringify(envelope, null, 2)}</pre>`;
    return reply
      .type('text/html; charset=utf-8')
      .send(
        layout(
          page,
          { title: m.eventTitle(event.type), section: 'events', notice: noticeOf(request.query, m) },
          content,
        ),
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
