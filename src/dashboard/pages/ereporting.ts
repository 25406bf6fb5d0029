import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../deps.js';
import { listDeclarations } from '../../ereporting/service.js';
import { pageOf, type Env, type Page } from '../context.js';
import { html, type Html } from '../../http/html.js';
import { formatDate, formatTime, layout } from '../layout.js';
import type { Lang } from '../language.js';

type Declaration = Awaited<ReturnType<typeof listDeclarations>>['data'][number];
type State = Declaration['status'];

const pageSize = 25;
const states: State[] = ['reserved', 'submitted', 'accepted', 'rejected'];

/** The texts of the e-reporting page, in English and French. */
const texts = {
  en: {
    title: 'E-reporting',
    states: { reserved: 'to send', submitted: 'sent', accepted: 'accepted', rejected: 'rejected' },
    allStates: 'All states',
    state: 'State',
    filter: 'Filter',
    period: 'Period',
    flow: 'Flow',
    due: 'Due',
    operations: 'Operations',
    reason: 'Rejection reason',
    nextDue: 'Next due',
    nothingDue: 'Nothing is due: every declaration of this page is sent.',
    none: 'No declaration yet.',
    older: 'Older →',
    newest: '← Newest',
    retryHint: 'A rejected declaration is sent again by the service as a new attempt, or with the API’s retry.',
  },
  fr: {
    title: 'E-reporting',
    states: { reserved: 'à transmettre', submitted: 'transmise', accepted: 'acceptée', rejected: 'rejetée' },
    allStates: 'Tous les états',
    state: 'État',
    filter: 'Filtrer',
    period: 'Période',
    flow: 'Flux',
    due: 'Échéance',
    operations: 'Opérations',
    reason: 'Motif du rejet',
    nextDue: 'Prochaine échéance',
    nothingDue: 'Rien n’est dû : chaque déclaration de cette page est transmise.',
    none: 'Aucune déclaration pour l’instant.',
    older: 'Plus anciennes →',
    newest: '← Les plus récentes',
    retryHint:
      'Une déclaration rejetée est renvoyée par le service dans une nouvelle tentative, ou par la relance de l’API.',
  },
} satisfies Record<Lang, unknown>;

function row(page: Page, t: (typeof texts)['fr'], declaration: Declaration): Html {
  return html`<tr data-declaration="${declaration.id}">
  <td>${declaration.period} <small class="muted">${formatDate(page, declaration.periodStart)} – ${formatDate(page, declaration.periodEnd)}</small></td>
  <td><code>${declaration.flow}</code> ${declaration.type}</td>
  <td><span data-state="${declaration.status}" class="status status-${declaration.status}">${t.states[declaration.status]}</span></td>
  <td>${formatTime(page, declaration.dueAt)}</td>
  <td class="num">${page.f.number(declaration.operationCount)}</td>
  <td>${declaration.paRejectionCode ? html`<code>${declaration.paRejectionCode}</code> ` : null}${declaration.paRejectionReason ?? ''}</td></tr>`;
}

export async function ereportingPages(app: FastifyInstance, { deps, env }: { deps: Deps; env: Env }): Promise<void> {
  app.get('/ereporting', async (request, reply) => {
    const page = pageOf(request, env);
    const t = texts[page.lang];
    const query = request.query as { state?: string; starting_after?: string };
    const state = states.find((candidate) => candidate === query.state);
    const cursor =
      query.starting_after && /^[A-Za-z0-9_]{1,64}$/.test(query.starting_after) ? query.starting_after : undefined;
    const list = await listDeclarations(deps, page.scope, { limit: pageSize, startingAfter: cursor }, { state });
    // What is due next: the earliest deadline of a declaration not yet accepted.
    const open = list.data.filter((d) => d.status === 'reserved' || d.status === 'rejected');
    const next = open.sort((a, b) => a.dueAt.localeCompare(b.dueAt))[0];
    const options = states.map(
      (s) => html`<option value="${s}"${s === state ? html` selected` : null}>${t.states[s]}</option>`,
    );
    const keep = state ? `state=${state}&` : '';
    const content = html`<section class="card" id="next-due"><h2>${t.nextDue}</h2>
${next ? html`<p data-declaration="${next.id}"><strong>${formatTime(page, next.dueAt)}</strong> · ${next.period} · <code>${next.flow}</code> ${next.type}</p>` : html`<p class="muted">${t.nothingDue}</p>`}</section>
<form method="get" action="${page.base}/ereporting" class="filters"><label for="state">${t.state}</label>
<select id="state" name="state"><option value="">${t.allStates}</option>${options}</select><button type="submit">${t.filter}</button></form>
${
  list.data.length === 0
    ? html`<p class="muted">${t.none}</p>`
    : html`<div class="table-wrap"><table id="declarations"><thead><tr><th>${t.period}</th><th>${t.flow}</th><th>${t.state}</th><th>${t.due}</th><th>${t.operations}</th><th>${t.reason}</th></tr></thead><tbody>${list.data.map((d) => row(page, t, d))}</tbody></table></div>`
}
<p class="muted">${t.retryHint}</p>
<p class="pager">${cursor ? html`<a href="${page.base}/ereporting?${keep}">${t.newest}</a>` : null} ${list.has_more && list.next_cursor ? html`<a rel="next" href="${page.base}/ereporting?${keep}starting_after=${list.next_cursor}">${t.older}</a>` : null}</p>`;
    return reply
      .type('text/html; charset=utf-8')
      .send(layout(page, { title: t.title, section: 'ereporting' }, content));
  });
}
