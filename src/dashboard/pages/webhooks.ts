import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { ApiError } from '../../kernel/errors.js';
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  listEndpoints,
  pingEndpoint,
  revealEndpointSecret,
  rotateSecret,
  updateEndpointSettings,
  type WebhookEndpoint,
} from '../../webhooks/service.js';
import { plans } from '../../kernel/plans.js';
import { confirmPassword } from '../../users/service.js';
import { callContextOf, pageOf, type Env, type Page } from '../context.js';
import { formOf } from '../form.js';
import { sendToLogInAfterWrongPasswords } from '../password-prompt.js';
import { describeError } from '../page-error.js';
import { html, type Html } from '../../http/html.js';
import { csrfField, formatTime, layout, noticeOf } from '../layout.js';
import { eventsFromForm, eventTypesField } from './event-types-field.js';

const text = 'text/html; charset=utf-8';

/** A refusal the user can act on (bad URL, plan limit...) is shown on the form; the rest is an error page. */
function shownOnForm(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status < 500 && error.code !== 'not_found';
}

function eventsSummary(events: string[]): Html {
  return events.includes('*')
    ? html`<span class="tag tag-strong">all events</span>`
    : html`${events.map((type) => html`<span class="tag">${type}</span> `)}`;
}

function statusTag(endpoint: WebhookEndpoint): Html {
  return html`<span class="status status-${endpoint.status === 'enabled' ? 'active' : 'revoked'}">${endpoint.status}</span>`;
}

function secretBox(id: string, secret: string, title: string): Html {
  return html`<section class="card reveal"><h2>${title}</h2>
<p><strong>Keep it in your server's configuration.</strong> Deliveries are signed with it (<code>Service-Signature</code>).</p>
<div class="copy-row"><input id="${id}" class="secret" readonly value="${secret}" aria-label="Signing secret"><button type="button" data-copy="${id}">Copy</button></div></section>`;
}

function newEndpointForm(
  page: Page,
  values: { url?: string | undefined; description?: string | undefined; events?: string[] },
): Html {
  return html`<section class="card"><h2>Add an endpoint</h2>
<form method="post" action="${page.base}/webhooks" class="stack">
  ${csrfField(page)}
  <label for="url">URL (HTTPS, publicly reachable)</label>
  <input id="url" name="url" type="url" required maxlength="2048" placeholder="https://example.com/webhooks/facteur" value="${values.url ?? ''}">
  <label for="description">Description (optional)</label>
  <input id="description" name="description" maxlength="500" value="${values.description ?? ''}">
  ${eventTypesField(values.events ?? ['*'])}
  <button type="submit">Add the endpoint</button>
</form></section>`;
}

export async function webhookPages(app: FastifyInstance, { deps, env }: { deps: Deps; env: Env }): Promise<void> {
  async function renderList(
    request: FastifyRequest,
    reply: FastifyReply,
    extra: { status?: number; error?: string; values?: Parameters<typeof newEndpointForm>[1] } = {},
  ) {
    const page = pageOf(request, env);
    const query = request.query as { starting_after?: string };
    const list = await listEndpoints(deps, page.scope, { limit: 50, startingAfter: query.starting_after || undefined });
    const limit = plans[page.session.company.plan].webhookEndpoints;
    const rows = list.data.map(
      (endpoint) => html`<tr data-endpoint="${endpoint.id}">
  <td><a href="${page.base}/webhooks/${endpoint.id}">${endpoint.url}</a>${endpoint.description ? html`<br><small class="muted">${endpoint.description}</small>` : null}</td>
  <td>${eventsSummary(endpoint.events)}</td><td>${statusTag(endpoint)}</td><td>${formatTime(endpoint.created)}</td></tr>`,
    );
    const table =
      list.data.length === 0
        ? html`<p class="muted">No ${env} endpoint yet.</p>`
        : html`<div class="table-wrap"><table><thead><tr><th>URL</th><th>Events</th><th>Status</th><th>Created</th></tr></thead><tbody>${rows}</tbody></table></div>
${list.has_more && list.next_cursor ? html`<p><a href="${page.base}/webhooks?starting_after=${list.next_cursor}">Next page</a></p>` : null}`;
    const content = html`<p class="muted">The ${page.session.company.plan} plan allows ${limit} endpoint(s) per environment.</p>${table}${newEndpointForm(page, extra.values ?? {})}`;
    return reply
      .code(extra.status ?? 200)
      .type(text)
      .send(
        layout(
          page,
          {
            title: 'Webhook endpoints',
            section: 'webhooks',
            notice: noticeOf(request.query),
            error: extra.error ?? null,
          },
          content,
        ),
      );
  }

  interface DetailExtra {
    status?: number;
    error?: string | null;
    notice?: string | null;
    secret?: { value: string; title: string };
  }

  async function renderDetail(request: FastifyRequest, reply: FastifyReply, id: string, extra: DetailExtra = {}) {
    const page = pageOf(request, env);
    const endpoint = await getEndpoint(deps, page.scope, id);
    const action = (path: string) => `${page.base}/webhooks/${endpoint.id}/${path}`;
    const content = html`${extra.secret ? secretBox('endpoint-secret', extra.secret.value, extra.secret.title) : null}
<dl class="facts">
  <dt>URL</dt><dd><code>${endpoint.url}</code></dd>
  <dt>Status</dt><dd>${statusTag(endpoint)}${endpoint.disabledReason ? html` <span class="muted">(${endpoint.disabledReason})</span>` : null}</dd>
  <dt>Description</dt><dd>${endpoint.description ?? html`<span class="muted">—</span>`}</dd>
  <dt>Events</dt><dd>${eventsSummary(endpoint.events)}</dd>
  <dt>Signing secret</dt><dd><code>${endpoint.secret}</code></dd>
  <dt>Id</dt><dd><code>${endpoint.id}</code></dd>
  <dt>Created</dt><dd>${formatTime(endpoint.created)}</dd>
</dl>
<div class="actions">
  <form method="post" action="${action('ping')}" class="inline">${csrfField(page)}<button type="submit"${endpoint.status === 'enabled' ? null : html` disabled`}>Send a ping</button></form>
  <form method="post" action="${action('status')}" class="inline">${csrfField(page)}<input type="hidden" name="status" value="${endpoint.status === 'enabled' ? 'disabled' : 'enabled'}"><button type="submit">${endpoint.status === 'enabled' ? 'Disable' : 'Enable'}</button></form>
  <form method="post" action="${action('rotate-secret')}" class="inline">${csrfField(page)}<button type="submit">Rotate the secret</button></form>
  <a href="${page.base}/events">Events</a>
</div>
<section class="card"><h2>Reveal the signing secret</h2>
<form method="post" action="${action('reveal-secret')}" class="stack">${csrfField(page)}
  <label for="reveal-password">Your password</label>
  <input id="reveal-password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">Reveal</button>
</form></section>
<section class="card"><h2>Edit</h2>
<form method="post" action="${page.base}/webhooks/${endpoint.id}" class="stack">${csrfField(page)}
  <label for="url">URL</label>
  <input id="url" name="url" type="url" required maxlength="2048" value="${endpoint.url}">
  <label for="description">Description</label>
  <input id="description" name="description" maxlength="500" value="${endpoint.description ?? ''}">
  ${eventTypesField(endpoint.events)}
  <button type="submit">Save</button>
</form></section>
<section class="card danger-zone"><h2>Delete</h2>
<form method="post" action="${action('delete')}" class="stack">${csrfField(page)}
  <label><input type="checkbox" name="confirm" value="yes" required> Delete this endpoint: nothing more is delivered to it. Its delivery history stays.</label>
  <button type="submit" class="danger">Delete the endpoint</button>
</form></section>`;
    return reply
      .code(extra.status ?? 200)
      .type(text)
      .send(
        layout(
          page,
          {
            title: 'Webhook endpoint',
            section: 'webhooks',
            notice: extra.notice ?? noticeOf(request.query),
            error: extra.error ?? null,
          },
          content,
        ),
      );
  }

  const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

  app.get('/webhooks', async (request, reply) => renderList(request, reply));

  app.post('/webhooks', async (request, reply) => {
    const page = pageOf(request, env);
    const form = formOf(request);
    const values = {
      url: form.text('url'),
      description: form.text('description'),
      events: eventsFromForm(form.all('events')),
    };
    try {
      const endpoint = await createEndpoint(deps, callContextOf(deps, request, page), page.session.company.plan, {
        url: values.url ?? '',
        events: values.events,
        ...(values.description ? { description: values.description } : {}),
      });
      return await renderDetail(request, reply, endpoint.id, {
        status: 201,
        secret: { value: endpoint.secret, title: 'The endpoint is added. Its signing secret:' },
      });
    } catch (error) {
      if (shownOnForm(error))
        return renderList(request, reply, { status: error.status, error: describeError(error), values });
      throw error;
    }
  });

  app.get('/webhooks/:id', async (request, reply) => renderDetail(request, reply, idOf(request)));

  app.post('/webhooks/:id', async (request, reply) => {
    const page = pageOf(request, env);
    const form = formOf(request);
    try {
      await updateEndpointSettings(deps, callContextOf(deps, request, page), idOf(request), {
        ...(form.text('url') ? { url: form.text('url')! } : {}),
        description: form.text('description') ?? null,
        events: eventsFromForm(form.all('events')),
      });
    } catch (error) {
      if (shownOnForm(error))
        return renderDetail(request, reply, idOf(request), { status: error.status, error: describeError(error) });
      throw error;
    }
    return reply.redirect(`${page.base}/webhooks/${idOf(request)}?notice=endpoint_updated`, 303);
  });

  app.post('/webhooks/:id/status', async (request, reply) => {
    const page = pageOf(request, env);
    const status = formOf(request).get('status') === 'enabled' ? 'enabled' : 'disabled';
    await updateEndpointSettings(deps, callContextOf(deps, request, page), idOf(request), { status });
    return reply.redirect(`${page.base}/webhooks/${idOf(request)}?notice=endpoint_${status}`, 303);
  });

  app.post('/webhooks/:id/delete', async (request, reply) => {
    const page = pageOf(request, env);
    if (formOf(request).get('confirm') !== 'yes')
      return renderDetail(request, reply, idOf(request), {
        status: 422,
        error: 'Tick the box to confirm the deletion.',
      });
    await deleteEndpoint(deps, callContextOf(deps, request, page), idOf(request));
    return reply.redirect(`${page.base}/webhooks?notice=endpoint_deleted`, 303);
  });

  app.post('/webhooks/:id/ping', async (request, reply) => {
    const page = pageOf(request, env);
    try {
      const event = await pingEndpoint(deps, callContextOf(deps, request, page), idOf(request));
      return reply.redirect(`${page.base}/events/${event.id}?notice=ping_sent`, 303);
    } catch (error) {
      if (shownOnForm(error))
        return renderDetail(request, reply, idOf(request), { status: error.status, error: describeError(error) });
      throw error;
    }
  });

  app.post('/webhooks/:id/rotate-secret', async (request, reply) => {
    const page = pageOf(request, env);
    const endpoint = await rotateSecret(deps, callContextOf(deps, request, page), idOf(request));
    return renderDetail(request, reply, endpoint.id, {
      secret: { value: endpoint.secret, title: 'The secret is rotated. The new one:' },
      notice:
        'For 24 hours, deliveries carry a signature with the old secret too, so your server can switch without losing any.',
    });
  });

  app.post('/webhooks/:id/reveal-secret', async (request, reply) => {
    const page = pageOf(request, env);
    const id = idOf(request);
    await getEndpoint(deps, page.scope, id);
    const outcome = await confirmPassword(deps, page.session, formOf(request).get('password') ?? '');
    if (outcome === 'session_ended') return sendToLogInAfterWrongPasswords(reply);
    if (outcome === 'wrong')
      return renderDetail(request, reply, id, {
        status: 422,
        error: 'The password is not right; the secret stays hidden.',
      });
    return renderDetail(request, reply, id, {
      secret: { value: await revealEndpointSecret(deps, page.scope, id), title: 'The signing secret:' },
    });
  });
}
