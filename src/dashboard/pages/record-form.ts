import type { FastifyReply } from 'fastify';
import { ApiError } from '../../kernel/errors.js';
import { html, type Html } from '../../http/html.js';
import type { Page } from '../context.js';
import type { Form } from '../form.js';
import { csrfField, layout, type Section } from '../layout.js';
import { describeError } from '../page-error.js';

/**
 * The fields of the dashboard's create and edit forms (customers, products): each named as the
 * API's field (`name`, `address.postalCode`), so the `param` of a refusal marks the very field,
 * and the typed values come back in the form when the service refused them.
 */

/** What a service's refusal says beside the form: the API's code, its message and its `param`. */
export interface Refusal {
  code: string;
  param: string | null;
  message: string;
}

/** A refusal the user can correct is shown on the form; the rest (not found, our fault) is an error page. */
export function refusalOf(error: unknown): Refusal | null {
  if (!(error instanceof ApiError) || error.status >= 500 || error.code === 'not_found') return null;
  return { code: error.code, param: error.param ?? null, message: describeError(error) };
}

/**
 * Runs a form's action; a refusal the user can correct goes to `refused` with its HTTP status (the
 * form shown again), anything else is thrown to the error page.
 */
export async function submitted<T>(
  action: () => Promise<T>,
  refused: (refusal: Refusal, status: number) => T,
): Promise<T> {
  try {
    return await action();
  } catch (error) {
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    return refused(refusal, (error as ApiError).status);
  }
}

export function refusalBlock(refusal: Refusal | null): Html | null {
  if (!refusal) return null;
  return html`<p class="error" role="alert" id="refusal" data-code="${refusal.code}"${refusal.param ? html` data-param="${refusal.param}"` : null}>${refusal.message}${refusal.param ? html` <code>${refusal.param}</code>` : null}</p>`;
}

/** The typed values of the named fields, untrimmed (shown back as typed). */
export type Typed = Record<string, string>;

export function typedOf(form: Form, names: readonly string[]): Typed {
  return Object.fromEntries(names.map((name) => [name, form.get(name) ?? '']));
}

/** A typed value trimmed, undefined when blank. */
export function filled(typed: Typed, name: string): string | undefined {
  const value = typed[name]?.trim();
  return value ? value : undefined;
}

const invalid = (name: string, refusal: Refusal | null) =>
  refusal?.param === name ? html` aria-invalid="true" aria-describedby="refusal"` : null;

export function textField(options: {
  name: string;
  label: string;
  typed: Typed;
  refusal: Refusal | null;
  maxlength: number;
  required?: boolean;
  type?: 'email';
  inputmode?: 'decimal' | 'numeric';
  placeholder?: string;
}): Html {
  const { name, label, typed, refusal } = options;
  return html`<label for="${name}">${label}</label>
  <input id="${name}" name="${name}" value="${typed[name] ?? ''}" maxlength="${options.maxlength}"${options.type ? html` type="${options.type}"` : null}${options.inputmode ? html` inputmode="${options.inputmode}"` : null}${options.placeholder ? html` placeholder="${options.placeholder}"` : null}${options.required ? html` required` : null}${invalid(name, refusal)}>`;
}

export function textArea(options: {
  name: string;
  label: string;
  typed: Typed;
  refusal: Refusal | null;
  maxlength: number;
  rows: number;
}): Html {
  const { name, label, typed, refusal } = options;
  return html`<label for="${name}">${label}</label>
  <textarea id="${name}" name="${name}" rows="${options.rows}" maxlength="${options.maxlength}"${invalid(name, refusal)}>${typed[name] ?? ''}</textarea>`;
}

export function selectField(options: {
  name: string;
  label: string;
  typed: Typed;
  refusal: Refusal | null;
  choices: readonly { value: string; label: string }[];
}): Html {
  const { name, label, typed, refusal } = options;
  const choices = options.choices.map(
    (choice) =>
      html`<option value="${choice.value}"${choice.value === typed[name] ? html` selected` : null}>${choice.label}</option>`,
  );
  return html`<label for="${name}">${label}</label>
  <select id="${name}" name="${name}"${invalid(name, refusal)}>${choices}</select>`;
}

/** The pager of a keyset list: back to the newest, and the next page after the last row shown (filters kept). */
export function pager(
  path: string,
  list: { has_more: boolean; next_cursor: string | null },
  fromStart: boolean,
  words: { older: string; newest: string },
  keep: URLSearchParams = new URLSearchParams(),
): Html {
  const more =
    list.has_more && list.next_cursor
      ? html`<a rel="next" href="${path}?${new URLSearchParams([...keep, ['starting_after', list.next_cursor]]).toString()}">${words.older}</a>`
      : null;
  const kept = keep.toString();
  const first = fromStart ? null : html`<a href="${path}${kept ? `?${kept}` : ''}">${words.newest}</a>`;
  return html`<p class="pager">${first} ${more}</p>`;
}

/**
 * The confirmation of a deletion: a page of its own with a form that posts (CSRF-protected), so
 * that no link, prefetch or script-less click deletes anything.
 */
export function deletionConfirmation(
  page: Page,
  words: { question: string; explanation: string; confirm: string; cancel: string },
  action: string,
  back: string,
): Html {
  return html`<section class="card"><form method="post" action="${action}" class="stack" id="delete-form">
  ${csrfField(page)}
  <p><strong>${words.question}</strong></p>
  <p class="muted">${words.explanation}</p>
  <p><button type="submit" class="danger">${words.confirm}</button> <a href="${back}">${words.cancel}</a></p>
</form></section>`;
}

/** A query value (a list's `starting_after`, a customer filter) kept only when it has the shape of an id. */
export function idShaped(value: string | undefined): string | undefined {
  return value && /^[A-Za-z0-9_]{1,64}$/.test(value) ? value : undefined;
}

/** The notice named by `?notice=` among a page's own fixed texts (never echoed input). */
export function noticeIn<Notices extends Record<string, string>>(query: unknown, notices: Notices): string | null {
  const notice = (query as { notice?: unknown } | undefined)?.notice;
  return typeof notice === 'string' && Object.hasOwn(notices, notice) ? notices[notice as keyof Notices]! : null;
}

export interface PageOptions {
  status?: number;
  notice?: string | null;
}

/** Sends a record page of one dashboard section in the signed-in layout. */
export function sendRecordPage(
  reply: FastifyReply,
  section: Section,
  page: Page,
  title: string,
  content: Html,
  options: PageOptions = {},
): FastifyReply {
  return reply
    .code(options.status ?? 200)
    .type('text/html; charset=utf-8')
    .send(layout(page, { title, section, notice: options.notice ?? null }, content));
}
