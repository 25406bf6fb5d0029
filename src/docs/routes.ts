import type { FastifyInstance } from 'fastify';
import { catalogue, errorTypes } from '../kernel/errors.js';
import { escapeHtml as escape } from '../http/html.js';
import { apiReferenceRoutes } from './api-reference.js';

/**
 * A catalogue text as HTML: its Markdown backtick spans as `<code>`, everything else escaped. Only
 * inline code is Markdown there; a backtick left without its pair stays as it is.
 */
export function catalogueTextHtml(text: string): string {
  return text.replace(/`([^`]+)`|([^`]+|`)/g, (_span, code: string | undefined, plain: string | undefined) =>
    code === undefined ? escape(plain!) : `<code>${escape(code)}</code>`,
  );
}

/** The page every `doc_url` points into: one anchor per code of the catalogue. */
function errorsPage(): string {
  const rows = Object.entries(catalogue).map(([code, entry]) => {
    const status = 'status' in entry ? entry.status : errorTypes[entry.type];
    const hint = 'hint' in entry && entry.hint ? ` ${catalogueTextHtml(entry.hint)}` : '';
    const message = entry.message === '{detail}' ? '(message written for each case)' : catalogueTextHtml(entry.message);
    return `<tr id="${code}"><td><code>${code}</code></td><td><code>${entry.type}</code></td><td>${status}</td><td>${message}${hint}</td></tr>`;
  });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>facteur: error codes</title><style>body{font:15px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;vertical-align:top}tr:target{background:#fff6d5}</style></head>
<body><h1>Error codes</h1><p>Every refusal is <code>{"error": {type, code, message, param?, doc_url, hint?, request_id, issues?}}</code>. Branch on <code>code</code>, never on the message.</p>
<table><thead><tr><th>code</th><th>type</th><th>status</th><th>meaning</th></tr></thead><tbody>${rows.join('')}</tbody></table></body></html>`;
}

export async function docsRoutes(app: FastifyInstance): Promise<void> {
  const page = errorsPage();
  await apiReferenceRoutes(app);
  app.get('/docs/errors', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(page),
  );
}
