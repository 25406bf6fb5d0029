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
import type { Messages } from '../messages.js';

const text = 'text/html; charset=utf-8';

/** A refusal the user can act on (bad URL, plan limit...) is shown on the form; the rest is an error page. */
function shownOnForm(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status < 500 && error.code !== 'not_found';
}

function eventsSummary(m: Messages, events: string[]): Html {
  return events.includes('*')
    ? html`<span class="tag tag-strong">${m.allEvents}</span>`
    : html`${events.map((type) => html`<span class="tag">${type}</span> `)}`;
}

function statusTag(m: Messages, endpoint: WebhookEndpoint): Html {
  return html`<span data-status="${endpoint.status}" class="status status-${endpoint.status === 'enabled' ? 'active' : 'revoked'}">${m.endpointStatus[endpoint.status]}</span>`;
}

function secretBox(m: Messages, id: string, secret: string, title: string): Html {
  return html`<section class="card reveal"><h2>${title}</h2>
<p><strong>${m.keepSecret}</strong> ${m.signedWith} (<code>Service-Signature</code>).</p>
<div class="copy-row"><input id="${id}" class="secret" readonly value="${secret}" aria-label="${m.signingSecret}"><button type="button" data-copy="${id}">${m.copy}</button></div></section>`;
}

function newEndpointForm(
  page: Page,
  values: { url?: string | undefined; description?: string | undefined; events?: string[] },
): Html {
  const { m } = page;
  return html`<section class="card"><h2>${m.addEndpoint}</h2>
<form method="post" action="${page.base}/webhooks" class="stack">
  ${csrfField(page)}
  <label for="url">${m.urlHint}</label>
  <input id="url" name="url" type="url" required maxlength="2048" placeholder="https://example.com/webhooks/facteur" value="${values.url ?? ''}">
  <label for="description">${m.descriptionOptional}</label>
  <input id="description" name="description" maxlength="500" value="${values.description ?? ''}">
  ${eventTypesField(m, values.events ?? ['*'])}
  <button type="submit">${m.addTheEndpoint}</button>
</form></section>`;
}

export async function webhookPages(app: FastifyInstance, { deps, env }: { deps: Deps; env: Env }): Promise<void> {
  async function renderList(
    request: FastifyRequest,
    reply: FastifyReply,
    extra: { status?: number; error?: string; values?: Parameters<typeof newEndpointForm>[1] } = {},
  ) {
    const page = pageOf(request, env);
    const { m } = page;
    const query = request.query as { starting_after?: string };
    const list = await listEndpoints(deps, page.scope, { limit: 50, startingAfter: query.starting_after || undefined });
    const limit = plans[page.session.company.plan].webhookEndpoints;
    const rows = list.data.map(
      (endpoint) => html`<tr data-endpoint="${endpoint.id}">
  <td><a href="${page.base}/webhooks/${endpoint.id}">${endpoint.url}</a>${endpoint.description ? html`<br><small class="muted">${endpoint.description}</small>` : null}</td>
  <td>${eventsSummary(m, endpoint.events)}</td><td>${statusTag(m, endpoint)}</td><td>${formatTime(page, endpoint.created)}</td></tr>`,
    );
    const table =
      list.data.length === 0
        ? html`<p class="muted">${m.noEndpointYet(env)}</p>`
        : html`<div class="table-wrap"><table><thead><tr><th>URL</th><th>${m.events}</th><th>${m.status}</th><th>${m.created}</th></tr></thead><tbody>${rows}</tbody></table></div>
${list.has_more && list.next_cursor ? html`<p><a href="${page.base}/webhooks?starting_after=${list.next_cursor}">${m.nextPage}</a></p>` : null}`;
    const content = html`<p class="muted">${m.planAllows(page.session.company.plan, limit)}</p>${table}${newEndpointForm(page, extra.values ?? {})}`;
    return reply
      .code(extra.status ?? 200)
      .type(text)
      .send(
        layout(
          page,
          {
            title: m.webhookEndpointsTitle,
            section: 'webhooks',
            notice: noticeOf(request.query, m),
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
    const { m } = page;
    const endpoint = await getEndpoint(deps, page.scope, id);
    const action = (path: string) => `${page.base}/webhooks/${endpoint.id}/${path}`;
    const content = html`${extra.secret ? secretBox(m, 'endpoint-secret', extra.secret.value, extra.secret.title) : null}
<dl class="facts">
  <dt>URL</dt><dd><code>${endpoint.url}</code></dd>
  <dt>${m.status}</dt><dd>${statusTag(m, endpoint)}${endpoint.disabledReason ? html` <span class="muted">(${endpoint.disabledReason})</span>` : null}</dd>
  <dt>${m.description}</dt><dd>${endpoint.description ?? html`<span class="muted">—</span>`}</dd>
  <dt>${m.events}</dt><dd>${eventsSummary(m, endpoint.events)}</dd>
  <dt>${m.signingSecret}</dt><dd><code>${endpoint.secret}</code></dd>
  <dt>${m.id}</dt><dd><code>${endpoint.id}</code></dd>
  <dt>${m.created}</dt><dd>${formatTime(page, endpoint.created)}</dd>
</dl>
<div class="actions">
  <form method="post" action="${action('ping')}" class="inline">${csrfField(page)}<button type="submit"${endpoint.status === 'enabled' ? null : html` disabled`}>${m.sendPing}</button></form>
  <form method="post" action="${action('status')}" class="inline">${csrfField(page)}<input type="hidden" name="status" value="${endpoint.status === 'enabled' ? 'disabled' : 'enabled'}"><button type="submit">${endpoint.status === 'enabled' ? m.disable : m.enable}</button></form>
  <form method="post" action="${action('rotate-secret')}" class="inline">${csrfField(page)}<button type="submit">${m.rotateSecret}</button></form>
  <a href="${page.base}/events">${m.events}</a>
</div>
<section class="card"><h2>${m.revealSecretTitle}</h2>
<form method="post" action="${action('reveal-secret')}" class="stack">${csrfField(page)}
  <label for="reveal-password">${m.yourPassword}</label>
  <input id="reveal-password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">${m.reveal}</button>
</form></section>
<section class="card"><h2>${m.edit}</h2>
<form method="post" action="${page.base}/webhooks/${endpoint.id}" class="stack">${csrfField(page)}
  <label for="url">URL</label>
  <input id="url" name="url" type="url" required maxlength="2048" value="${endpoint.url}">
  <label for="description">${m.description}</label>
  <input id="description" name="description" maxlength="500" value="${endpoint.description ?? ''}">
  ${eventTypesField(m, endpoint.events)}
  <button type="submit">${m.save}</button>
</form></section>
<section class="card danger-zone"><h2>${m.deleteTitle}</h2>
<form method="post" action="${action('delete')}" class="stack">${csrfField(page)}
  <label><input type="checkbox" name="confirm" value="yes" required> ${m.deleteConfirm}</label>
  <button type="submit" class="danger">${m.deleteTheEndpoint}</button>
</form></section>`;
    return reply
      .code(extra.status ?? 200)
      .type(text)
      .send(
        layout(
          page,
          {
            title: m.webhookEndpoint,
            section: 'webhooks',
            notice: extra.notice ?? noticeOf(request.query, m),
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
        secret: { value: endpoint.secret, title: page.m.endpointAdded },
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
        error: page.m.tickToConfirm,
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
      secret: { value: endpoint.secret, title: page.m.secretRotated },
      notice: page.m.rotationNotice,
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
        error: page.m.wrongPasswordSecretHidden,
      });
    return renderDetail(request, reply, id, {
      secret: { value: await revealEndpointSecret(deps, page.scope, id), title: page.m.theSigningSecret },
    });
  });
}
