import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../deps.js';
import {
  createCreditNote,
  decisionInputOf,
  documentFile,
  documentHistory,
  finalize,
  getInvoiceDocument,
  listDocuments,
  sendToPlatform,
  type DocumentResource,
} from '../../invoices/service.js';
import { recordPayment } from '../../payments/service.js';
import { createTaxDecision } from '../../tax/service.js';
import { dayOf } from '../../kernel/calendar.js';
import type { DocumentKind } from '../../invoices/document-axes.js';
import { ApiError, refuse } from '../../kernel/errors.js';
import { callContextOf, pageOf, type Env, type Page } from '../context.js';
import { formOf } from '../form.js';
import { describeError } from '../page-error.js';
import { html, type Html } from '../../http/html.js';
import { csrfField, formatDate, formatTime, layout, noticeOf } from '../layout.js';
import {
  invoiceMessagesOf,
  lifecycleLabel,
  rejectionWords,
  reporterOf,
  type InvoiceMessages,
} from '../invoice-messages.js';
import { idShaped } from './record-form.js';

type SummaryStatus = DocumentResource['status'];
type FileKind = DocumentResource['files'][number]['kind'];
/** The files a numbered document may have (contract: the Factur-X, its XML, the readable PDF, UBL). */
const fileKinds: readonly FileKind[] = ['facturx', 'xml', 'pdf', 'ubl'];

const pageSize = 25;
/** The longest reason a credit note may carry (the API's `notes`). */
const notesLimit = 5000;
const text = 'text/html; charset=utf-8';

const summaryStatuses: SummaryStatus[] = [
  'draft',
  'finalized',
  'sending',
  'deposited',
  'transmitted',
  'available',
  'received',
  'approved',
  'partially_paid',
  'paid',
  'suspended',
  'rejected',
  'refused',
  'credit_refused',
  'partially_refunded',
  'refunded',
  'cancelled',
];

/** The two lists of documents: their path in the dashboard and their kind in the service. */
const kinds: { path: string; kind: DocumentKind }[] = [
  { path: 'invoices', kind: 'invoice' },
  { path: 'credit-notes', kind: 'credit_note' },
];

interface ListQuery {
  status?: string;
  customer?: string;
  date_from?: string;
  date_to?: string;
  number?: string;
  starting_after?: string;
}

const isDay = (value: string | undefined) => (value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined);

function statusTag(im: InvoiceMessages, status: SummaryStatus): Html {
  return html`<span data-status="${status}" class="status status-${status}">${im.statuses[status]}</span>`;
}

/** The API's integer cents, written in the reader's locale ("1 234,56 €"). */
function money(page: Page, cents: number | null, currency: string): Html {
  return cents === null ? html`<span class="muted">—</span>` : html`${page.f.amount(cents / 100, currency)}`;
}

/** What a person types ("1 234,56", "1234.56") as integer cents; NaN when it is not an amount. */
export function centsOf(typed: string): number {
  const normalized = typed.replace(/[\s\u00a0\u202f€]/g, '').replace(',', '.');
  return /^\d+(\.\d{1,2})?$/.test(normalized) ? Math.round(Number(normalized) * 100) : Number.NaN;
}

function filters(page: Page, im: InvoiceMessages, path: string, q: Required<Omit<ListQuery, 'starting_after'>>): Html {
  const options = summaryStatuses.map(
    (status) =>
      html`<option value="${status}"${status === q.status ? html` selected` : null}>${im.statuses[status]}</option>`,
  );
  return html`<form method="get" action="${page.base}/${path}" class="filters">
  <label for="status">${im.status}</label>
  <select id="status" name="status"><option value="">${im.allStatuses}</option>${options}</select>
  <label for="customer">${im.customerId}</label>
  <input id="customer" name="customer" value="${q.customer}" maxlength="64" placeholder="cus_…">
  <label for="date_from">${im.from}</label><input id="date_from" name="date_from" type="date" value="${q.date_from}">
  <label for="date_to">${im.to}</label><input id="date_to" name="date_to" type="date" value="${q.date_to}">
  <label for="number">${im.search}</label><input id="number" name="number" value="${q.number}" maxlength="35">
  <button type="submit">${im.filter}</button>
</form>`;
}

function listTable(page: Page, im: InvoiceMessages, path: string, docs: DocumentResource[]): Html {
  const rows = docs.map(
    (doc) => html`<tr data-document="${doc.id}">
  <td><a href="${page.base}/${path}/${doc.id}">${doc.number ?? im.statuses.draft}</a></td>
  <td>${doc.buyer?.name ?? html`<span class="muted">—</span>`}</td>
  <td>${formatDate(page, doc.issueDate ?? doc.created)}</td>
  <td class="num">${money(page, doc.total, doc.currency)}</td>
  <td class="num">${money(page, doc.amountDue, doc.currency)}</td>
  <td>${statusTag(im, doc.status)}</td></tr>`,
  );
  return html`<div class="table-wrap"><table id="documents"><thead><tr><th>${im.number}</th><th>${im.customer}</th><th>${im.date}</th><th>${im.total}</th><th>${im.amountDue}</th><th>${im.status}</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

/** The document's files: the readable PDF shown in the page, each file to download. */
function filesBlock(page: Page, im: InvoiceMessages, path: string, doc: DocumentResource): Html {
  if (doc.number === null) return html`<p class="muted">${im.noFilesDraft}</p>`;
  const ready = doc.files.length > 0 && doc.files.every((file) => file.state === 'ready');
  if (!ready) return html`<p class="muted" data-files="pending">${im.pdfPending}</p>`;
  const fileUrl = (kind: FileKind, download: boolean) =>
    `${page.base}/${path}/${doc.id}/files/${kind}${download ? '?download=1' : ''}`;
  const links = doc.files.map(
    ({ kind }) =>
      html`<li><a href="${fileUrl(kind, true)}" download data-file="${kind}">${im.download} · ${im.fileKinds[kind]}</a></li>`,
  );
  const ruleSet = doc.files.find((file) => file.ruleSet !== null)?.ruleSet ?? null;
  const rules =
    ruleSet === null ? html`` : html`<p class="muted" data-rule-set="${ruleSet}">${im.ruleSet(ruleSet)}</p>`;
  return html`<iframe class="pdf" src="${fileUrl('pdf', false)}" title="${im.pdf}" width="100%" height="600"></iframe>
<h2>${im.files}</h2><ul class="files">${links}</ul>${rules}`;
}

function timeline(
  page: Page,
  im: InvoiceMessages,
  doc: DocumentResource,
  history: Awaited<ReturnType<typeof documentHistory>>,
): Html {
  const reporters = { platform: im.fromPlatform, buyer: im.fromBuyer, seller: im.fromSeller };
  const entries = history.data.map(
    (entry) =>
      html`<li data-lifecycle="${entry.status}"${entry.applied ? null : html` class="muted"`}>${formatTime(page, entry.receivedAt)} · <strong>${lifecycleLabel(page.lang, entry.status)}</strong> <code>${entry.status}</code> (${reporters[reporterOf(entry.status)]})${entry.reasonCode || entry.reason ? html` · ${im.reasonLabel} : ${entry.reasonCode ?? ''} ${entry.reason ?? ''}` : null}</li>`,
  );
  return html`<h2>${im.timeline}</h2><ol class="timeline" id="timeline">
<li>${formatTime(page, doc.created)} · ${im.createdAt}</li>
${doc.finalizedAt ? html`<li>${formatTime(page, doc.finalizedAt)} · ${im.finalizedAt}</li>` : null}
${entries}</ol>${history.data.length === 0 && doc.number !== null ? html`<p class="muted">${im.noStatusYet}</p>` : null}`;
}

function rejectionBlock(page: Page, im: InvoiceMessages, doc: DocumentResource): Html | null {
  const { rejectionCategory: category, rejectionSource: source } = doc.einvoicing;
  if (!category) return null;
  const words = rejectionWords(page.lang, category);
  return html`<section class="card rejection" id="rejection" data-category="${category}"><h2>${im.rejection}</h2>
<dl class="facts">
  ${source ? html`<dt>${im.rejectedBy}</dt><dd>${im.rejectionSources[source]}</dd>` : null}
  <dt>${im.category}</dt><dd><code>${category}</code> · ${words.meaning}</dd>
  ${doc.einvoicing.rejectionReason ? html`<dt>${im.reasonLabel}</dt><dd>${doc.einvoicing.rejectionCode ? html`<code>${doc.einvoicing.rejectionCode}</code> ` : null}${doc.einvoicing.rejectionReason}</dd>` : null}
  <dt>${im.nextStep}</dt><dd id="next-step">${words.next}</dd>
</dl></section>`;
}

function actionsBlock(page: Page, im: InvoiceMessages, path: string, doc: DocumentResource): Html {
  const action = (name: string) => `${page.base}/${path}/${doc.id}/${name}`;
  const button = (name: string, label: string) =>
    html`<form method="post" action="${action(name)}" class="inline">${csrfField(page)}<button type="submit">${label}</button></form>`;
  const canSend = doc.documentStatus === 'finalized' && ['pending', 'rejected'].includes(doc.transmissionStatus);
  const canPay = doc.object === 'invoice' && doc.number !== null && (doc.amountDue ?? 0) > 0;
  const canCredit = doc.object === 'invoice' && doc.documentStatus === 'finalized';
  return html`<section class="card"><h2>${im.actions}</h2><div class="actions">
${doc.documentStatus === 'draft' ? button('finalize', im.finalize) : null}
${canSend ? button('send', doc.transmissionStatus === 'rejected' ? im.resend : im.send) : null}
</div>
${
  canPay
    ? html`<form method="post" action="${action('payments')}" class="stack" id="record-payment"><h3>${im.recordPayment}</h3>${csrfField(page)}
  <label for="amount">${im.amount} (${doc.currency})</label>
  <input id="amount" name="amount" inputmode="decimal" required value="${((doc.amountDue ?? 0) / 100).toFixed(2)}">
  <label for="paid_at">${im.paidAt}</label><input id="paid_at" name="paid_at" type="date">
  <button type="submit">${im.record}</button></form>`
    : null
}${
    canCredit
      ? html`<form method="post" action="${action('credit-note')}" class="stack" id="issue-credit-note"><h3>${im.issueCreditNote}</h3>${csrfField(page)}
  <p class="muted">${im.creditNoteHint}</p>
  <label for="notes">${im.creditReason}</label><textarea id="notes" name="notes" rows="2" maxlength="${notesLimit}"></textarea>
  <button type="submit">${im.issueCreditNote}</button></form>`
      : null
  }</section>`;
}

export async function invoicePages(app: FastifyInstance, { deps, env }: { deps: Deps; env: Env }): Promise<void> {
  for (const { path, kind } of kinds) {
    app.get(`/${path}`, async (request, reply) => {
      const page = pageOf(request, env);
      const im = invoiceMessagesOf(page.lang);
      const raw = request.query as ListQuery;
      const q = {
        status: summaryStatuses.find((status) => status === raw.status) ?? '',
        customer: idShaped(raw.customer?.trim()) ?? '',
        date_from: isDay(raw.date_from) ?? '',
        date_to: isDay(raw.date_to) ?? '',
        number: (raw.number ?? '').trim().slice(0, 35),
      };
      const list = await listDocuments(
        deps,
        page.scope,
        kind,
        { limit: pageSize, startingAfter: idShaped(raw.starting_after) },
        {
          status: q.status || undefined,
          customerId: q.customer || undefined,
          dateFrom: q.date_from || undefined,
          dateTo: q.date_to || undefined,
          number: q.number || undefined,
        },
        `${page.base}/${path}`,
      );
      const docs = list.data;
      const keep = new URLSearchParams(Object.entries(q).filter(([, value]) => value !== ''));
      const more =
        list.has_more && list.next_cursor
          ? html`<a rel="next" href="${page.base}/${path}?${new URLSearchParams([...keep, ['starting_after', list.next_cursor]]).toString()}">${im.older}</a>`
          : null;
      const first = raw.starting_after
        ? html`<a href="${page.base}/${path}?${keep.toString()}">${im.newest}</a>`
        : null;
      const tabs = kinds.map(
        (other) =>
          html`<a href="${page.base}/${other.path}"${other.kind === kind ? html` aria-current="page"` : null}>${other.kind === 'invoice' ? im.invoices : im.creditNotes}</a> `,
      );
      const filtered = Object.values(q).some((value) => value !== '');
      const content = html`<nav class="tabs">${tabs}</nav>${filters(page, im, path, q)}
${docs.length === 0 ? html`<p class="muted">${im.none(kind, filtered)}</p>` : listTable(page, im, path, docs)}
<p class="pager">${first} ${more}</p>`;
      const title = kind === 'invoice' ? im.invoices : im.creditNotes;
      return reply
        .type(text)
        .send(layout(page, { title, section: 'invoices', notice: noticeOf(request.query, page.m) }, content));
    });

    async function renderDocument(
      request: FastifyRequest,
      reply: FastifyReply,
      extra: { status?: number; error?: string } = {},
    ) {
      const page = pageOf(request, env);
      const im = invoiceMessagesOf(page.lang);
      const id = (request.params as { id: string }).id;
      const doc = await getInvoiceDocument(deps, page.scope, kind, id);
      const history = await documentHistory(deps, page.scope, kind, id);
      const notice = (request.query as { notice?: string }).notice;
      const content = html`<dl class="facts">
  <dt>${im.status}</dt><dd>${statusTag(im, doc.status)}</dd>
  <dt>${im.customer}</dt><dd>${doc.buyer?.name ?? html`<span class="muted">—</span>`}</dd>
  ${doc.relatedInvoiceId ? html`<dt>${im.corrects}</dt><dd><a href="${page.base}/invoices/${doc.relatedInvoiceId}" data-related-invoice="${doc.relatedInvoiceId}">${doc.relatedInvoiceNumber ?? doc.relatedInvoiceId}</a></dd>` : null}
  <dt>${im.date}</dt><dd>${formatDate(page, doc.issueDate)}</dd>
  <dt>${im.dueDate}</dt><dd>${formatDate(page, doc.dueDate)}</dd>
  <dt>${im.total}</dt><dd>${money(page, doc.total, doc.currency)}</dd>
  <dt>${im.amountDue}</dt><dd>${money(page, doc.amountDue, doc.currency)}</dd>
</dl>
${rejectionBlock(page, im, doc)}
${actionsBlock(page, im, path, doc)}
${filesBlock(page, im, path, doc)}
${timeline(page, im, doc, history)}`;
      const shown =
        notice && Object.hasOwn(im.notices, notice) ? im.notices[notice as keyof InvoiceMessages['notices']] : null;
      return reply
        .code(extra.status ?? 200)
        .type(text)
        .send(
          layout(
            page,
            {
              title: im.documentTitle(kind, doc.number),
              section: 'invoices',
              notice: shown,
              error: extra.error ?? null,
            },
            content,
          ),
        );
    }

    app.get(`/${path}/:id`, async (request, reply) => renderDocument(request, reply));

    // The file, served under the dashboard session: inline for the PDF shown in the page.
    app.get(`/${path}/:id/files/:file`, async (request, reply) => {
      const page = pageOf(request, env);
      const { id, file } = request.params as { id: string; file: string };
      const fileKind = fileKinds.find((candidate) => candidate === file);
      if (!fileKind) return reply.callNotFound();
      const found = await documentFile(deps, page.scope, kind, id, fileKind);
      const download = (request.query as { download?: string }).download === '1';
      return (
        reply
          .type(found.contentType)
          // Only the dashboard's own pages may frame it; nothing in it may run.
          .header('content-security-policy', "default-src 'none'; frame-ancestors 'self'")
          .header('x-frame-options', 'SAMEORIGIN')
          .header('content-disposition', `${download ? 'attachment' : 'inline'}; filename="${found.fileName}"`)
          .send(found.bytes)
      );
    });

    // Each action is the API's use case, refusals shown on the document's page.
    // An action answers with its notice, shown on the document's page (or on the document it made).
    const act = (
      name: string,
      run: (request: FastifyRequest, page: Page, id: string) => Promise<string | { notice: string; at: string }>,
    ) =>
      app.post(`/${path}/:id/${name}`, async (request, reply) => {
        const page = pageOf(request, env);
        const id = (request.params as { id: string }).id;
        try {
          const done = await run(request, page, id);
          const { notice, at } = typeof done === 'string' ? { notice: done, at: `${path}/${id}` } : done;
          return await reply.redirect(`${page.base}/${at}?notice=${notice}`, 303);
        } catch (error) {
          if (error instanceof ApiError && error.status < 500 && error.code !== 'not_found')
            return renderDocument(request, reply, { status: error.status, error: describeError(error) });
          throw error;
        }
      });

    act('finalize', async (request, page, id) => {
      const { siren, plan } = page.session.company;
      await finalize(deps, callContextOf(deps, request, page), kind, id, { siren, plan });
      return 'finalized';
    });
    act('send', async (request, page, id) => {
      await sendToPlatform(deps, callContextOf(deps, request, page), kind, id);
      return 'sent';
    });
    if (kind === 'invoice')
      act('payments', async (request, page, id) => {
        const form = formOf(request);
        const amount = centsOf(form.text('amount') ?? '');
        const paidAt = form.text('paid_at');
        await recordPayment(deps, callContextOf(deps, request, page), {
          invoiceId: id,
          amount,
          ...(paidAt ? { paidAt } : {}),
        } as Parameters<typeof recordPayment>[2]);
        return 'payment_recorded';
      });
    if (kind === 'invoice')
      act('credit-note', async (request, page, id) => {
        const notes = formOf(request).text('notes');
        if (notes && notes.length > notesLimit)
          throw refuse('invalid_field_value', `The reason is ${notes.length} characters; at most ${notesLimit}.`, {
            param: 'notes',
          });
        const ctx = callContextOf(deps, request, page);
        const invoice = await getInvoiceDocument(deps, page.scope, 'invoice', id);
        // Its own tax decision, on the invoice's buyer and lines today (a credit note is decided
        // like any fiscal document); an invoice that cannot be credited is refused before it.
        const decision =
          invoice.documentStatus === 'finalized'
            ? await createTaxDecision(deps, ctx, decisionInputOf(invoice, dayOf(ctx.now)))
            : null;
        const creditNote = await createCreditNote(deps, ctx, {
          relatedInvoiceId: id,
          ...(decision ? { taxDecisionId: decision.id } : {}),
          ...(notes ? { notes } : {}),
        });
        return { notice: 'credit_note_created', at: `credit-notes/${creditNote.id}` };
      });
  }
}
