import type { FastifyInstance, FastifyRequest } from 'fastify';
import { refuse, type ApiError } from '../kernel/errors.js';
import { paramOf } from '../kernel/schema-validation.js';

/**
 * The rules every value of a request meets before any capability sees it, whatever the route:
 *
 * - text is valid Unicode (no lone UTF-16 surrogate, `"\ud800"`) without NUL or other C0 control
 *   characters; tab, line feed and carriage return are allowed inside the text values of a body
 *   (descriptions, notes, a CSV file), never in a key, a query parameter or a path parameter.
 *   PostgreSQL refuses NUL in text and JSON, and a lone surrogate is not UTF-8 at all;
 * - numbers are finite (`1e400` parses as Infinity, which JSON cannot even write back);
 * - JSON nests at most `maxJsonDepth` levels, checked without recursion, before any code that
 *   recurses (validation, canonical JSON, storage) sees the value.
 *
 * A body value is refused as `400 invalid_field_value` naming its `param`, a query parameter the
 * same with its name, a path parameter as `404 not_found`: no resource has such an id.
 */
export const maxJsonDepth = 32;

type TextProblem = 'nul' | 'control' | 'surrogate';

const controlInValue = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;
const controlInName = /[\u0000-\u001F]/;
// With the `u` flag a well-formed surrogate pair reads as one code point: only lone ones match.
const loneSurrogate = /\p{Cs}/u;

/** What is wrong with a text, or null. `lineBreaks` allows tab, line feed and carriage return. */
export function textProblem(text: string, lineBreaks: boolean): TextProblem | null {
  const control = (lineBreaks ? controlInValue : controlInName).exec(text);
  if (control) return control[0] === '\u0000' ? 'nul' : 'control';
  return loneSurrogate.test(text) ? 'surrogate' : null;
}

const described: Record<TextProblem, string> = {
  nul: 'holds a NUL character (U+0000), which no text may hold',
  control: 'holds a control character (U+0001 to U+001F); only tab and line breaks are allowed, in body text',
  surrogate: 'is not valid Unicode: it holds a lone UTF-16 surrogate (U+D800 to U+DFFF)',
};

/** Where a value breaks a rule: the path to it and what is wrong, as a sentence's end. */
export interface HostileSpot {
  path: (string | number)[];
  what: string;
}

/**
 * The first place in a parsed JSON value (document order) that breaks a rule, or null. An explicit
 * stack, not recursion: a body nested 100,000 deep is refused, not a stack overflow.
 */
export function findHostileValue(root: unknown, maxDepth: number = maxJsonDepth): HostileSpot | null {
  const stack: { value: unknown; path: (string | number)[]; depth: number }[] = [{ value: root, path: [], depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      const problem = textProblem(value, true);
      if (problem) return { path, what: described[problem] };
    } else if (typeof value === 'number') {
      if (!Number.isFinite(value)) return { path, what: 'is not a finite number' };
    } else if (value !== null && typeof value === 'object') {
      if (depth + 1 > maxDepth) return { path, what: `nests deeper than ${maxDepth} levels` };
      const children: { value: unknown; path: (string | number)[]; depth: number }[] = [];
      if (Array.isArray(value)) {
        value.forEach((item, index) => children.push({ value: item, path: [...path, index], depth: depth + 1 }));
      } else {
        for (const [key, item] of Object.entries(value)) {
          const problem = textProblem(key, false);
          if (problem) return { path, what: `has a key that ${described[problem]}` };
          children.push({ value: item, path: [...path, key], depth: depth + 1 });
        }
      }
      for (let index = children.length - 1; index >= 0; index--) stack.push(children[index]!);
    }
  }
  return null;
}

/** The refusal of a body value that breaks a rule. */
export function bodyRefusal(spot: HostileSpot): ApiError {
  const param = paramOf(spot.path);
  return param
    ? refuse('invalid_field_value', `\`${param}\` ${spot.what}.`, { param })
    : refuse('invalid_field_value', `The request body ${spot.what}.`);
}

/** The refusal of a text body (a CSV file), naming the line that breaks a rule. */
function textBodyRefusal(text: string): ApiError | null {
  const problem = textProblem(text, true);
  if (!problem) return null;
  const pattern = problem === 'surrogate' ? loneSurrogate : controlInValue;
  const index = text.search(pattern);
  const line = text.slice(0, index).split('\n').length;
  return refuse('invalid_field_value', `The request body ${described[problem]} (line ${line}).`);
}

/** Query parameters: text without any control character, named by the parameter that holds it. */
function queryRefusal(query: unknown): ApiError | null {
  if (query === null || typeof query !== 'object') return null;
  for (const [name, value] of Object.entries(query)) {
    const nameProblem = textProblem(name, false);
    if (nameProblem) return refuse('invalid_field_value', `A query parameter name ${described[nameProblem]}.`);
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item !== 'string') continue;
      const problem = textProblem(item, false);
      if (problem) return refuse('invalid_field_value', `\`${name}\` ${described[problem]}.`, { param: name });
    }
  }
  return null;
}

/** Path parameters: an id with a control character or broken Unicode names nothing. */
function pathRefusal(params: unknown): ApiError | null {
  if (params === null || typeof params !== 'object') return null;
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === 'string' && textProblem(value, false))
      return refuse('not_found', `No resource has this ${name}: it holds characters no ${name} has.`, {
        param: name,
      });
  }
  return null;
}

/** HTTP/1.1 requires `Host` (RFC 9112, 3.2); the server leaves that check to us (protocol-refusals.ts). */
function hostRefusal(request: FastifyRequest): ApiError | null {
  if (request.raw.httpVersion !== '1.1' || request.headers.host !== undefined) return null;
  return refuse('invalid_field_value', 'An HTTP/1.1 request names its server in a Host header.', { param: 'Host' });
}

/** The refusal of a request whose path, query or text body breaks a rule, or null. */
export function requestRefusal(request: FastifyRequest): ApiError | null {
  return (
    hostRefusal(request) ??
    pathRefusal(request.params) ??
    queryRefusal(request.query) ??
    (typeof request.body === 'string' ? textBodyRefusal(request.body) : null)
  );
}

/**
 * Checks path, query and text bodies of every route (the API, the public pages, the dashboard)
 * before validation. JSON bodies are checked as they are parsed (json-body.ts).
 */
export function installInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const refusal = requestRefusal(request);
    if (refusal) throw refusal;
  });
}
