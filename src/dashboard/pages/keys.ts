import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import { ApiError, refuse } from '../../kernel/errors.js';
import { createApiKey, listApiKeys, revokeApiKey, type ApiKeyResource } from '../../api-keys/service.js';
import { scopeResources } from '../../kernel/scopes.js';
import { pageOf, type Env, type Page } from '../context.js';
import { formOf } from '../form.js';
import { describeError } from '../page-error.js';
import { html, type Html } from '../../http/html.js';
import { csrfField, formatTime, layout, noticeOf } from '../layout.js';

function statusOf(key: ApiKeyResource, now: Date): 'active' | 'revoked' | 'expired' {
  if (key.revokedAt) return 'revoked';
  if (key.expiresAt && Date.parse(key.expiresAt) <= now.getTime()) return 'expired';
  return 'active';
}

/** The keys of the page's environment only: the list of the service holds both. */
async function keysOf(deps: Deps, page: Page): Promise<ApiKeyResource[]> {
  return (await listApiKeys(deps, page.scope.companyId)).filter((key) => key.livemode === page.livemode);
}

function keyTable(page: Page, keys: ApiKeyResource[], now: Date): Html {
  const { m } = page;
  if (keys.length === 0) return html`<p class="muted">${m.noKeyYet(page.env)}</p>`;
  const rows = keys.map((key) => {
    const status = statusOf(key, now);
    return html`<tr data-key="${key.id}">
  <td><code>${key.secretHint}</code><br><small class="muted">${key.id}</small></td>
  <td>${key.scopes ? key.scopes.map((scope) => html`<span class="tag">${scope}</span> `) : html`<span class="tag tag-strong">${m.fullAccess}</span>`}</td>
  <td>${formatTime(page, key.created)}</td>
  <td>${formatTime(page, key.lastUsedAt)}</td>
  <td>${key.expiresAt ? formatTime(page, key.expiresAt) : html`<span class="muted">${m.never}</span>`}</td>
  <td><span data-status="${status}" class="status status-${status}">${m.keyStatus[status]}</span></td>
  <td>${status === 'active' ? html`<form method="post" action="${page.base}/keys/${key.id}/revoke" class="inline">${csrfField(page)}<button type="submit" class="danger">${m.revoke}</button></form>` : null}</td>
</tr>`;
  });
  return html`<div class="table-wrap"><table>
<thead><tr><th>${m.key}</th><th>${m.scopes}</th><th>${m.created}</th><th>${m.lastUsed}</th><th>${m.expires}</th><th>${m.status}</th><th></th></tr></thead>
<tbody>${rows}</tbody></table></div>`;
}

function createForm(page: Page): Html {
  const { m } = page;
  const grid = scopeResources.map(
    (resource) => html`<tr><th scope="row">${resource.replace('_', ' ')}</th>
  <td><label><input type="checkbox" name="scopes" value="${resource}:read"> ${m.read}</label></td>
  <td><label><input type="checkbox" name="scopes" value="${resource}:write"> ${m.write}</label></td></tr>`,
  );
  return html`<section class="card">
<h2>${m.createKeyTitle(page.env)}</h2>
<form method="post" action="${page.base}/keys" class="stack">
  ${csrfField(page)}
  <fieldset><legend>${m.scopes}</legend>
    <p class="muted">${m.scopesHint}</p>
    <div class="table-wrap"><table class="compact">${grid}</table></div>
  </fieldset>
  <label for="expires">${m.expiresOn}</label>
  <input id="expires" name="expires" type="date">
  <button type="submit">${m.createTheKey}</button>
</form></section>`;
}

function revealed(page: Page, secret: string, key: ApiKeyResource): Html {
  const { m } = page;
  return html`<section class="card reveal" aria-labelledby="new-key-title">
<h2 id="new-key-title">${m.yourNewKey} ${key.id}</h2>
<p><strong>${m.copyNow}</strong> ${m.onlyHashStored}</p>
<div class="copy-row"><input id="new-secret" class="secret" readonly value="${secret}" aria-label="${m.newSecretLabel}"><button type="button" data-copy="new-secret">${m.copy}</button></div>
</section>`;
}

export async function keyPages(app: FastifyInstance, { deps, env }: { deps: Deps; env: Env }): Promise<void> {
  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    extra: { status?: number; error?: string | null; created?: { secret: string; key: ApiKeyResource } } = {},
  ) {
    const page = pageOf(request, env);
    const keys = await keysOf(deps, page);
    const content = html`${extra.created ? revealed(page, extra.created.secret, extra.created.key) : null}
${keyTable(page, keys, deps.clock.now())}
${createForm(page)}`;
    return reply
      .code(extra.status ?? 200)
      .type('text/html; charset=utf-8')
      .send(
        layout(
          page,
          {
            title: page.m.sections.keys,
            section: 'keys',
            notice: noticeOf(request.query, page.m),
            error: extra.error ?? null,
          },
          content,
        ),
      );
  }

  app.get('/keys', async (request, reply) => render(request, reply));

  app.post('/keys', async (request, reply) => {
    const page = pageOf(request, env);
    const form = formOf(request);
    try {
      const scopes = form.all('scopes');
      const expires = form.text('expires');
      const created = await createApiKey(deps, {
        companyId: page.scope.companyId,
        env,
        ...(scopes.length > 0 ? { scopes } : {}),
        ...(expires ? { expiresAt: expires } : {}),
      });
      return await render(request, reply, { status: 201, created });
    } catch (error) {
      if (error instanceof ApiError && error.status < 500 && error.code !== 'not_found')
        return render(request, reply, { status: error.status, error: describeError(error) });
      throw error;
    }
  });

  app.post('/keys/:id/revoke', async (request, reply) => {
    const page = pageOf(request, env);
    const { id } = request.params as { id: string };
    // The key must be one of this company's, in this environment: never revoke by id alone.
    if (!(await keysOf(deps, page)).some((key) => key.id === id))
      throw refuse('not_found', `No ${env} API key ${id} in this account.`);
    await revokeApiKey(deps, id, { companyId: page.scope.companyId });
    return reply.redirect(`${page.base}/keys?notice=key_revoked`, 303);
  });
}
