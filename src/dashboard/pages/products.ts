import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Deps } from '../../deps.js';
import {
  createProduct,
  deleteProduct,
  getProduct,
  listProducts,
  productNatures,
  updateProduct,
  vatCategories,
  type Product,
  type ProductNature,
} from '../../products/service.js';
import { parseProductCreate, parseProductUpdate } from '../../products/product-input.js';
import { unitCodes } from '../../products/units.js';
import { callContextOf, pageOf, type Env, type Page } from '../context.js';
import { formOf } from '../form.js';
import { html, type Html } from '../../http/html.js';
import { csrfField, formatTime } from '../layout.js';
import { productMessagesOf, type ProductMessages } from '../product-messages.js';
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
const formFields = ['name', 'description', 'unitPrice', 'unit', 'nature', 'vatCategory'] as const;

/** What a person types as a price ("12,50", "1 200.5") as the API's decimal string; the service checks the rest. */
export function unitPriceOf(typed: string): string {
  return typed.replace(/[\s\u00a0\u202f€]/g, '').replace(',', '.');
}

/** A decimal string written with the reader's decimal separator, every decimal kept ("12,50"). */
function priceText(page: Page, unitPrice: string): string {
  return page.lang === 'fr' ? unitPrice.replace('.', ',') : unitPrice;
}

/** A body as the API takes it: the selects as chosen, a blank description absent (create) or cleared (update). */
function bodyOf(typed: Typed, blankDescription: null | undefined): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: typed.name?.trim() ?? '',
    unitPrice: unitPriceOf(typed.unitPrice ?? ''),
  };
  for (const name of ['unit', 'nature', 'vatCategory'] as const) if (typed[name]) body[name] = typed[name];
  const description = filled(typed, 'description') ?? blankDescription;
  if (description !== undefined) body.description = description;
  return body;
}

function typedFromProduct(page: Page, product: Product): Typed {
  return {
    name: product.name,
    description: product.description ?? '',
    unitPrice: priceText(page, product.unitPrice),
    unit: product.unit,
    nature: product.nature,
    vatCategory: product.vatCategory,
  };
}

function productForm(
  page: Page,
  pm: ProductMessages,
  action: string,
  typed: Typed,
  refusal: Refusal | null,
  submit: string,
): Html {
  return html`<section class="card"><form method="post" action="${action}" class="stack" id="product-form">
  ${csrfField(page)}
  ${refusalBlock(refusal)}
  ${textField({ name: 'name', label: pm.name, typed, refusal, maxlength: 200, required: true })}
  ${textArea({ name: 'description', label: pm.description, typed, refusal, maxlength: 1000, rows: 3 })}
  ${textField({ name: 'unitPrice', label: pm.unitPrice, typed, refusal, maxlength: 20, required: true, inputmode: 'decimal', placeholder: '12,50' })}
  <small class="muted">${pm.unitPriceHint}</small>
  ${selectField({ name: 'unit', label: pm.unit, typed, refusal, choices: unitCodes.map((code) => ({ value: code, label: `${pm.units[code]} (${code})` })) })}
  ${selectField({ name: 'nature', label: pm.nature, typed, refusal, choices: productNatures.map((value) => ({ value, label: pm.natures[value] })) })}
  ${selectField({ name: 'vatCategory', label: pm.vatCategory, typed, refusal, choices: vatCategories.map((value) => ({ value, label: pm.vatCategories[value] })) })}
  <button type="submit">${submit}</button>
</form></section>`;
}

function natureFilter(page: Page, pm: ProductMessages, nature: ProductNature | undefined): Html {
  const options = productNatures.map(
    (value) => html`<option value="${value}"${value === nature ? html` selected` : null}>${pm.natures[value]}</option>`,
  );
  return html`<form method="get" action="${page.base}/products" class="filters">
  <label for="nature">${pm.nature}</label>
  <select id="nature" name="nature"><option value="">${pm.allNatures}</option>${options}</select>
  <button type="submit">${pm.filter}</button>
</form>`;
}

function factsBlock(page: Page, pm: ProductMessages, product: Product): Html {
  return html`<dl class="facts" id="product">
  <dt>${pm.unitPrice}</dt><dd data-unit-price="${product.unitPrice}">${priceText(page, product.unitPrice)}</dd>
  <dt>${pm.unit}</dt><dd>${pm.units[product.unit]} <code>${product.unit}</code></dd>
  <dt>${pm.nature}</dt><dd>${pm.natures[product.nature]}</dd>
  <dt>${pm.vatCategory}</dt><dd>${pm.vatCategories[product.vatCategory]}</dd>
  ${product.description ? html`<dt>${pm.description}</dt><dd>${product.description}</dd>` : null}
  <dt>${pm.created}</dt><dd>${formatTime(page, product.created)}</dd>
  <dt>${pm.updated}</dt><dd>${formatTime(page, product.updated)}</dd>
</dl>`;
}

export async function productPages(app: FastifyInstance, { deps, env }: { deps: Deps; env: Env }): Promise<void> {
  const send = (reply: FastifyReply, page: Page, title: string, content: Html, options: PageOptions = {}) =>
    sendRecordPage(reply, 'products', page, title, content, options);

  app.get('/products', async (request, reply) => {
    const page = pageOf(request, env);
    const pm = productMessagesOf(page.lang);
    const query = request.query as { starting_after?: string; nature?: string };
    const startingAfter = idShaped(query.starting_after);
    const nature = productNatures.find((value) => value === query.nature);
    const list = await listProducts(deps, page.scope, { limit: pageSize, startingAfter }, { nature });
    const rows = list.data.map(
      (product) => html`<tr data-product="${product.id}">
  <td><a href="${page.base}/products/${product.id}">${product.name}</a></td>
  <td class="num">${priceText(page, product.unitPrice)}</td>
  <td>${pm.units[product.unit]}</td>
  <td>${pm.natures[product.nature]}</td>
  <td>${pm.vatCategories[product.vatCategory]}</td></tr>`,
    );
    const keep = new URLSearchParams(nature ? [['nature', nature]] : []);
    const content = html`<p class="actions"><a href="${page.base}/products/new">${pm.newProduct}</a></p>
${natureFilter(page, pm, nature)}
${
  rows.length === 0
    ? html`<p class="muted">${pm.none}</p>`
    : html`<div class="table-wrap"><table id="products"><thead><tr><th>${pm.name}</th><th>${pm.unitPrice}</th><th>${pm.unit}</th><th>${pm.nature}</th><th>${pm.vatCategory}</th></tr></thead><tbody>${rows}</tbody></table></div>`
}
${pager(`${page.base}/products`, list, startingAfter === undefined, pm, keep)}`;
    return send(reply, page, pm.products, content);
  });

  app.get('/products/new', async (request, reply) => {
    const page = pageOf(request, env);
    const pm = productMessagesOf(page.lang);
    const typed: Typed = { unit: 'C62', nature: 'services', vatCategory: 'standard' };
    return send(reply, page, pm.newProduct, productForm(page, pm, `${page.base}/products`, typed, null, pm.create));
  });

  app.post('/products', async (request, reply) => {
    const page = pageOf(request, env);
    const pm = productMessagesOf(page.lang);
    const typed = typedOf(formOf(request), formFields);
    return submitted(
      async () => {
        const input = parseProductCreate(bodyOf(typed, undefined));
        const product = await createProduct(deps, callContextOf(deps, request, page), input);
        return reply.redirect(`${page.base}/products/${product.id}?notice=product_created`, 303);
      },
      (refusal, status) =>
        send(reply, page, pm.newProduct, productForm(page, pm, `${page.base}/products`, typed, refusal, pm.create), {
          status,
        }),
    );
  });

  app.get('/products/:id', async (request, reply) => {
    const page = pageOf(request, env);
    const pm = productMessagesOf(page.lang);
    const product = await getProduct(deps, page.scope, (request.params as { id: string }).id);
    const content = html`${product.deleted ? html`<p class="muted" data-deleted="true">${pm.deleted}</p>` : html`<p class="actions"><a href="${page.base}/products/${product.id}/edit">${pm.editProduct}</a> · <a href="${page.base}/products/${product.id}/delete">${pm.deleteProduct}</a></p>`}
${factsBlock(page, pm, product)}`;
    return send(reply, page, product.name, content, { notice: noticeIn(request.query, pm.notices) });
  });

  app.get('/products/:id/delete', async (request, reply) => {
    const page = pageOf(request, env);
    const pm = productMessagesOf(page.lang);
    const product = await getProduct(deps, page.scope, (request.params as { id: string }).id);
    const back = `${page.base}/products/${product.id}`;
    if (product.deleted) return reply.redirect(back, 303);
    const words = {
      question: pm.deleteQuestion(product.name),
      explanation: pm.deleteExplanation,
      confirm: pm.deleteProduct,
      cancel: pm.cancel,
    };
    return send(reply, page, pm.deleteProduct, deletionConfirmation(page, words, `${back}/delete`, back));
  });

  app.post('/products/:id/delete', async (request, reply) => {
    const page = pageOf(request, env);
    const id = (request.params as { id: string }).id;
    await deleteProduct(deps, callContextOf(deps, request, page), id);
    return reply.redirect(`${page.base}/products/${id}?notice=product_deleted`, 303);
  });

  app.get('/products/:id/edit', async (request, reply) => {
    const page = pageOf(request, env);
    const pm = productMessagesOf(page.lang);
    const product = await getProduct(deps, page.scope, (request.params as { id: string }).id);
    const action = `${page.base}/products/${product.id}`;
    const content = html`${productForm(page, pm, action, typedFromProduct(page, product), null, pm.save)}
<p><a href="${action}">${pm.cancel}</a></p>`;
    return send(reply, page, `${pm.editProduct} · ${product.name}`, content);
  });

  app.post('/products/:id', async (request, reply) => {
    const page = pageOf(request, env);
    const pm = productMessagesOf(page.lang);
    const id = (request.params as { id: string }).id;
    const typed = typedOf(formOf(request), formFields);
    return submitted(
      async () => {
        const input = parseProductUpdate(bodyOf(typed, null));
        await updateProduct(deps, callContextOf(deps, request, page), id, input);
        return reply.redirect(`${page.base}/products/${id}?notice=product_updated`, 303);
      },
      (refusal, status) =>
        send(
          reply,
          page,
          pm.editProduct,
          productForm(page, pm, `${page.base}/products/${id}`, typed, refusal, pm.save),
          { status },
        ),
    );
  });
}
