import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import {
  answerReceivedInvoice,
  disputeReasons,
  getReceivedInvoice,
  listReceivedInvoices,
  receivedHistory,
  receivedOriginal,
  receivedPdf,
  refusalReasons,
  suspensionReasons,
  type ReceivedAction,
  type ReceivedInvoice,
  type ReceivedStatus,
} from '../../received/service.js';
import { ApiError } from '../../kernel/errors.js';
import { callContextOf, pageOf, type Env, type Page } from '../context.js';
import { formOf } from '../form.js';
import { describeError } from '../page-error.js';
import { html, type Html } from '../../http/html.js';
import { csrfField, formatDate, formatTime, layout } from '../layout.js';
import { receivedMessagesOf, type ReceivedMessages } from '../received-messages.js';
import { lifecycleLabel } from '../invoice-messages.js';

const pageSize = 25;
const text = 'text/html; charset=utf-8';

/** The inbox's three groups, each a list of the service's statuses (one list per status). */
const groups: { id: keyof ReceivedMessages['groups']; statuses: ReceivedStatus[] }[] = [
  { id: 'new', statuses: ['received'] },
  { id: 'to_answer', statuses: ['disputed', 'suspended'] },
  { id: 'answered', statuses: ['approved', 'refused', 'payment_transmitted'] },
];
const allStatuses = groups.flatMap((group) => group.statuses);

/**
 * The answers the page offers in each state (transitions.ts decides; the service checks again),
 * with the reform's reason codes each one takes.
 */
const answers: { action: ReceivedAction; from: ReceivedStatus[]; reasons: readonly string[]; required: boolean }[] = [
  { action: 'approve', from: ['received', 'disputed', 'suspended'], reasons: [], required: false },
  { action: 'refuse', from: ['received', 'disputed', 'suspended'], reasons: refusalReasons, required: true },
  { action: 'dispute', from: ['received', 'approved', 'suspended'], reasons: disputeReasons, required: false },
  { action: 'suspend', from: ['received', 'disputed'], reasons: suspensionReasons, required: false },
  { action: 'payment-transmitted', from: ['received', 'approved'], reasons: [], required: false },
];

function money(page: Page, cents: number, currency: string): string {
  return page.f.amount(cents / 100, currency);
}

function statusTag(rm: ReceivedMessages, status: ReceivedStatus): Html {
  return html`<span data-status="${status}" class="status status-${status}">${rm.statuses[status]}</span>`;
}

function tabs(page: Page, rm: ReceivedMessages, current: ReceivedStatus): Html {
  return html`<nav class="tabs inbox">${groups.map(
    (group) =>
      html`<span class="group"><strong>${rm.groups[group.id]}</strong> ${group.statuses.map(
        (status) =>
          html`<a href="${page.base}/received?status=${status}"${status === current ? html` aria-current="page"` : null}>${rm.statuses[status]}</a> `,
      )}</span> `,
  )}</nav>`;
}

function answerForm(
  page: Page,
  rm: ReceivedMessages,
  invoice: ReceivedInvoice,
  answer: (typeof answers)[number],
): Html {
  const id = `answer-${answer.action}`;
  const codes = answer.reasons.map((code) => html`<option value="${code}">${code}</option>`);
  return html`<form method="post" action="${page.base}/received/${invoice.id}/${answer.action}" class="stack answer" id="${id}">${csrfField(page)}
${answer.reasons.length > 0 ? html`<label for="${id}-code">${rm.reasonCode}</label><select id="${id}-code" name="reasonCode"${answer.required ? html` required` : null}>${answer.required ? null : html`<option value="">—</option>`}${codes}</select>` : null}
<label for="${id}-reason">${answer.required ? rm.reasonRequired : rm.reasonOptional}</label>
<input id="${id}-reason" name="reason" maxlength="1000"${answer.required ? html` required` : null}>
<button type="submit">${rm.actions[answer.action]}</button></form>`;
}

function validationBlock(rm: ReceivedMessages, invoice: ReceivedInvoice): Html {
  const verdict =
    invoice.conformant === null
      ? rm.notChecked
      : invoice.conformant
        ? rm.conformant
        : rm.notConformant(invoice.validationErrorCount);
  const errors = invoice.validationErrors.map(
    (error) => html`<li><code>${error.rule}</code> (${error.flag}) ${error.message}</li>`,
  );
  return html`<section class="card" id="validation" data-conformant="${String(invoice.conformant)}"><h2>${rm.validation}</h2>
<p>${verdict}</p>${errors.length > 0 ? html`<ul class="validation-errors">${errors}</ul>` : null}</section>`;
}

export async function receivedPages(app: FastifyInstance, { deps, env }: { deps: Deps; env: Env }): Promise<void> {
  app.get('/received', async (request, reply) => {
    const page = pageOf(request, env);
    const rm = receivedMessagesOf(page.lang);
    const query = request.query as { status?: string; starting_after?: string };
    const status = allStatuses.find((candidate) => candidate === query.status) ?? 'received';
    const cursor =
      query.starting_after && /^[A-Za-z0-9_]{1,64}$/.test(query.starting_after) ? query.starting_after : undefined;
    const list = await listReceivedInvoices(deps, page.scope, { limit: pageSize, startingAfter: cursor }, { status });
    const rows = list.data.map(
      (invoice) => html`<tr data-received="${invoice.id}">
  <td><a href="${page.base}/received/${invoice.id}">${invoice.number}</a></td>
  <td>${invoice.sender.name ?? invoice.sender.siret ?? '—'}</td>
  <td>${formatDate(page, invoice.issueDate)}</td>
  <td class="num">${money(page, invoice.totalTtc, invoice.currency)}</td>
  <td>${formatTime(page, invoice.receivedAt)}</td>
  <td>${statusTag(rm, invoice.status)}</td></tr>`,
    );
    const more =
      list.has_more && list.next_cursor
        ? html`<a rel="next" href="${page.base}/received?status=${status}&starting_after=${list.next_cursor}">${rm.older}</a>`
        : null;
    const first = cursor ? html`<a href="${page.base}/received?status=${status}">${rm.newest}</a>` : null;
    const content = html`${tabs(page, rm, status)}
${
  rows.length === 0
    ? html`<p class="muted">${rm.none}</p>`
    : html`<div class="table-wrap"><table id="received"><thead><tr><th>${rm.number}</th><th>${rm.supplier}</th><th>${rm.date}</th><th>${rm.total}</th><th>${rm.receivedAt}</th><th>${rm.status}</th></tr></thead><tbody>${rows}</tbody></table></div>`
}
<p class="pager">${first} ${more}</p>`;
    return reply.type(text).send(layout(page, { title: rm.title, section: 'received' }, content));
  });

  async function renderInvoice(
    request: FastifyRequest,
    reply: FastifyReply,
    extra: { status?: number; error?: string } = {},
  ) {
    const page = pageOf(request, env);
    const rm = receivedMessagesOf(page.lang);
    const id = (request.params as { id: string }).id;
    const invoice = await getReceivedInvoice(deps, page.scope, id);
    const history = await receivedHistory(deps, page.scope, id);
    const possible = answers.filter((answer) => answer.from.includes(invoice.status));
    const entries = history.data.map(
      (entry) =>
        html`<li data-lifecycle="${entry.status}">${formatTime(page, entry.at)} · <strong>${Object.hasOwn(rm.statuses, entry.status) ? rm.statuses[entry.status as ReceivedStatus] : lifecycleLabel(page.lang, entry.status)}</strong>${entry.reasonCode ? html` · <code>${entry.reasonCode}</code>` : null}${entry.reason ? html` ${entry.reason}` : null}</li>`,
    );
    const content = html`<dl class="facts">
  <dt>${rm.status}</dt><dd>${statusTag(rm, invoice.status)}</dd>
  <dt>${rm.supplier}</dt><dd>${invoice.sender.name ?? '—'}${invoice.sender.siret ? html` <small class="muted">SIRET ${invoice.sender.siret}</small>` : null}</dd>
  <dt>${rm.date}</dt><dd>${formatDate(page, invoice.issueDate)}</dd>
  <dt>${rm.dueDate}</dt><dd>${formatDate(page, invoice.dueDate)}</dd>
  <dt>${rm.total}</dt><dd>${money(page, invoice.totalTtc, invoice.currency)}</dd>
  <dt>${rm.receivedAt}</dt><dd>${formatTime(page, invoice.receivedAt)}</dd>
</dl>
<section class="card" id="answers"><h2>${rm.answer}</h2><p class="muted">${rm.answerHint}</p>
${possible.length === 0 ? html`<p class="muted">${rm.noAnswerPossible}</p>` : possible.map((answer) => answerForm(page, rm, invoice, answer))}</section>
${validationBlock(rm, invoice)}
${
  invoice.syntax === 'unknown'
    ? html`<p class="muted">${rm.noPdf}</p>`
    : html`<iframe class="pdf" src="${page.base}/received/${invoice.id}/pdf" title="${rm.pdf}" width="100%" height="600"></iframe>`
}
<p><a href="${page.base}/received/${invoice.id}/original" download>${rm.downloadOriginal}</a></p>
<h2>${rm.history}</h2><ol class="timeline" id="timeline">${entries}</ol>`;
    const notice = (request.query as { notice?: string }).notice === 'answered' ? rm.answered : null;
    return reply
      .code(extra.status ?? 200)
      .type(text)
      .send(
        layout(
          page,
          { title: rm.invoiceTitle(invoice.number), section: 'received', notice, error: extra.error ?? null },
          content,
        ),
      );
  }

  app.get('/received/:id', async (request, reply) => renderInvoice(request, reply));

  for (const [name, read] of [
    ['pdf', receivedPdf],
    ['original', receivedOriginal],
  ] as const)
    app.get(`/received/:id/${name}`, async (request, reply) => {
      const page = pageOf(request, env);
      const file = await read(deps, page.scope, (request.params as { id: string }).id);
      return (
        reply
          .type(file.contentType)
          // Only the dashboard's own pages may frame it; nothing in it may run.
          .header('content-security-policy', "default-src 'none'; frame-ancestors 'self'")
          .header('x-frame-options', 'SAMEORIGIN')
          .header('content-disposition', `${name === 'pdf' ? 'inline' : 'attachment'}; filename="${file.name}"`)
          .send(file.bytes)
      );
    });

  for (const { action } of answers)
    app.post(`/received/:id/${action}`, async (request, reply) => {
      const page = pageOf(request, env);
      const id = (request.params as { id: string }).id;
      const form = formOf(request);
      const reasonCode = form.text('reasonCode');
      const reason = form.text('reason');
      try {
        // The API's use case: the status goes to the supplier through the platform.
        await answerReceivedInvoice(deps, callContextOf(deps, request, page), id, action, {
          ...(reasonCode ? { reasonCode } : {}),
          ...(reason ? { reason } : {}),
        });
      } catch (error) {
        if (error instanceof ApiError && error.status < 500 && error.code !== 'not_found')
          return renderInvoice(request, reply, { status: error.status, error: describeError(error) });
        throw error;
      }
      return reply.redirect(`${page.base}/received/${id}?notice=answered`, 303);
    });
}
