import fc from 'fast-check';

/**
 * Requests generated from the OpenAPI document: for each operation, arbitraries of its path
 * parameters, query and body, mostly valid-ish (so that they reach the services and the database)
 * and mixed with the hostile classes a careless or malicious client sends. Ids are symbolic
 * (`IdRef`) and resolved when the request is sent, against the ids the tenants hold by then.
 */

type Schema = Record<string, any>;

export interface Parameter {
  name: string;
  required: boolean;
  schema: Schema;
}

export interface Operation {
  method: string;
  /** OpenAPI template: `/v1/customers/{id}`. */
  path: string;
  params: Parameter[];
  query: Parameter[];
  body: { type: 'json' | 'csv'; schema: Schema } | null;
}

/** An id of a tenant: `own` (the calling company's), `other` (another company's), or `unknown`. */
export class IdRef {
  constructor(
    readonly owner: 'own' | 'other' | 'unknown',
    readonly prefix: string | null,
    readonly pick: number,
  ) {}
}

/** JSON text written as is in a body: what an object cannot hold (`__proto__`, `1e400`, depth). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** A path segment or query value already percent-encoded, possibly wrongly (`%zz`, `%ED%A0%80`). */
export class Encoded {
  constructor(readonly text: string) {}
}

export interface GeneratedRequest {
  operation: Operation;
  method: string;
  params: Record<string, unknown>;
  query: [string, unknown][];
  rawQuery: string | null;
  body:
    | { kind: 'none' }
    | { kind: 'value'; value: unknown; injected: string | null }
    | { kind: 'raw'; bytes: string | Buffer };
  contentType: string | null;
  auth: 'own' | 'none' | 'bad';
  idempotencyKey: string | null;
  version: string | null;
}

// ---------------------------------------------------------------------------------------------
// The operations of the document

function resolveRef(doc: any, schema: Schema): Schema {
  if (schema && typeof schema.$ref === 'string') {
    const name: string = schema.$ref.split('/').pop() ?? '';
    return doc.components?.schemas?.[name] ?? {};
  }
  return schema;
}

export function operationsOf(doc: any): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      const parameters: any[] = op.parameters ?? [];
      const content = op.requestBody?.content ?? {};
      const body = content['application/json']
        ? { type: 'json' as const, schema: resolveRef(doc, content['application/json'].schema) }
        : content['text/csv']
          ? { type: 'csv' as const, schema: {} }
          : null;
      operations.push({
        method: method.toUpperCase(),
        path,
        params: parameters
          .filter((p) => p.in === 'path')
          .map((p) => ({ name: p.name, required: true, schema: p.schema ?? {} })),
        query: parameters
          .filter((p) => p.in === 'query')
          .map((p) => ({ name: p.name, required: Boolean(p.required), schema: p.schema ?? {} })),
        body,
      });
    }
  }
  return operations;
}

// ---------------------------------------------------------------------------------------------
// Hostile values

const deep = (levels: number) => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels);
const deepArray = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

export const hostileStrings = [
  'a\u0000b',
  '\u0000',
  '\ud800',
  '\udfff\ud800',
  'x\udbff',
  'bell\u0007',
  '\u001b[31mred',
  'tab\there',
  'line\nbreak\r\n',
  '\u007f\u0085\u2028',
  '🙂 é ß 漢字',
  '\ufeffbom',
  '\uffff\ufffe',
  '',
  ' ',
  'x'.repeat(10_000),
  '0000-01-01',
  '10000-01-01',
  '0000-01-01T00:00:00Z',
  '-000001-01-01',
  '1899-12-31',
  '9999-12-31T23:59:59-14:00',
  '2026-02-30',
  '2026-09-01T24:00:00Z',
  '2026-09-01T12:00:00',
  '2026-09-01T23:59:60Z',
  '__proto__',
  'constructor',
  "'; drop table customers; --",
  '%00',
  '../../etc/passwd',
  '${jndi:ldap://x}',
  '<script>alert(1)</script>',
  'NaN',
  'Infinity',
  '-1',
  '1e400',
  '99999999999999999999999',
];

const hostileNumbers = [
  1e308,
  -1e308,
  2 ** 53 + 2,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 63,
  0.1,
  -0,
  1e-300,
  -1,
  Number.MAX_SAFE_INTEGER,
];

const hostileRawJson = [
  '1e400',
  '-1e400',
  '123456789012345678901234567890',
  '0.00000000000000000000000000001',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  '{"a\\u0000":1}',
  '{"\\ud800":1}',
  deep(33),
  deep(1000),
  deepArray(5000),
];

// Built once: a 100,000-deep body is 600 KB of text.
const veryDeep = new RawJson(deep(100_000));

const controlUnits = fc.constantFrom('\u0000', '\u0001', '\u001f', '\ud800', '\udc00', '\udfff', 'a', 'é', '\t', '\n');

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...hostileStrings) },
  { weight: 2, arbitrary: fc.string({ unit: controlUnits, minLength: 1, maxLength: 6 }) },
  { weight: 2, arbitrary: fc.constantFrom(...hostileNumbers) },
  { weight: 3, arbitrary: fc.constantFrom(...hostileRawJson.map((text) => new RawJson(text))) },
  { weight: 1, arbitrary: fc.constant(veryDeep) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(true, false, null, {}, [], [1, 2], { a: 1 }, [{}], 0, 42, 'x'),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.array(fc.constant('x'), { minLength: 1000, maxLength: 1000 }) },
);

/** Keys a client should never be able to set: server-owned fields and prototype keys. */
export const injectedKeys = [
  'livemode',
  'id',
  'object',
  'companyId',
  'company_id',
  'created',
  'updated',
  'status',
  'number',
  'deleted',
  'secret',
  'amountPaid',
  'documentStatus',
  '__proto__',
  'constructor',
  'prototype',
];

/** Whole bodies a careless client sends. */
const rawBodies: fc.Arbitrary<string | Buffer> = fc.constantFrom<string | Buffer>(
  '',
  ' ',
  'null',
  '[]',
  '"text"',
  '42',
  '{',
  '{"a":1,}',
  '{"a":1,"a":2}',
  '\ufeff{}',
  '{"metadata":' + deep(100_000) + '}',
  deepArray(100_000),
  '{"__proto__":{"admin":true}}',
  Buffer.from([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
  Buffer.from('{"name":"\u00e9"}', 'latin1'),
  '{"name":"a\\u0000b"}',
  '{"lines":[' + Array.from({ length: 2000 }, () => '{}').join(',') + ']}',
);

// ---------------------------------------------------------------------------------------------
// Valid-ish values from a schema

const idPrefixOfField: Record<string, string> = {
  customerId: 'cus_',
  invoiceId: 'inv_',
  relatedInvoiceId: 'inv_',
  productId: 'prod_',
  taxDecisionId: 'txd_',
  endpointId: 'we_',
  quoteId: 'qt_',
  creditNoteId: 'cn_',
  paymentId: 'pay_',
  entryId: 'ledg_',
};

/** Fields that take an id of any kind. */
const anyIdFields = new Set(['starting_after']);

const idPrefixOfCollection: Record<string, string> = {
  customers: 'cus_',
  products: 'prod_',
  invoices: 'inv_',
  'credit-notes': 'cn_',
  quotes: 'qt_',
  payments: 'pay_',
  events: 'evt_',
  'webhook-endpoints': 'we_',
  jobs: 'job_',
  'tax-profiles': 'txp_',
  establishments: 'est_',
  'tax-decisions': 'txd_',
};

/** The id prefix a path's `{id}` takes: the collection right before it. */
export function pathIdPrefix(path: string): string | null {
  const segments = path.split('/');
  const index = segments.indexOf('{id}');
  return index > 0 ? (idPrefixOfCollection[segments[index - 1]!] ?? null) : null;
}

const idRef = (prefix: string | null): fc.Arbitrary<IdRef> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.nat().map((n) => new IdRef('own', prefix, n)) },
    { weight: 2, arbitrary: fc.nat().map((n) => new IdRef('other', prefix, n)) },
    { weight: 1, arbitrary: fc.nat().map((n) => new IdRef('unknown', prefix, n)) },
  );

const decimal = fc
  .tuple(fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 0, max: 99 }))
  .map(([units, cents]) => `${units}.${String(cents).padStart(2, '0')}`);

const day = fc
  .tuple(fc.integer({ min: 2023, max: 2028 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }))
  .map(([y, m, d]) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);
const instant = fc.oneof(
  day,
  fc.tuple(day, fc.integer({ min: 0, max: 23 })).map(([d, h]) => `${d}T${String(h).padStart(2, '0')}:30:00Z`),
);

const stringHints: [RegExp, fc.Arbitrary<string>][] = [
  [/^country$/i, fc.constantFrom('FR', 'DE', 'BE', 'ES', 'IT', 'GB', 'US', 'CH', 'GP', 'MC', 'XX', 'fr')],
  [/currency/i, fc.constantFrom('EUR', 'USD', 'XXX')],
  [/postalCode/i, fc.constantFrom('75002', '97133', '20000', '10117', '1000', 'BT1 1AA', '')],
  [/^siren$/i, fc.constantFrom('732829320', '552100554', '123456789', '100000009')],
  [/^siret$/i, fc.constantFrom('73282932000017', '55210055400013', '73282932099902', '10000000900017')],
  [/vatNumber/i, fc.constantFrom('FR44732829320', 'DE136695976', 'FR00000000000', 'XX123')],
  [/email/i, fc.constantFrom('a@example.com', 'compta@atelier.example', 'not-an-email')],
  [/url/i, fc.constantFrom('https://hooks.example.com/x', 'http://example.com/x', 'https://127.0.0.1/x', 'ftp://x')],
  [/(unitPrice|amount|price|total|quantity|rate|value)/i, fc.oneof(decimal, fc.constantFrom('0', '-1', '2', '1e3'))],
];

function stringOf(schema: Schema, name: string): fc.Arbitrary<unknown> {
  if (anyIdFields.has(name) || /Id$/.test(name)) return idRef(idPrefixOfField[name] ?? null);
  if (schema.format === 'date') return day;
  if (schema.format === 'date-or-date-time' || schema.format === 'date-time') return instant;
  if (schema.pattern === '^we_') return idRef('we_');
  const hint = stringHints.find(([pattern]) => pattern.test(name));
  if (hint) return hint[1];
  const maxLength = Math.min(schema.maxLength ?? 40, 40);
  const minLength = Math.min(schema.minLength ?? 0, maxLength);
  return fc.string({ minLength, maxLength });
}

function numberOf(schema: Schema, integer: boolean): fc.Arbitrary<number> {
  const min = typeof schema.minimum === 'number' ? schema.minimum : -10;
  const max = typeof schema.maximum === 'number' ? schema.maximum : 1_000_000;
  const low = Math.max(min, -1e9);
  const high = Math.min(max, 1e9);
  return integer
    ? fc.integer({ min: Math.ceil(low), max: Math.floor(high) })
    : fc.double({ min: low, max: high, noNaN: true, noDefaultInfinity: true });
}

/** A value the schema accepts, or nearly: names hint at realistic text; ids are symbolic. */
export function valueOf(schema: Schema, name = '', depth = 0): fc.Arbitrary<unknown> {
  if (!schema || typeof schema !== 'object' || depth > 6) return fc.constant(null);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(union) && union.length > 0)
    return fc.oneof(...union.map((branch: Schema) => valueOf({ ...branch }, name, depth)));
  if (Array.isArray(schema.type)) {
    return fc.oneof(...schema.type.map((type: string) => valueOf({ ...schema, type }, name, depth)));
  }
  switch (schema.type) {
    case 'string':
      return stringOf(schema, name);
    case 'integer':
      return numberOf(schema, true);
    case 'number':
      return numberOf(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const maxLength = Math.min(schema.maxItems ?? 3, 3);
      const minLength = Math.min(schema.minItems ?? 0, maxLength);
      return fc.array(valueOf(schema.items ?? {}, name, depth + 1), { minLength, maxLength });
    }
    case 'object':
      return objectOf(schema, depth);
    default:
      return fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean());
  }
}

function objectOf(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  const properties: Record<string, Schema> = schema.properties ?? {};
  if (Object.keys(properties).length === 0) {
    // Free JSON (metadata): a few keys of short text, numbers or small objects.
    return fc.dictionary(
      fc.string({ minLength: 1, maxLength: 12 }),
      fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean(), fc.dictionary(fc.string(), fc.string())),
      { maxKeys: 4 },
    );
  }
  // Each optional field in one case out of four: a body with few fields is more often valid, and
  // hostile values are also set on the fields it lacks (`schemaPaths`).
  const required = new Set<string>(schema.required ?? []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, property] of Object.entries(properties)) {
    const value = valueOf(property, key, depth + 1);
    model[key] = required.has(key)
      ? value
      : fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: value });
  }
  return fc
    .record(model)
    .map((record) => Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)));
}

/** Every field path a schema describes (arrays as their first item), free objects given a key. */
export function schemaPaths(
  schema: Schema,
  prefix: (string | number)[] = [],
  out: (string | number)[][] = [],
): (string | number)[][] {
  if (!schema || typeof schema !== 'object' || prefix.length > 5) return out;
  const union: Schema[] | undefined = schema.anyOf ?? schema.oneOf;
  if (union) {
    for (const branch of union) schemaPaths(branch, prefix, out);
    return out;
  }
  const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('object')) {
    const properties = Object.entries<Schema>(schema.properties ?? {});
    if (properties.length === 0 && prefix.length > 0) out.push([...prefix, 'note']);
    for (const [key, property] of properties) {
      out.push([...prefix, key]);
      schemaPaths(property, [...prefix, key], out);
    }
  }
  if (types.includes('array')) {
    out.push([...prefix, 0]);
    schemaPaths(schema.items ?? {}, [...prefix, 0], out);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Mutations: one hostile change to an otherwise valid-ish body

/** Every path inside a value (objects and arrays), root excluded. */
function pathsOf(value: unknown, prefix: (string | number)[] = [], out: (string | number)[][] = []) {
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      out.push([...prefix, index]);
      pathsOf(item, [...prefix, index], out);
    });
  } else if (value !== null && typeof value === 'object' && !(value instanceof IdRef) && !(value instanceof RawJson)) {
    for (const [key, item] of Object.entries(value)) {
      out.push([...prefix, key]);
      pathsOf(item, [...prefix, key], out);
    }
  }
  return out;
}

function setAt(root: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  const copy: any = Array.isArray(root)
    ? [...root]
    : root !== null && typeof root === 'object' && !(root instanceof IdRef) && !(root instanceof RawJson)
      ? { ...root }
      : typeof head === 'number'
        ? []
        : {};
  copy[head as any] = setAt(copy[head as any], rest, value);
  return copy;
}

function withKey(root: unknown, key: string, value: unknown): unknown {
  const copy: Record<string, unknown> = { ...(root as object) };
  // defineProperty: `__proto__` becomes an own key, written into the JSON text.
  Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

function withoutAt(root: unknown, path: (string | number)[]): unknown {
  if (path.length === 0) return root;
  const [head, ...rest] = path;
  if (Array.isArray(root)) {
    const copy = [...root];
    if (rest.length === 0) copy.splice(head as number, 1);
    else copy[head as number] = withoutAt(copy[head as number], rest);
    return copy;
  }
  const copy: Record<string, unknown> = { ...(root as object) };
  if (rest.length === 0) delete copy[head as string];
  else copy[head as string] = withoutAt(copy[head as string], rest);
  return copy;
}

type BodyPlan =
  | { kind: 'valid' }
  | { kind: 'replace'; at: number; value: unknown }
  | { kind: 'inject'; key: string; value: unknown }
  | { kind: 'drop'; at: number }
  | { kind: 'raw'; bytes: string | Buffer };

const bodyPlan: fc.Arbitrary<BodyPlan> = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ kind: 'valid' as const }) },
  {
    weight: 8,
    arbitrary: fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), value: hostileValue }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('inject' as const),
      key: fc.constantFrom(...injectedKeys),
      value: fc.oneof(fc.constant(true), fc.constant('x'), fc.constant({ admin: true }), fc.constant(1)),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('raw' as const), bytes: rawBodies }) },
);

function planBody(
  value: unknown,
  plan: BodyPlan,
  properties: Record<string, unknown>,
  fieldPaths: (string | number)[][],
): GeneratedRequest['body'] {
  switch (plan.kind) {
    case 'valid':
      return { kind: 'value', value, injected: null };
    case 'replace': {
      const paths = fieldPaths.length > 0 ? fieldPaths : pathsOf(value);
      if (paths.length === 0) return { kind: 'value', value: withKey(value, 'metadata', plan.value), injected: null };
      return { kind: 'value', value: setAt(value, paths[plan.at % paths.length]!, plan.value), injected: null };
    }
    case 'inject': {
      // A key of the operation's own schema is not an injection.
      if (Object.hasOwn(properties, plan.key)) return { kind: 'value', value, injected: null };
      return { kind: 'value', value: withKey(value, plan.key, plan.value), injected: plan.key };
    }
    case 'drop': {
      const paths = pathsOf(value);
      const path = paths.length > 0 ? paths[plan.at % paths.length]! : [];
      return { kind: 'value', value: withoutAt(value, path), injected: null };
    }
    case 'raw':
      return { kind: 'raw', bytes: plan.bytes };
  }
}

// ---------------------------------------------------------------------------------------------
// Path, query, headers

const hostileSegments = [
  '%00',
  'cus_%00',
  'x%00y',
  '%zz',
  '%',
  '%E0%A4%A',
  '%ED%A0%80',
  '%C0%80',
  '%FF',
  '%2e%2e',
  '..',
  '%F0%9F%99%82',
  'a'.repeat(101),
  'cus_' + 'x'.repeat(200),
  '%20',
  '%0A',
  '%7F',
];

function cleanPathParamOf(operation: Operation, parameter: Parameter): fc.Arbitrary<unknown> {
  if (parameter.name === 'year') return fc.integer({ min: 2022, max: 2028 });
  return idRef(pathIdPrefix(operation.path));
}

function pathParamOf(operation: Operation, parameter: Parameter): fc.Arbitrary<unknown> {
  if (parameter.name === 'year') {
    return fc.oneof(
      fc.integer({ min: 2022, max: 2028 }),
      fc.constantFrom(0, -1, 99999999999, 2 ** 31, 1e21),
      fc.constantFrom(...hostileSegments).map((text) => new Encoded(text)),
    );
  }
  return fc.oneof(
    { weight: 8, arbitrary: idRef(pathIdPrefix(operation.path)) },
    { weight: 2, arbitrary: fc.constantFrom(...hostileSegments).map((text) => new Encoded(text)) },
    { weight: 1, arbitrary: fc.string({ unit: controlUnits, minLength: 1, maxLength: 5 }) },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
  );
}

const hostileQueryValues = [
  '%00',
  '%zz',
  '%ED%A0%80',
  '%C0%80',
  '%FF',
  'a%00b',
  '0000-01-01',
  '10000-01-01',
  '-1',
  '1e400',
  '99999999999999999999',
  '%0A',
];

function queryValueOf(parameter: Parameter): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 6, arbitrary: valueOf(parameter.schema, parameter.name) },
    { weight: 3, arbitrary: fc.constantFrom(...hostileQueryValues).map((text) => new Encoded(text)) },
    { weight: 2, arbitrary: hostileValue.filter((value) => typeof value === 'string') },
  );
}

function queryOf(
  operation: Operation,
  valueArbitrary: (parameter: Parameter) => fc.Arbitrary<unknown>,
): fc.Arbitrary<[string, unknown][]> {
  if (operation.query.length === 0) return fc.constant([]);
  const entries = operation.query.map((parameter) =>
    fc.option(valueArbitrary(parameter), { freq: 2, nil: undefined }).map((value) => [parameter.name, value] as const),
  );
  return fc
    .tuple(...entries)
    .map((pairs) => pairs.filter(([, value]) => value !== undefined).map(([name, value]) => [name, value]));
}

const rawQueries = fc.constantFrom(
  '%zz=1',
  '%00=1',
  'limit=1&limit=2',
  'limit[]=1',
  'starting_after=%00',
  'unknown=1',
  '&&&',
  '=',
  'a=%ED%A0%80',
  'limit=' + '9'.repeat(400),
);

const csvBodies = fc.constantFrom(
  'name\nAtelier\n',
  'name,siret\nAtelier,73282932000017\n',
  'name\nA\u0000B\n',
  'name\n\ud800\n',
  'name,email\n"x\u0007",a@example.com\n',
  'nom\nx\n',
  '',
  'name\n' + 'x,'.repeat(1000) + '\n',
  '\ufeffname;country\nA;FR\n',
);

const contentTypes = fc.constantFrom(
  'text/plain',
  'multipart/form-data; boundary=x',
  'application/x-www-form-urlencoded',
  'application/json; charset=latin1',
  'application/jsonx',
  'application/json\u0009',
);

/**
 * The requests of an operation: two in five valid-ish in every part (they reach the services and
 * the database, with ids of the company, of another company or unknown), three in five with
 * hostile parts (values, encodings, methods, headers).
 */
export function requestOf(operation: Operation): fc.Arbitrary<GeneratedRequest> {
  return fc.oneof(
    { weight: 2, arbitrary: cleanRequestOf(operation) },
    { weight: 3, arbitrary: hostileRequestOf(operation) },
  );
}

function cleanRequestOf(operation: Operation): fc.Arbitrary<GeneratedRequest> {
  const params = fc.record(
    Object.fromEntries(operation.params.map((parameter) => [parameter.name, cleanPathParamOf(operation, parameter)])),
  );
  const body: fc.Arbitrary<GeneratedRequest['body']> =
    operation.body?.type === 'json'
      ? valueOf(operation.body.schema).map((value) => ({ kind: 'value' as const, value, injected: null }))
      : operation.body?.type === 'csv'
        ? csvBodies.map((text) => ({ kind: 'raw' as const, bytes: text }))
        : fc.constant({ kind: 'none' as const });
  return fc.record({
    operation: fc.constant(operation),
    method: fc.constant(operation.method),
    params,
    query: queryOf(operation, (parameter) => valueOf(parameter.schema, parameter.name)),
    rawQuery: fc.constant(null),
    body,
    contentType: fc.constant(null),
    auth: fc.constant('own' as const),
    idempotencyKey: fc.option(fc.uuid(), { freq: 2, nil: null }),
    version: fc.option(fc.constant('2026-09-01'), { freq: 4, nil: null }),
  });
}

type Change = (request: GeneratedRequest) => GeneratedRequest;

/**
 * A valid-ish request with one hostile change, so that the change is what the service meets:
 * a body value, a path parameter, a query value, the query text, the media type, the method,
 * the key, the Idempotency-Key or the version.
 */
function hostileRequestOf(operation: Operation): fc.Arbitrary<GeneratedRequest> {
  const properties: Record<string, unknown> = operation.body?.schema?.properties ?? {};
  const fieldPaths = operation.body?.type === 'json' ? schemaPaths(operation.body.schema) : [];
  const changes: fc.WeightedArbitrary<Change>[] = [];
  if (operation.body?.type === 'json')
    changes.push({
      weight: 8,
      arbitrary: bodyPlan.map((plan) => (request) => ({
        ...request,
        body: planBody(request.body.kind === 'value' ? request.body.value : {}, plan, properties, fieldPaths),
      })),
    });
  else if (operation.method === 'POST')
    changes.push({
      weight: 1,
      arbitrary: rawBodies.map((bytes) => (request) => ({ ...request, body: { kind: 'raw' as const, bytes } })),
    });
  for (const parameter of operation.params)
    changes.push({
      weight: 3,
      arbitrary: pathParamOf(operation, parameter).map((value) => (request) => ({
        ...request,
        params: { ...request.params, [parameter.name]: value },
      })),
    });
  for (const parameter of operation.query)
    changes.push({
      weight: 1,
      arbitrary: queryValueOf(parameter).map((value) => (request) => ({
        ...request,
        query: [...request.query.filter(([name]) => name !== parameter.name), [parameter.name, value]],
      })),
    });
  changes.push(
    { weight: 1, arbitrary: rawQueries.map((rawQuery) => (request) => ({ ...request, rawQuery })) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'HEAD')
        .map((method) => (request) => ({ ...request, method })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom<GeneratedRequest['auth']>('none', 'bad')
        .map((auth) => (request) => ({ ...request, auth })),
    },
    {
      weight: 1,
      arbitrary: fc
        .oneof(
          fc.constantFrom('a b', 'x'.repeat(300), 'é', '', 'key\u0009tab'),
          fc.string({ minLength: 1, maxLength: 20 }),
        )
        .map((idempotencyKey) => (request) => ({ ...request, idempotencyKey })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('2020-01-01', 'latest', '', ' 2026-09-01 ', '2026-09-01, 2020-01-01')
        .map((version) => (request) => ({ ...request, version })),
    },
  );
  if (operation.body)
    changes.push({
      weight: 1,
      arbitrary: contentTypes.map((contentType) => (request) => ({ ...request, contentType })),
    });
  return fc.tuple(cleanRequestOf(operation), fc.oneof(...changes)).map(([request, change]) => change(request));
}

// ---------------------------------------------------------------------------------------------
// Writing a request

export interface IdPools {
  own: Map<string, string[]>;
  other: Map<string, string[]>;
}

function pickId(pools: IdPools, ref: IdRef): string {
  if (ref.owner === 'unknown') return `${ref.prefix ?? 'cus_'}01m80kd1cn1220tzdk3rc8ms8q`.slice(0, 40);
  const pool = pools[ref.owner];
  const candidates = ref.prefix ? (pool.get(ref.prefix) ?? []) : [...pool.values()].flat();
  if (candidates.length === 0) return `${ref.prefix ?? 'cus_'}01m80kd1cn1220tzdk3rc8ms8q`;
  return candidates[ref.pick % candidates.length]!;
}

/** JSON text of a generated value: symbolic ids resolved, raw fragments written as they are. */
export function jsonText(value: unknown, pools: IdPools): string {
  if (value instanceof RawJson) return value.text;
  if (value instanceof IdRef) return JSON.stringify(pickId(pools, value));
  if (value instanceof Encoded) return JSON.stringify(value.text);
  if (Array.isArray(value)) return `[${value.map((item) => jsonText(item, pools)).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}:${jsonText(item, pools)}`)
      .join(',')}}`;
  if (typeof value === 'number' && !Number.isFinite(value)) return '1e400';
  return JSON.stringify(value) ?? 'null';
}

/** Percent-encoding that also writes what encodeURIComponent refuses (lone surrogates). */
function encodeText(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return encodeURIComponent(text.replace(/\p{Cs}/gu, '')) + '%ED%A0%80';
  }
}

function textOf(value: unknown, pools: IdPools): string {
  if (value instanceof Encoded) return value.text;
  if (value instanceof IdRef) return encodeText(pickId(pools, value));
  if (typeof value === 'string') return encodeText(value);
  if (value instanceof RawJson) return encodeText(value.text.slice(0, 200));
  return encodeText(typeof value === 'object' ? JSON.stringify(value) : String(value));
}

export interface WrittenRequest {
  method: string;
  url: string;
  payload: string | Buffer | undefined;
  headers: Record<string, string>;
  /** The ids written into the path. */
  pathIds: string[];
}

export function writeRequest(request: GeneratedRequest, pools: IdPools, keys: { own: string }): WrittenRequest {
  const pathIds: string[] = [];
  const path = request.operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = request.params[name];
    if (value instanceof IdRef) pathIds.push(pickId(pools, value));
    return textOf(value, pools);
  });
  const query = request.query.map(([name, value]) => `${encodeURIComponent(name)}=${textOf(value, pools)}`);
  if (request.rawQuery) query.push(request.rawQuery);
  const url = query.length > 0 ? `${path}?${query.join('&')}` : path;
  const headers: Record<string, string> = {};
  if (request.auth === 'own') headers.authorization = `Bearer ${keys.own}`;
  if (request.auth === 'bad') headers.authorization = 'Bearer svc_test_notakeyatall0000000000000000';
  if (request.idempotencyKey !== null) headers['idempotency-key'] = request.idempotencyKey;
  if (request.version !== null) headers['service-version'] = request.version;
  let payload: string | Buffer | undefined;
  if (request.body.kind === 'value') payload = jsonText(request.body.value, pools);
  if (request.body.kind === 'raw') payload = request.body.bytes;
  if (payload !== undefined)
    headers['content-type'] =
      request.contentType ?? (request.operation.body?.type === 'csv' ? 'text/csv' : 'application/json');
  return { method: request.method, url, payload, headers, pathIds };
}
