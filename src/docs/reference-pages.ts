import { catalogue, errorTypes } from '../kernel/errors.js';

/**
 * The reference pages of docs/reference, written from the OpenAPI document and the error
 * catalogue: one page per tag (each operation: method and path, summary, description, parameters,
 * body fields, answers, error codes, an example request), an index, and the error codes. Pure and
 * deterministic (sorted, no dates): `npm run docs:reference` writes its output and
 * test/docs/reference-pages.test.ts fails when the committed pages differ from it.
 */

/** The parts of an OpenAPI 3.1 document the pages read. */
export interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

export interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: Schema }> };
  responses?: Record<string, Answer>;
  security?: unknown[];
  'x-required-scope'?: string;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}

interface Answer {
  description?: string;
  content?: Record<string, { schema?: Schema; example?: unknown; examples?: Record<string, { value?: unknown }> }>;
}

export interface Schema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  description?: string;
  default?: unknown;
  minItems?: number;
  minimum?: number;
  example?: unknown;
  examples?: unknown[];
}

/** One code of the error catalogue, as the errors page lists it. */
export interface CatalogueCode {
  code: string;
  type: string;
  status: number;
  message: string;
  hint?: string;
}

/** The service's catalogue (src/kernel/errors.ts), in its order. */
export function serviceCatalogue(): CatalogueCode[] {
  return Object.entries(catalogue).map(([code, entry]) => ({
    code,
    type: entry.type,
    status: ('status' in entry ? entry.status : undefined) ?? errorTypes[entry.type],
    message: entry.message,
    ...('hint' in entry && entry.hint ? { hint: entry.hint } : {}),
  }));
}

/** The examples' service: the address and certificate of the quick start's `npm start`. */
const exampleBase = 'https://localhost:8443';
const methods = ['get', 'post', 'put', 'patch', 'delete'];
const generatedNote = 'Generated from the OpenAPI document by `npm run docs:reference`; do not edit by hand.';

/** docs/reference's pages: file name -> Markdown, in file-name order. */
export function referencePages(
  document: OpenApiDocument,
  codes: CatalogueCode[] = serviceCatalogue(),
): Map<string, string> {
  const byTag = new Map<string, { method: string; path: string; operation: Operation }[]>();
  for (const path of Object.keys(document.paths).sort()) {
    for (const method of methods) {
      const operation = document.paths[path]![method];
      if (!operation) continue;
      for (const tag of operation.tags ?? []) {
        if (!byTag.has(tag)) byTag.set(tag, []);
        byTag.get(tag)!.push({ method, path, operation });
      }
    }
  }
  const tags = [...byTag.keys()].sort();
  const homes = objectHomes(byTag);
  const pages = new Map<string, string>();
  pages.set(
    'README.md',
    indexPage(
      document,
      tags.map((tag) => ({ tag, count: byTag.get(tag)!.length })),
    ),
  );
  pages.set('errors.md', errorsPage(codes));
  for (const tag of tags) {
    const page = { document, tag, homes, codes };
    pages.set(tagFile(tag), tagPage(page, byTag.get(tag)!));
  }
  return new Map([...pages].sort(([a], [b]) => (a < b ? -1 : 1)));
}

export const tagFile = (tag: string) =>
  `${tag
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}.md`;

/** GitHub's anchor of a heading (as test/docs/links.test.ts computes it). */
export const headingAnchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');

function indexPage(document: OpenApiDocument, tags: { tag: string; count: number }[]): string {
  const lines = [
    `# API reference (${document.info.title} ${document.info.version})`,
    '',
    generatedNote,
    'The running service serves the same document at `/v1/openapi.json` and renders it at `/docs`.',
    '',
    ...(document.info.description ? [document.info.description.trim(), ''] : []),
    '## Pages',
    '',
    ...tags.map(({ tag, count }) => `- [${tag}](${tagFile(tag)}): ${count} operation${count === 1 ? '' : 's'}`),
    '- [Error codes](errors.md): every `error.code` an answer can carry, its HTTP status and type',
    '',
    `The examples call the service of the quick start (\`${exampleBase}\`, its certificate \`.facteur/tls/cert.pem\`)`,
    'with the key in `$FACTEUR_KEY`; a path parameter is a shell variable (`$ID`).',
    '',
  ];
  return lines.join('\n');
}

function errorsPage(codes: CatalogueCode[]): string {
  const types = [...new Set(codes.map((code) => code.type))].sort();
  const lines = [
    '# Error codes',
    '',
    generatedNote,
    '',
    'Every refusal answers the envelope `{"error": {type, code, message, param?, doc_url, hint?, request_id, issues?}}`.',
    'Branch on `code`, never on the message. The running service shows the same list at `/docs/errors`.',
    '',
  ];
  for (const type of types) {
    lines.push(`## ${type}`, '', '| code | HTTP status | type | message |', '|---|---|---|---|');
    for (const code of codes.filter((candidate) => candidate.type === type).sort((a, b) => compare(a.code, b.code))) {
      const message = code.message === '{detail}' ? '(written for each case)' : code.message;
      lines.push(
        `| \`${code.code}\` | ${code.status} | \`${code.type}\` | ${cell(code.hint ? `${message} ${code.hint}` : message)} |`,
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}

type Listed = { method: string; path: string; operation: Operation };

/** What a tag's page is written from: the document, its tag, where each object is described, the codes. */
interface Page {
  document: OpenApiDocument;
  tag: string;
  homes: Map<string, string>;
  codes: CatalogueCode[];
}

/** The components a 2xx answer returns (itself or as a list's items), by name. */
function returnedObjects(operation: Operation): string[] {
  const names: string[] = [];
  for (const [status, answer] of Object.entries(operation.responses ?? {})) {
    if (!status.startsWith('2')) continue;
    for (const media of Object.values(answer.content ?? {})) {
      const schema = media.schema ?? {};
      const ref = schema.$ref ?? schema.properties?.data?.items?.$ref;
      if (ref) names.push(refName(ref));
    }
  }
  return names;
}

/**
 * The page each returned object is described on: the tag whose operations return it most often
 * (the first in name order on a tie), so that an object has one description the others link to.
 */
function objectHomes(byTag: Map<string, Listed[]>): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  for (const [tag, operations] of byTag)
    for (const { operation } of operations)
      for (const name of returnedObjects(operation)) {
        if (!counts.has(name)) counts.set(name, new Map());
        counts.get(name)!.set(tag, (counts.get(name)!.get(tag) ?? 0) + 1);
      }
  const homes = new Map<string, string>();
  for (const [name, byCount] of counts) {
    const [home] = [...byCount].sort(([a, x], [b, y]) => y - x || compare(a, b))[0]!;
    homes.set(name, home);
  }
  return homes;
}

const refName = (ref: string) => ref.split('/').at(-1)!;
const objectHeading = (name: string) => `The ${name} object`;

/** An object's name, linked to its description when one of the pages has it. */
function objectLink(page: Page, name: string): string {
  const home = page.homes.get(name);
  if (!home) return `\`${name}\``;
  const anchor = `#${headingAnchor(objectHeading(name))}`;
  return `[\`${name}\`](${home === page.tag ? '' : tagFile(home)}${anchor})`;
}

function tagPage(page: Page, operations: Listed[]): string {
  const lines = [`# ${page.tag}`, '', generatedNote, ''];
  for (const { method, path, operation } of operations) {
    const heading = `${method.toUpperCase()} ${path}`;
    lines.push(`- [\`${heading}\`](#${headingAnchor(heading)})${operation.summary ? `: ${operation.summary}` : ''}`);
  }
  const objects = [...page.homes]
    .filter(([, home]) => home === page.tag)
    .map(([name]) => name)
    .sort(compare);
  for (const name of objects) lines.push(`- [${objectHeading(name)}](#${headingAnchor(objectHeading(name))})`);
  lines.push('');
  for (const listed of operations) lines.push(...operationSection(page, listed));
  for (const name of objects) lines.push(...objectSection(page, name));
  return lines.join('\n');
}

/** An object's fields as the answers carry them, one level down with dotted names. */
function objectSection(page: Page, name: string): string[] {
  const schema = page.document.components?.schemas?.[name] ?? {};
  const lines = [`## ${objectHeading(name)}`, ''];
  if (schema.description) lines.push(schema.description.trim(), '');
  const rows = fieldRows(page.document, schema);
  if (rows.length) lines.push('| field | type | required | description |', '|---|---|---|---|', ...rows, '');
  return lines;
}

function operationSection(page: Page, { method, path, operation }: Listed) {
  const { document, codes } = page;
  const lines = [`## ${method.toUpperCase()} ${path}`, ''];
  if (operation.summary) lines.push(`**${operation.summary}**`, '');
  if (operation.description) lines.push(operation.description.trim(), '');
  if (operation.security?.length)
    lines.push(`Authentication: an API key (\`Authorization: Bearer\`); scope: ${scopeText(operation)}.`, '');
  lines.push(...parametersTable(operation.parameters ?? []));
  lines.push(...bodySection(document, operation));
  lines.push(...answersTable(page, operation.responses ?? {}));
  lines.push(...errorsSection(method, operation, codes));
  lines.push('Example request:', '', '```text', ...exampleRequest(document, method, path, operation), '```', '');
  const answer = exampleAnswer(operation.responses ?? {});
  if (answer) lines.push(`Example answer (${answer.status}):`, '', '```json', answer.text, '```', '');
  return lines;
}

function scopeText(operation: Operation): string {
  const scope = operation['x-required-scope'];
  return !scope || scope === 'any valid key' ? 'any valid key' : `\`${scope}\``;
}

function parametersTable(parameters: Parameter[]): string[] {
  if (parameters.length === 0) return [];
  const lines = ['Parameters:', '', '| name | in | type | required | description |', '|---|---|---|---|---|'];
  for (const parameter of parameters) {
    const schema = parameter.schema ?? {};
    lines.push(
      `| \`${parameter.name}\` | ${parameter.in} | ${cell(typeOf(schema))} | ${parameter.required ? 'yes' : 'no'} | ${cell(describe(schema, parameter.description))} |`,
    );
  }
  return [...lines, ''];
}

function bodySection(document: OpenApiDocument, operation: Operation): string[] {
  const content = operation.requestBody?.content ?? {};
  const lines: string[] = [];
  for (const type of Object.keys(content).sort()) {
    const schema = resolve(document, content[type]!.schema ?? {});
    lines.push(`Request body (\`${type}\`${operation.requestBody?.required ? '' : ', optional'}):`, '');
    const rows = fieldRows(document, schema);
    if (rows.length === 0) {
      lines.push(cell(describe(schema, schema.description) || typeOf(schema)), '');
      continue;
    }
    lines.push('| field | type | required | description |', '|---|---|---|---|', ...rows, '');
  }
  return lines;
}

/** The rows of an object's fields, and those of the objects it holds, one level down, with dotted names. */
export function fieldRows(document: OpenApiDocument, schema: Schema): string[] {
  const rows: string[] = [];
  const required = new Set(schema.required ?? []);
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    rows.push(fieldRow(`${name}`, field, required.has(name)));
    const nested = nestedObject(document, field);
    if (!nested) continue;
    const nestedRequired = new Set(nested.schema.required ?? []);
    for (const [inner, innerField] of Object.entries(nested.schema.properties ?? {}))
      rows.push(fieldRow(`${name}${nested.prefix}${inner}`, innerField, nestedRequired.has(inner)));
  }
  return rows;
}

function fieldRow(name: string, schema: Schema, required: boolean): string {
  return `| \`${name}\` | ${cell(typeOf(schema))} | ${required ? 'yes' : 'no'} | ${cell(describe(schema, schema.description))} |`;
}

/** An inline object field (or array of objects) whose fields are listed under it: `address.city`, `lines[].description`. */
function nestedObject(document: OpenApiDocument, schema: Schema): { prefix: string; schema: Schema } | null {
  if (schema.$ref) return null;
  const bare = withoutNull(schema);
  if (bare.properties) return { prefix: '.', schema: bare };
  if (bare.items && !bare.items.$ref) {
    const items = resolve(document, withoutNull(bare.items));
    if (items.properties) return { prefix: '[].', schema: items };
  }
  return null;
}

function answersTable(page: Page, responses: Record<string, Answer>): string[] {
  const statuses = Object.keys(responses).sort();
  if (statuses.length === 0) return [];
  const lines = ['Answers:', '', '| status | content | description |', '|---|---|---|'];
  for (const status of statuses) {
    const answer = responses[status]!;
    const content = Object.entries(answer.content ?? {})
      .sort(([a], [b]) => compare(a, b))
      .map(([type, media]) => (media.schema ? `${answerType(page, media.schema)} (\`${type}\`)` : `\`${type}\``));
    const description = answer.description === 'Default Response' ? '' : (answer.description ?? '');
    lines.push(`| ${status} | ${cell(content.join(', ') || '(empty)')} | ${cell(description)} |`);
  }
  return [...lines, ''];
}

/** A list answer (`{object: 'list', data: [...]}`) by the type of its items; any other by its type. */
function answerType(page: Page, schema: Schema): string {
  const data = schema.properties?.data;
  const named = (item: Schema): string => {
    if (item.$ref) return objectLink(page, refName(item.$ref));
    const alternatives = item.anyOf ?? item.oneOf;
    if (alternatives?.length && alternatives.every((alternative) => alternative.$ref))
      return alternatives.map(named).join(' or ');
    return typeOf(item);
  };
  if (enumValues(schema.properties?.object ?? {})?.[0] === 'list' && data?.items) return `list of ${named(data.items)}`;
  return named(schema);
}

/**
 * The codes the operation can answer: those its description names (a `prefix_*` naming every code
 * of the prefix), then those every request of its kind can answer (the key, its scope, the rate
 * limit, the validation of its parameters and body, an unknown id, Idempotency-Key, a fault).
 */
export function operationErrorCodes(method: string, operation: Operation, codes: CatalogueCode[]) {
  const known = new Set(codes.map((code) => code.code));
  const named = new Set<string>();
  for (const [, span] of (operation.description ?? '').matchAll(/`([a-z][a-z0-9_]*\*?)`/g)) {
    if (span!.endsWith('*')) {
      for (const code of known) if (code.startsWith(span!.slice(0, -1))) named.add(code);
    } else if (known.has(span!)) named.add(span!);
  }
  const common = new Set<string>();
  if (operation.security?.length) {
    for (const code of ['missing_api_key', 'invalid_api_key', 'api_key_revoked', 'api_key_expired']) common.add(code);
    if (scopeText(operation) !== 'any valid key') common.add('scope_insufficient');
    common.add('rate_limit_exceeded');
  }
  const parameters = operation.parameters ?? [];
  if (operation.requestBody || parameters.some((parameter) => parameter.in !== 'path')) {
    common.add('missing_required_field');
    common.add('invalid_field_value');
  }
  if (operation.requestBody) {
    common.add('invalid_content_type');
    common.add('payload_too_large');
  }
  if (parameters.some((parameter) => parameter.in === 'path')) common.add('not_found');
  if (method === 'post' && operation.security?.length) common.add('conflict');
  common.add('internal_error');
  const sorted = (set: Set<string>) => [...set].filter((code) => known.has(code)).sort(compare);
  return { named: sorted(named), common: sorted(common).filter((code) => !named.has(code)) };
}

function errorsSection(method: string, operation: Operation, codes: CatalogueCode[]): string[] {
  const { named, common } = operationErrorCodes(method, operation, codes);
  const typeOfCode = new Map(codes.map((code) => [code.code, code]));
  const link = (code: string) => {
    const entry = typeOfCode.get(code)!;
    return `[\`${code}\`](errors.md#${headingAnchor(entry.type)}) (${entry.status})`;
  };
  const lines = ['Error codes:', ''];
  if (named.length) lines.push(`- named by this operation: ${named.map(link).join(', ')}`);
  lines.push(`- as any request of its kind: ${common.map(link).join(', ')}`, '');
  return lines;
}

function exampleRequest(document: OpenApiDocument, method: string, path: string, operation: Operation): string[] {
  const url = `${exampleBase}${path.replace(/\{([^}]+)\}/g, (_all, name: string) => `$${shellName(name)}`)}`;
  const requiredQuery = (operation.parameters ?? []).filter(
    (parameter) => parameter.in === 'query' && parameter.required,
  );
  const query = requiredQuery
    .map(
      (parameter) => `${parameter.name}=${encodeURIComponent(String(exampleValue(document, parameter.schema ?? {})))}`,
    )
    .join('&');
  const verb = method === 'get' ? '' : ` -X ${method.toUpperCase()}`;
  const lines = [`curl -s --cacert .facteur/tls/cert.pem${verb} "${url}${query ? `?${query}` : ''}" \\`];
  const json = operation.requestBody?.content['application/json'];
  const other = Object.keys(operation.requestBody?.content ?? {}).find((type) => type !== 'application/json');
  if (json) {
    const body = JSON.stringify(exampleValue(document, resolve(document, json.schema ?? {})));
    lines.push(`  -H "Authorization: Bearer $FACTEUR_KEY" -H 'Content-Type: application/json' \\`, `  -d '${body}'`);
  } else if (other) {
    lines.push(`  -H "Authorization: Bearer $FACTEUR_KEY" -H 'Content-Type: ${other}' \\`, `  --data-binary @file`);
  } else lines.push(`  -H "Authorization: Bearer $FACTEUR_KEY"`);
  return lines;
}

const shellName = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();

/** The first example an answer of the document gives (2xx first), pretty-printed. */
function exampleAnswer(responses: Record<string, Answer>): { status: string; text: string } | null {
  for (const status of Object.keys(responses).sort()) {
    for (const type of Object.keys(responses[status]!.content ?? {}).sort()) {
      const media = responses[status]!.content![type]!;
      const example =
        media.example ??
        Object.values(media.examples ?? {})[0]?.value ??
        media.schema?.example ??
        media.schema?.examples?.[0];
      if (example !== undefined)
        return { status, text: typeof example === 'string' ? example : JSON.stringify(example, null, 2) };
    }
  }
  return null;
}

/** A value for a schema, with only the required fields of objects: the smallest request that reads well. */
export function exampleValue(document: OpenApiDocument, given: Schema, depth = 0): unknown {
  const schema = resolve(document, withoutNull(given));
  if (schema.example !== undefined) return schema.example;
  if (schema.examples?.length) return schema.examples[0];
  const values = enumValues(schema);
  if (values?.length) return values[0];
  if (schema.default !== undefined) return schema.default;
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return exampleValue(document, alternatives[0]!, depth);
  const type = primaryType(schema);
  if (type === 'object' || schema.properties) {
    if (depth > 4) return {};
    const value: Record<string, unknown> = {};
    for (const name of exampleFields(schema))
      value[name] = exampleValue(document, schema.properties![name]!, depth + 1);
    return value;
  }
  if (type === 'array') return depth > 4 || !schema.items ? [] : [exampleValue(document, schema.items, depth + 1)];
  if (type === 'integer' || type === 'number')
    return schema.minimum !== undefined && schema.minimum >= 0 ? schema.minimum : 1;
  if (type === 'boolean') return false;
  if (schema.format === 'date') return '2026-10-01';
  if (schema.format === 'date-time') return '2026-10-01T09:00:00Z';
  if (schema.format === 'email') return 'buyer@example.com';
  if (schema.format === 'uri') return 'https://example.com/';
  return 'string';
}

/**
 * The fields an example object shows: its required ones; an object that requires none (a line, an
 * edit) shows its first plain fields (a value that is neither null, an object nor a list).
 */
function exampleFields(schema: Schema): string[] {
  const properties = schema.properties ?? {};
  const required = (schema.required ?? []).filter((name) => properties[name]);
  if (required.length) return required;
  const plain = (field: Schema) =>
    !field.$ref &&
    !hasNullAlternative(field) &&
    !(Array.isArray(field.type) && field.type.includes('null')) &&
    ['string', 'integer', 'number', 'boolean', undefined].includes(primaryType(field)) &&
    !field.properties;
  return Object.keys(properties)
    .filter((name) => plain(properties[name]!))
    .slice(0, 4);
}

function resolve(document: OpenApiDocument, schema: Schema): Schema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.split('/').at(-1)!;
  return document.components?.schemas?.[name] ?? schema;
}

function withoutNull(schema: Schema): Schema {
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((type) => type !== 'null');
    return { ...schema, type: types.length === 1 ? types[0]! : types };
  }
  const alternatives = schema.anyOf?.filter((alternative) => alternative.type !== 'null');
  if (schema.anyOf && alternatives!.length === 1 && !enumValues(schema)) return { ...schema, ...alternatives![0]! };
  return schema;
}

const primaryType = (schema: Schema) => (Array.isArray(schema.type) ? schema.type[0] : schema.type);

/** The values a schema allows when it lists them: `enum`, `const`, or alternatives each of one value. */
export function enumValues(schema: Schema): unknown[] | null {
  if (schema.enum) return schema.enum;
  if (schema.const !== undefined) return [schema.const];
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (!alternatives?.length) return null;
  const values: unknown[] = [];
  for (const alternative of alternatives) {
    if (alternative.type === 'null') continue;
    const own = enumValues(alternative);
    if (!own) return null;
    values.push(...own);
  }
  return values.length ? values : null;
}

/** A schema's type as a reader writes it: `string (date)`, `array of Invoice`, `string | null`. */
export function typeOf(schema: Schema): string {
  if (schema.$ref) return `\`${schema.$ref.split('/').at(-1)}\``;
  const values = enumValues(schema);
  const nullable = (Array.isArray(schema.type) && schema.type.includes('null')) || hasNullAlternative(schema);
  let base: string;
  if (values) base = [...new Set(values.map((value) => (value === null ? 'null' : typeof value)))].join(' | ');
  else if (schema.anyOf ?? schema.oneOf) {
    const alternatives = (schema.anyOf ?? schema.oneOf)!.filter((alternative) => alternative.type !== 'null');
    base = [...new Set(alternatives.map(typeOf))].join(' | ');
  } else {
    const types = (Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []).filter(
      (type) => type !== 'null',
    );
    base =
      types
        .map((type) => (type === 'array' && schema.items ? `array of ${typeOf(schema.items)}` : type))
        .map((type) => (type === 'string' && schema.format ? `string (${schema.format})` : type))
        .join(' | ') || 'any';
  }
  return nullable && !base.split(' | ').includes('null') ? `${base} | null` : base;
}

const hasNullAlternative = (schema: Schema) =>
  (schema.anyOf ?? schema.oneOf ?? []).some((alternative) => alternative.type === 'null');

/** A field's description, then the values it allows and its default. */
function describe(schema: Schema, given: string | undefined): string {
  // A nullable field written `anyOf: [{type, description}, {type: 'null'}]` carries its description inside.
  const description = given ?? withoutNull(schema).description;
  const parts = description ? [description.trim()] : [];
  const values = enumValues(withoutNull(schema)) ?? (schema.items ? enumValues(schema.items) : null);
  if (values) parts.push(`One of: ${values.map((value) => `\`${String(value)}\``).join(', ')}.`);
  if (schema.default !== undefined) parts.push(`Default: \`${JSON.stringify(schema.default)}\`.`);
  return parts.join(' ');
}

/** Text made safe for a table cell: one line, pipes escaped. */
const cell = (text: string) => text.replace(/\r?\n+/g, ' ').replace(/\|/g, '\\|');

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
