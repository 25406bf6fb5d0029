import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

/**
 * Checks HTTP exchanges against an OpenAPI 3.0 document (the AFNOR Flow and Directory services):
 * the operation (method and path template), its path, query and header parameters, the request
 * body (JSON, or the parts of a multipart form) and the answer (status documented, content type,
 * body). Built on Ajv over the document's own component schemas. The simulator refuses a request
 * that breaks its document (400, as a platform would); the tests check every exchange both ways.
 */

// ajv-formats is CommonJS: its function is the default export or the module itself.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as unknown as AddFormats;

export const afnorStandardsDir = join(dirname(fileURLToPath(import.meta.url)), 'standards', 'afnor-xp-z12-013');

type Json = Record<string, unknown>;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Json;
  explode?: boolean;
}

interface Operation {
  operationId: string;
  parameters?: (Parameter | { $ref: string })[];
  requestBody?: Json;
  responses: Record<string, Json>;
}

interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  names: string[];
  operation: Operation;
}

export interface RequestToCheck {
  method: string;
  /** The path after the service's base path, with its query: `/v1/flows/abc?docType=Original`. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body; for a multipart form, its fields by name (JSON parts parsed, files as strings). */
  body?: unknown;
}

export interface ResponseToCheck {
  method: string;
  path: string;
  status: number;
  contentType: string | null;
  /** The parsed JSON body, or undefined for a file or an empty answer. */
  body?: unknown;
}

export interface DocumentOptions {
  /**
   * For a connector reading answers: stop at the first problem rather than list them all, and do
   * not check the document's schemas against JSON Schema's own (the tests' documents do; about
   * 300 ms saved at the first answer).
   */
  reading?: boolean;
}

const headerValue = (headers: RequestToCheck['headers'], name: string): string | undefined => {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
};

const isPlainString = (schema: unknown) => {
  const node = schema as Json | null;
  return (
    !!node && node.type === 'string' && node.enum === undefined && node.pattern === undefined && node.$ref === undefined
  );
};

/** OpenAPI 3.0 schema → JSON Schema: `nullable` becomes a type union; refs point at Ajv's ids. */
function toJsonSchema(schema: unknown, prefix: string): unknown {
  if (Array.isArray(schema)) return schema.map((item) => toJsonSchema(item, prefix));
  if (!schema || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema as Json)) {
    if (key === 'example' || key === 'xml' || key === 'externalDocs') continue;
    if (key === '$ref' && typeof value === 'string') out.$ref = value.replace('#/components/schemas/', `${prefix}/`);
    else if (key === 'properties' && value && typeof value === 'object')
      out.properties = Object.fromEntries(
        Object.entries(value as Json).map(([name, property]) => [name, toJsonSchema(property, prefix)]),
      );
    else out[key] = toJsonSchema(value, prefix);
  }
  // The extensible-enum idiom, `oneOf: [an enum, any string]`: an enum value matches both branches,
  // which `oneOf` forbids; the document means "one of these, or another string" (anyOf).
  if (Array.isArray(out.oneOf) && out.oneOf.some((branch) => isPlainString(branch))) {
    out.anyOf = out.oneOf;
    delete out.oneOf;
  }
  if (out.nullable === true) {
    delete out.nullable;
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
  }
  delete out.nullable;
  return out;
}

export class OpenApiDocument {
  private readonly ajv: Ajv;
  private readonly routes: Route[] = [];
  private readonly compiled = new Map<unknown, ValidateFunction>();
  private readonly id: string;

  constructor(
    private readonly document: Json,
    /** The base path of the service's server URL, stripped before matching (`/flow-service`). */
    readonly basePath = '',
    options: DocumentOptions = {},
  ) {
    this.id = `openapi:${String((document.info as Json | undefined)?.title ?? 'document').replace(/[^A-Za-z0-9]+/g, '-')}`;
    this.ajv = new Ajv({
      strict: false,
      allErrors: !options.reading,
      validateSchema: !options.reading,
      validateFormats: true,
    });
    addFormats(this.ajv);
    const schemas = ((document.components as Json | undefined)?.schemas ?? {}) as Json;
    this.ajv.addSchema({ $id: this.id, definitions: toJsonSchema(schemas, `${this.id}#/definitions`) as Json });
    for (const [template, item] of Object.entries(document.paths as Json)) {
      for (const [method, operation] of Object.entries(item as Json)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const names: string[] = [];
        const pattern = new RegExp(
          `^${template
            .split(/(\{[^}]+\})/)
            .map((part) => {
              const name = /^\{([^}]+)\}$/.exec(part)?.[1];
              if (!name) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
              names.push(name);
              return '([^/]+)';
            })
            .join('')}$`,
        );
        this.routes.push({ method: method.toUpperCase(), template, pattern, names, operation: operation as Operation });
      }
    }
    // More literal text first: `/v1/flows/search` wins over `/v1/flows/{flowId}`.
    this.routes.sort(
      (a, b) => b.template.replace(/\{[^}]+\}/g, '').length - a.template.replace(/\{[^}]+\}/g, '').length,
    );
  }

  static load(file: string, basePath = ''): OpenApiDocument {
    return new OpenApiDocument(JSON.parse(readFileSync(file, 'utf8')) as Json, basePath);
  }

  /**
   * The JSON schema of an operation's success answer: that of `status` when the document lists
   * it, else that of the operation's first listed 2xx (a 200 where the document says 202 is read
   * by the same schema); null when that answer carries no JSON body.
   */
  successSchema(operationId: string, status: number): { status: string; schema: unknown } | null {
    const route = this.routes.find((candidate) => candidate.operation.operationId === operationId);
    if (!route) throw new Error(`${operationId}: no such operation`);
    const responses = route.operation.responses;
    const listed = (code: string) => /^2\d\d$/.test(code);
    const key =
      listed(String(status)) && responses[String(status)] ? String(status) : Object.keys(responses).find(listed);
    if (!key) return null;
    const documented = this.resolve(responses[key] as Json | { $ref: string });
    const schema = (documented.content as Record<string, Json> | undefined)?.['application/json']?.schema;
    return schema ? { status: key, schema } : null;
  }

  /** The check of values against a schema in the document's terms (its `$ref`s), compiled now, once. */
  checker(schema: unknown, where: string): (value: unknown) => string[] {
    this.validator(schema);
    return (value) => this.check(schema, value, where);
  }

  /** The operation a request names, with its path parameters (decoded); null when none does. */
  match(
    method: string,
    path: string,
  ): { operationId: string; template: string; params: Record<string, string> } | null {
    const route = this.route(method, path);
    if (!route) return null;
    return { operationId: route.route.operation.operationId, template: route.route.template, params: route.params };
  }

  private route(method: string, rawPath: string): { route: Route; params: Record<string, string> } | null {
    let path = rawPath.split('?')[0]!;
    if (this.basePath && path.startsWith(this.basePath)) path = path.slice(this.basePath.length);
    for (const route of this.routes) {
      if (route.method !== method.toUpperCase()) continue;
      const match = route.pattern.exec(path);
      if (!match) continue;
      const params: Record<string, string> = {};
      route.names.forEach((name, index) => {
        params[name] = decodeURIComponent(match[index + 1]!);
      });
      return { route, params };
    }
    return null;
  }

  private resolve<T>(value: T | { $ref: string }): T {
    if (value && typeof value === 'object' && '$ref' in value && typeof value.$ref === 'string') {
      const path = value.$ref.replace(/^#\//, '').split('/');
      return path.reduce<unknown>((node, key) => (node as Json)[key], this.document) as T;
    }
    return value as T;
  }

  private validator(schema: unknown): ValidateFunction {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(toJsonSchema(schema, `${this.id}#/definitions`) as Json);
      this.compiled.set(schema, validate);
    }
    return validate;
  }

  private check(schema: unknown, value: unknown, where: string): string[] {
    const validate = this.validator(schema);
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => `${where}${error.instancePath} ${error.message ?? 'is invalid'}`);
  }

  /** The problems of a value against one of the document's component schemas (`Flow`, `Error`). */
  checkSchema(name: string, value: unknown): string[] {
    return this.check({ $ref: `#/components/schemas/${name}` }, value, name);
  }

  /** The problems of a request (empty when it follows the document). */
  checkRequest(request: RequestToCheck): string[] {
    const found = this.route(request.method, request.path);
    if (!found) return [`${request.method} ${request.path.split('?')[0]}: no such operation`];
    const { route, params } = found;
    const problems: string[] = [];
    const query = new URLSearchParams(request.path.split('?')[1] ?? '');
    for (const raw of route.operation.parameters ?? []) {
      const parameter = this.resolve(raw);
      const schema = this.resolve(parameter.schema as Json | { $ref: string });
      let value: unknown =
        parameter.in === 'path'
          ? params[parameter.name]
          : parameter.in === 'query'
            ? (query.get(parameter.name) ?? undefined)
            : headerValue(request.headers, parameter.name);
      if (value === undefined) {
        if (parameter.required) problems.push(`${parameter.in} parameter ${parameter.name} is required`);
        continue;
      }
      if ((schema as Json).type === 'array' && typeof value === 'string') value = value.split(',');
      problems.push(...this.check(schema, value, `${parameter.in} parameter ${parameter.name}`));
    }
    const body = route.operation.requestBody ? this.resolve(route.operation.requestBody) : null;
    if (body) {
      const content = (body.content ?? {}) as Record<string, Json>;
      const type = (headerValue(request.headers, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      const media = content[type];
      if (!media)
        problems.push(`request content type ${type || '(none)'} is not one of ${Object.keys(content).join(', ')}`);
      else if (media.schema) problems.push(...this.check(media.schema, request.body, 'request body'));
    }
    return problems;
  }

  /** The problems of an answer to a request (empty when the document allows it). */
  checkResponse(response: ResponseToCheck): string[] {
    const found = this.route(response.method, response.path);
    if (!found) return [`${response.method} ${response.path.split('?')[0]}: no such operation`];
    const responses = found.route.operation.responses;
    const raw = responses[String(response.status)] ?? responses.default;
    if (!raw) return [`${found.route.operation.operationId}: status ${response.status} is not documented`];
    const documented = this.resolve(raw as Json | { $ref: string });
    const content = documented.content as Record<string, Json> | undefined;
    if (!content) return response.body === undefined ? [] : [`status ${response.status} documents no body`];
    const type = (response.contentType ?? '').split(';')[0]!.trim().toLowerCase();
    const media = content[type];
    if (!media)
      return [
        `status ${response.status}: content type ${type || '(none)'} is not one of ${Object.keys(content).join(', ')}`,
      ];
    return media.schema ? this.check(media.schema, response.body, `response ${response.status} body`) : [];
  }
}

const readDocument = (name: string) => JSON.parse(readFileSync(join(afnorStandardsDir, name), 'utf8')) as Json;

/**
 * The two AFNOR XP Z12-013 documents, mounted under the base paths of their server URLs, with the
 * Directory document's one erratum mended: `directoryLineStatus` lists `Upcoming` (8 characters)
 * under `maxLength: 7`, so the document would refuse its own value (the enum is what it means).
 */
export function afnorDocuments(options: DocumentOptions = {}): { flow: OpenApiDocument; directory: OpenApiDocument } {
  const directory = readDocument('directory-service-1.3.0.json');
  const schemas = (directory.components as Json).schemas as Record<string, Json>;
  delete schemas.directoryLineStatus!.maxLength;
  return {
    flow: new OpenApiDocument(readDocument('flow-service-1.3.0.json'), '/flow-service', options),
    directory: new OpenApiDocument(directory, '/directory-service', options),
  };
}
