/**
 * docs/reference is the output of `npm run docs:reference`: the pages generated again from the
 * OpenAPI document of an app built as every test builds it must equal the committed ones; and
 * the renderer, on a small hand-made document, writes a required field's row, an enum's values,
 * the error codes an operation names, and an example request.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { startHarness, type Harness } from '../support/harness.js';
import {
  operationErrorCodes,
  referencePages,
  type CatalogueCode,
  type OpenApiDocument,
} from '../../src/docs/reference-pages.js';

const directory = fileURLToPath(new URL('../../docs/reference/', import.meta.url));

describe('docs/reference against the OpenAPI document', { timeout: 120_000 }, () => {
  let harness: Harness;
  before(async () => {
    harness = await startHarness();
  });
  after(async () => harness?.close());

  test('the committed pages are those generated from the document (npm run docs:reference)', async () => {
    const pages = referencePages(harness.app.swagger() as unknown as OpenApiDocument);
    const committed = (await readdir(directory)).filter((name) => name.endsWith('.md')).sort();
    assert.deepEqual(committed, [...pages.keys()], 'docs/reference has other pages: run npm run docs:reference');
    const stale: string[] = [];
    for (const [name, text] of pages) if ((await readFile(directory + name, 'utf8')) !== text) stale.push(name);
    assert.deepEqual(stale, [], `docs/reference is stale (${stale.join(', ')}): run npm run docs:reference`);
    assert.ok(pages.get('invoices.md')!.includes('## POST /v1/invoices/{id}/finalize'), 'an operation has its section');
  });
});

const codes: CatalogueCode[] = [
  { code: 'missing_api_key', type: 'authentication_error', status: 401, message: 'No API key provided.' },
  { code: 'not_found', type: 'not_found_error', status: 404, message: '{detail}' },
  { code: 'widget_jammed', type: 'invalid_request_error', status: 400, message: 'The widget is jammed.' },
  {
    code: 'widget_melted',
    type: 'invalid_request_error',
    status: 422,
    message: 'The widget melted.',
    hint: 'Cool it.',
  },
  { code: 'gadget_lost', type: 'invalid_request_error', status: 400, message: 'Lost.' },
  { code: 'internal_error', type: 'api_error', status: 500, message: 'Something went wrong.' },
];

const document: OpenApiDocument = {
  info: { title: 'widgets', version: '2026-01-01', description: 'Widgets API.' },
  paths: {
    '/v1/widgets/{id}/paint': {
      post: {
        summary: 'Paint a widget',
        description: 'Refused with `widget_*` when the widget is not ready, and `gadget_lost`; `not_a_code` is prose.',
        tags: ['Widgets'],
        security: [{ apiKey: [] }],
        'x-required-scope': 'widgets:write',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['colour'],
                properties: {
                  colour: {
                    anyOf: [
                      { type: 'string', enum: ['red'] },
                      { type: 'string', enum: ['blue'] },
                    ],
                  },
                  coats: { type: ['integer', 'null'], description: 'How many coats.' },
                  finish: {
                    type: 'object',
                    required: ['gloss'],
                    properties: { gloss: { type: 'boolean' }, note: { type: 'string' } },
                  },
                },
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'Default Response',
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/Widget' }, example: { id: 'wid_1' } },
            },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Widget: {
        type: 'object',
        properties: { id: { anyOf: [{ type: 'string', description: 'Prefix `wid_`.' }, { type: 'null' }] } },
      },
    },
  },
};

describe('the reference renderer', () => {
  const pages = referencePages(document, codes);
  const page = pages.get('widgets.md')!;

  test('one page per tag, an index linking it, and the error codes', () => {
    assert.deepEqual([...pages.keys()], ['README.md', 'errors.md', 'widgets.md']);
    assert.match(pages.get('README.md')!, /^- \[Widgets\]\(widgets\.md\): 1 operation$/m);
    assert.match(
      pages.get('errors.md')!,
      /^\| `widget_melted` \| 422 \| `invalid_request_error` \| The widget melted\. Cool it\. \|$/m,
    );
    assert.match(
      pages.get('errors.md')!,
      /^\| `not_found` \| 404 \| `not_found_error` \| \(written for each case\) \|$/m,
    );
  });

  test('the body fields: a required field, its enum values, a nullable type, a nested field by its dotted name', () => {
    assert.match(page, /^## POST \/v1\/widgets\/\{id\}\/paint$/m);
    assert.match(page, /^\| `colour` \| string \| yes \| One of: `red`, `blue`\. \|$/m);
    assert.match(page, /^\| `coats` \| integer \\\| null \| no \| How many coats\. \|$/m);
    assert.match(page, /^\| `finish\.gloss` \| boolean \| yes \|  \|$/m);
    assert.match(page, /^\| `finish\.note` \| string \| no \|  \|$/m);
    assert.match(page, /^\| `id` \| path \| string \| yes \|  \|$/m);
  });

  test('the error codes: those the description names (a prefix with *), then those of any such request', () => {
    const listed = operationErrorCodes('post', document.paths['/v1/widgets/{id}/paint']!.post!, codes);
    assert.deepEqual(listed.named, ['gadget_lost', 'widget_jammed', 'widget_melted']);
    assert.deepEqual(listed.common, ['internal_error', 'missing_api_key', 'not_found']);
    assert.match(page, /\[`widget_melted`\]\(errors\.md#invalid_request_error\) \(422\)/);
    assert.doesNotMatch(page, /not_a_code`\]/);
  });

  test('an example request in a text block with the key variable, and the example answer the document gives', () => {
    assert.ok(
      page.includes(
        '```text\ncurl -s --cacert .facteur/tls/cert.pem -X POST "https://localhost:8443/v1/widgets/$ID/paint" \\\n' +
          '  -H "Authorization: Bearer $FACTEUR_KEY" -H \'Content-Type: application/json\' \\\n' +
          `  -d '{"colour":"red"}'\n\`\`\``,
      ),
      page,
    );
    assert.ok(page.includes('Example answer (200):\n\n```json\n{\n  "id": "wid_1"\n}\n```'));
  });

  test('an object an answer returns is described once, on its page, and the answers link to it', () => {
    assert.match(page, /^\| 200 \| \[`Widget`\]\(#the-widget-object\) \(`application\/json`\) \|  \|$/m);
    assert.match(page, /^- \[The Widget object\]\(#the-widget-object\)$/m);
    assert.match(
      page,
      /^## The Widget object\n\n\| field \| type \| required \| description \|\n\|---\|---\|---\|---\|\n\| `id` \| string \\\| null \| no \| Prefix `wid_`\. \|$/m,
    );
  });

  test('the same document gives the same pages', () => {
    assert.deepEqual([...referencePages(document, codes)], [...pages]);
  });
});
