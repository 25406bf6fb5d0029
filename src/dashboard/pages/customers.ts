import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Deps } from '../../deps.js';
import {
  createCustomer,
  deleteCustomer,
  getCustomer,
  importCustomers,
  listCustomers,
  updateCustomer,
  type Customer,
  type CustomerAddress,
  type CustomerImport,
} from '../../customers/service.js';
import { parseCustomerCreate, parseCustomerUpdate } from '../../customers/customer-input.js';
import { csvColumns } from '../../customers/customer-csv.js';
import { listDocuments } from '../../invoices/service.js';
import { callContextOf, pageOf, type Env, type Page } from '../context.js';
import { formOf } from '../form.js';
import { html, type Html } from '../../http/html.js';
import { csrfField, formatDate, formatTime } from '../layout.js';
import { customerMessagesOf, type CustomerMessages } from '../customer-messages.js';
import {
  filled,
  pager,
  refusalBlock,
  deletionConfirmation,
  idShaped,
  noticeIn,
  sendRecordPage,
  submitted,
  type PageOptions,
  selectField,
  textArea,
  textField,
  typedOf,
  type Refusal,
  type Typed,
} from './record-form.js';

const pageSize = 25;
const muted = html`<span class="muted">—</span>`;

/** The form's fields, named as the API's fields (so a refusal's `param` names one of them). */
const identityFields = ['name', 'email', 'siren', 'siret', 'vatNumber', 'electronicAddress', 'routingCode'] as const;
const addressLines = ['line1', 'line2', 'postalCode', 'city'] as const;
const formFields = ['type', ...identityFields, ...addressLines.map((f) => `address.${f}`), 'address.country'];

/** The address typed in the form; none when no line of it is filled (the country alone says nothing). */
function typedAddress(typed: Typed, blank: null | undefined) {
  if (addressLines.every((line) => filled(typed, `address.${line}`) === undefined)) return blank;
  const address: Record<string, string | null> = { country: (filled(typed, 'address.country') ?? 'FR').toUpperCase() };
  for (const line of addressLines) address[line] = filled(typed, `address.${line}`) ?? null;
  return address;
}

/** A creation body as `POST /v1/customers` takes it: blank fields are absent. */
function createBody(typed: Typed): Record<string, unknown> {
  const body: Record<string, unknown> = { name: typed.name?.trim() ?? '' };
  if (typed.type) body.type = typed.type;
  for (const name of identityFields.slice(1)) if (filled(typed, name)) body[name] = filled(typed, name);
  const address = typedAddress(typed, undefined);
  if (address) body.address = address;
  return body;
}

/** An update body as `POST /v1/customers/:id` takes it: a blank field clears it (null). */
function updateBody(typed: Typed): Record<string, unknown> {
  const body: Record<string, unknown> = { name: typed.name?.trim() ?? '', address: typedAddress(typed, null) };
  if (typed.type) body.type = typed.type;
  for (const name of identityFields.slice(1)) body[name] = filled(typed, name) ?? null;
  return body;
}

function typedFromCustomer(customer: Customer): Typed {
  const typed: Typed = { type: customer.type };
  for (const name of identityFields) typed[name] = customer[name] ?? '';
  for (const line of addressLines) typed[`address.${line}`] = customer.address?.[line] ?? '';
  typed['address.country'] = customer.address?.country ?? 'FR';
  return typed;
}

function customerForm(
  page: Page,
  cm: CustomerMessages,
  action: string,
  typed: Typed,
  refusal: Refusal | null,
  submit: string,
): Html {
  const field = (
    name: string,
    label: string,
    maxlength: number,
    extra: Partial<Parameters<typeof textField>[0]> = {},
  ) => textField({ name, label, typed, refusal, maxlength, ...extra });
  const opt = (label: string) => `${label} ${cm.optional}`;
  return html`<section class="card"><form method="post" action="${action}" class="stack" id="customer-form">
  ${csrfField(page)}
  ${refusalBlock(refusal)}
  ${selectField({
    name: 'type',
    label: cm.type,
    typed,
    refusal,
    choices: (['company', 'individual'] as const).map((value) => ({ value, label: cm.types[value] })),
  })}
  ${field('name', cm.name, 200, { required: true })}
  ${field('email', opt(cm.email), 254, { type: 'email' })}
  ${field('siren', opt(cm.siren), 20, { inputmode: 'numeric' })}
  ${field('siret', opt(cm.siret), 20, { inputmode: 'numeric' })}
  ${field('vatNumber', opt(cm.vatNumber), 30, { placeholder: 'FR…' })}
  ${field('electronicAddress', opt(cm.electronicAddress), 125)}
  ${field('routingCode', opt(cm.routingCode), 100)}
  <fieldset><legend>${cm.address} ${cm.optional}</legend>
  ${field('address.line1', cm.line1, 200)}
  ${field('address.line2', cm.line2, 200)}
  ${field('address.postalCode', cm.postalCode, 20)}
  ${field('address.city', cm.city, 100)}
  ${field('address.country', cm.country, 2)}
  </fieldset>
  <button type="submit">${submit}</button>
</form></section>`;
}

function addressText(address: CustomerAddress | null): Html {
  if (!address) return muted;
  const lines = [
    address.line1,
    address.line2,
    [address.postalCode, address.city].filter(Boolean).join(' '),
    address.country,
  ];
  return html`${lines.filter(Boolean).map((line, i) => html`${i > 0 ? html`<br>` : null}${line}`)}`;
}

function checksBlock(page: Page, cm: CustomerMessages, customer: Customer): Html {
  const directory = customer.directoryVerification
    ? html`<span data-directory="${customer.directoryVerification}">${cm.directoryStatuses[customer.directoryVerification]}</span>`
    : html`<span class="muted">${page.livemode ? '—' : cm.notAskedInTest}</span>`;
  const vat = customer.vatValidation;
  const vies = vat
    ? html`<span data-vies="${vat.status}">${cm.viesStatuses[vat.status]}</span>${vat.checkedAt ? html` · ${formatTime(page, vat.checkedAt)}` : null}${vat.requestIdentifier ? html` · ${cm.viesProof} <code>${vat.requestIdentifier}</code>` : null}`
    : html`<span class="muted">${page.livemode ? '—' : cm.notAskedInTest}</span>`;
  return html`<dt>${cm.directoryVerification}</dt><dd>${directory}</dd><dt>${cm.vies}</dt><dd>${vies}</dd>`;
}

function factsBlock(page: Page, cm: CustomerMessages, customer: Customer): Html {
  const value = (v: string | null) => (v ? html`<code>${v}</code>` : muted);
  return html`<dl class="facts" id="customer">
  <dt>${cm.type}</dt><dd>${cm.types[customer.type]}</dd>
  <dt>${cm.email}</dt><dd>${customer.email ?? muted}</dd>
  <dt>${cm.siren}</dt><dd>${value(customer.siren)}</dd>
  <dt>${cm.siret}</dt><dd>${value(customer.siret)}</dd>
  <dt>${cm.vatNumber}</dt><dd>${value(customer.vatNumber)}</dd>
  <dt>${cm.electronicAddress}</dt><dd>${value(customer.electronicAddress)}</dd>
  <dt>${cm.routingCode}</dt><dd>${value(customer.routingCode)}</dd>
  <dt>${cm.address}</dt><dd>${addressText(customer.address)}</dd>
  ${customer.address?.territory ? html`<dt>${cm.territory}</dt><dd><code>${customer.address.territory}</code></dd>` : null}
  ${customer.deliveryAddress ? html`<dt>${cm.deliveryAddress}</dt><dd>${addressText(customer.deliveryAddress)}</dd>` : null}
  ${checksBlock(page, cm, customer)}
  ${customer.registryNonDisclosure.length > 0 ? html`<dt>${cm.nonDisclosure}</dt><dd>${customer.registryNonDisclosure.join(', ')}</dd>` : null}
  <dt>${cm.created}</dt><dd>${formatTime(page, customer.created)}</dd>
  <dt>${cm.updated}</dt><dd>${formatTime(page, customer.updated)}</dd>
</dl>`;
}

async function lastInvoices(deps: Deps, page: Page, cm: CustomerMessages, customer: Customer): Promise<Html> {
  const list = await listDocuments(
    deps,
    page.scope,
    'invoice',
    { limit: 10 },
    { customerId: customer.id },
    `${page.base}/invoices`,
  );
  if (list.data.length === 0) return html`<h2>${cm.lastInvoices}</h2><p class="muted">${cm.noInvoice}</p>`;
  const rows = list.data.map(
    (
      doc,
    ) => html`<tr data-document="${doc.id}"><td><a href="${page.base}/invoices/${doc.id}">${doc.number ?? '—'}</a></td>
  <td>${formatDate(page, doc.issueDate ?? doc.created)}</td>
  <td class="num">${doc.total === null ? muted : page.f.amount(doc.total / 100, doc.currency)}</td></tr>`,
  );
  return html`<h2>${cm.lastInvoices}</h2><div class="table-wrap"><table id="customer-invoices"><tbody>${rows}</tbody></table></div>
<p><a href="${page.base}/invoices?customer=${customer.id}">${cm.allInvoices}</a></p>`;
}

function importReport(page: Page, cm: CustomerMessages, result: CustomerImport): Html {
  const n = (value: number) => page.f.number(value);
  const rows = result.refusals.map(
    (refusal) =>
      html`<tr data-line="${refusal.line}" data-code="${refusal.code}"><td class="num">${refusal.line}</td><td><code>${refusal.code}</code></td><td>${refusal.param ? html`<code>${refusal.param}</code>` : muted}</td><td>${refusal.message}</td></tr>`,
  );
  return html`<section class="card" id="import-report"><h2>${cm.report}</h2>
<ul><li data-count="lines">${cm.lines(n(result.lines))}</li><li data-count="imported">${cm.imported(n(result.imported))}</li><li data-count="refused">${cm.refused(n(result.refused))}</li></ul>
${rows.length > 0 ? html`<div class="table-wrap"><table id="import-refusals"><thead><tr><th>${cm.line}</th><th>${cm.code}</th><th>${cm.field}</th><th>${cm.reason}</th></tr></thead><tbody>${rows}</tbody></table></div>` : null}
</section>`;
}

function importForm(page: Page, cm: CustomerMessages, typed: Typed, refusal: Refusal | null): Html {
  return html`<section class="card"><form method="post" action="${page.base}/customers/import" class="stack" id="import-form">
  ${csrfField(page)}
  ${refusalBlock(refusal)}
  <p>${cm.importIntro}</p>
  <p>${cm.columns} <code>${csvColumns.join(', ')}</code></p>
  ${textArea({ name: 'csv', label: cm.csv, typed, refusal, maxlength: 60_000, rows: 12 })}
  <button type="submit">${cm.runImport}</button>
</form></section>`;
}

export async function customerPages(app: FastifyInstance, { deps, env }: { deps: Deps; env: Env }): Promise<void> {
  const send = (reply: FastifyReply, page: Page, title: string, content: Html, options: PageOptions = {}) =>
    sendRecordPage(reply, 'customers', page, title, content, options);

  app.get('/customers', async (request, reply) => {
    const page = pageOf(request, env);
    const cm = customerMessagesOf(page.lang);
    const startingAfter = idShaped((request.query as { starting_after?: string }).starting_after);
    const list = await listCustomers(deps, page.scope, { limit: pageSize, startingAfter }, {});
    const rows = list.data.map(
      (customer) => html`<tr data-customer="${customer.id}">
  <td><a href="${page.base}/customers/${customer.id}">${customer.name}</a></td>
  <td>${customer.siren ? html`<code>${customer.siren}</code>` : muted}</td>
  <td>${customer.email ?? muted}</td>
  <td>${formatTime(page, customer.created)}</td></tr>`,
    );
    const content = html`<p class="actions"><a href="${page.base}/customers/new">${cm.newCustomer}</a> · <a href="${page.base}/customers/import">${cm.importCsv}</a></p>
${
  rows.length === 0
    ? html`<p class="muted">${cm.none}</p>`
    : html`<div class="table-wrap"><table id="customers"><thead><tr><th>${cm.name}</th><th>${cm.siren}</th><th>${cm.email}</th><th>${cm.created}</th></tr></thead><tbody>${rows}</tbody></table></div>`
}
${pager(`${page.base}/customers`, list, startingAfter === undefined, cm)}`;
    return send(reply, page, cm.customers, content);
  });

  app.get('/customers/new', async (request, reply) => {
    const page = pageOf(request, env);
    const cm = customerMessagesOf(page.lang);
    const typed: Typed = { type: 'company', 'address.country': 'FR' };
    return send(reply, page, cm.newCustomer, customerForm(page, cm, `${page.base}/customers`, typed, null, cm.create));
  });

  app.post('/customers', async (request, reply) => {
    const page = pageOf(request, env);
    const cm = customerMessagesOf(page.lang);
    const typed = typedOf(formOf(request), formFields);
    return submitted(
      async () => {
        const input = parseCustomerCreate(createBody(typed));
        const customer = await createCustomer(deps, callContextOf(deps, request, page), input);
        return reply.redirect(`${page.base}/customers/${customer.id}?notice=customer_created`, 303);
      },
      (refusal, status) =>
        send(reply, page, cm.newCustomer, customerForm(page, cm, `${page.base}/customers`, typed, refusal, cm.create), {
          status,
        }),
    );
  });

  app.get('/customers/import', async (request, reply) => {
    const page = pageOf(request, env);
    const cm = customerMessagesOf(page.lang);
    return send(reply, page, cm.importCsv, importForm(page, cm, { csv: 'name;siren;email\n' }, null));
  });

  app.post('/customers/import', async (request, reply) => {
    const page = pageOf(request, env);
    const cm = customerMessagesOf(page.lang);
    const typed = typedOf(formOf(request), ['csv']);
    return submitted(
      async () => {
        const answer = await importCustomers(deps, callContextOf(deps, request, page), typed.csv ?? '');
        const content =
          answer.kind === 'result'
            ? importReport(page, cm, answer.result)
            : html`<p class="notice" role="status" data-job="${answer.job.id}">${cm.importJob(answer.job.id)}</p>`;
        return send(reply, page, cm.importCsv, html`${content}${importForm(page, cm, { csv: '' }, null)}`);
      },
      (refusal, status) => send(reply, page, cm.importCsv, importForm(page, cm, typed, refusal), { status }),
    );
  });

  app.get('/customers/:id', async (request, reply) => {
    const page = pageOf(request, env);
    const cm = customerMessagesOf(page.lang);
    const customer = await getCustomer(deps, page.scope, (request.params as { id: string }).id);
    const content = html`${customer.deleted ? html`<p class="muted" data-deleted="true">${cm.deleted}</p>` : html`<p class="actions"><a href="${page.base}/customers/${customer.id}/edit">${cm.editCustomer}</a> · <a href="${page.base}/customers/${customer.id}/delete">${cm.deleteCustomer}</a></p>`}
${factsBlock(page, cm, customer)}
${await lastInvoices(deps, page, cm, customer)}`;
    return send(reply, page, customer.name, content, { notice: noticeIn(request.query, cm.notices) });
  });

  app.get('/customers/:id/delete', async (request, reply) => {
    const page = pageOf(request, env);
    const cm = customerMessagesOf(page.lang);
    const customer = await getCustomer(deps, page.scope, (request.params as { id: string }).id);
    const back = `${page.base}/customers/${customer.id}`;
    if (customer.deleted) return reply.redirect(back, 303);
    const words = {
      question: cm.deleteQuestion(customer.name),
      explanation: cm.deleteExplanation,
      confirm: cm.deleteCustomer,
      cancel: cm.cancel,
    };
    return send(reply, page, cm.deleteCustomer, deletionConfirmation(page, words, `${back}/delete`, back));
  });

  app.post('/customers/:id/delete', async (request, reply) => {
    const page = pageOf(request, env);
    const id = (request.params as { id: string }).id;
    await deleteCustomer(deps, callContextOf(deps, request, page), id);
    return reply.redirect(`${page.base}/customers/${id}?notice=customer_deleted`, 303);
  });

  app.get('/customers/:id/edit', async (request, reply) => {
    const page = pageOf(request, env);
    const cm = customerMessagesOf(page.lang);
    const customer = await getCustomer(deps, page.scope, (request.params as { id: string }).id);
    const action = `${page.base}/customers/${customer.id}`;
    const content = html`<p class="muted">${cm.editHint}</p>${customerForm(page, cm, action, typedFromCustomer(customer), null, cm.save)}
<p><a href="${action}">${cm.cancel}</a></p>`;
    return send(reply, page, `${cm.editCustomer} · ${customer.name}`, content);
  });

  app.post('/customers/:id', async (request, reply) => {
    const page = pageOf(request, env);
    const cm = customerMessagesOf(page.lang);
    const id = (request.params as { id: string }).id;
    const typed = typedOf(formOf(request), formFields);
    return submitted(
      async () => {
        const input = parseCustomerUpdate(updateBody(typed));
        await updateCustomer(deps, callContextOf(deps, request, page), id, input);
        return reply.redirect(`${page.base}/customers/${id}?notice=customer_updated`, 303);
      },
      (refusal, status) =>
        send(
          reply,
          page,
          cm.editCustomer,
          customerForm(page, cm, `${page.base}/customers/${id}`, typed, refusal, cm.save),
          { status },
        ),
    );
  });
}
