import { afnorDocuments, type OpenApiDocument } from './openapi-validator.js';

/**
 * What a platform answers, checked before the connector reads it: the body of a success answer
 * against its operation's response schema in the AFNOR XP Z12-013 documents (the ones the
 * simulator's checks use), plus the few fields the connector cannot do without that the documents
 * leave optional or empty (an id, a signing key, an electronic address). A body that is not JSON,
 * or breaks its schema, is a problem named in a few words (the operation and the first schema
 * error), never an empty id further on, and never the body echoed back.
 */

/** The answers the connector reads: AFNOR operations by their `operationId`, and the OAuth2 token. */
export type AnswerOperation =
  'createFlow' | 'searchFlows' | 'getFlow' | 'createWebhook' | 'searchDirectoryLine' | 'getFacilityBySiret' | 'token';

export type AnswerReading = { ok: true; body: Record<string, unknown> } | { ok: false; problem: string };

type Json = Record<string, unknown>;

const nonEmpty = { type: 'string', minLength: 1 };
const identifiedFlow = { properties: { flowId: nonEmpty } };

/** What the connector reads beyond each document's schema (each answer is an object, too). */
const connectorNeeds: Record<Exclude<AnswerOperation, 'token'>, Json> = {
  createFlow: identifiedFlow,
  getFlow: identifiedFlow,
  searchFlows: { properties: { results: { items: identifiedFlow } } },
  // Without its signing key no callback can be checked.
  createWebhook: { required: ['webhookId', 'signingKey'], properties: { signingKey: nonEmpty } },
  // A line without its address (or its company) would route an invoice nowhere.
  searchDirectoryLine: {
    properties: {
      results: {
        items: { required: ['addressingIdentifier', 'siren'], properties: { addressingIdentifier: nonEmpty } },
      },
    },
  },
  getFacilityBySiret: { required: ['siret'] },
};

/**
 * RFC 6749 §5.1, what the connector reads of it: the token. `token_type` is not required (some
 * platforms leave it out); an `expires_in` that is not a number means the default life.
 */
const tokenSchema = { type: 'object', required: ['access_token'], properties: { access_token: nonEmpty } };

const serviceOf: Record<AnswerOperation, 'flow' | 'directory'> = {
  createFlow: 'flow',
  searchFlows: 'flow',
  getFlow: 'flow',
  createWebhook: 'flow',
  token: 'flow',
  searchDirectoryLine: 'directory',
  getFacilityBySiret: 'directory',
};

type Check = (body: unknown) => string[];

// Loaded at the first answer read (not at import: most commands never call a platform), then kept.
let documents: { flow: OpenApiDocument; directory: OpenApiDocument } | null = null;
/** The checks by operation and documented status, compiled once; and by the status answered, found once. */
const compiled = new Map<string, Check>();
const byAnswer = new Map<string, Check>();

/** The check of an operation's answer of `status` (a 2xx: at most a hundred per operation). */
function checkOf(operation: AnswerOperation, status: number): Check {
  const key = `${operation}:${status}`;
  let check = byAnswer.get(key);
  if (!check) {
    check = compile(operation, status);
    byAnswer.set(key, check);
  }
  return check;
}

function compile(operation: AnswerOperation, status: number): Check {
  documents ??= afnorDocuments({ reading: true });
  const document = documents[serviceOf[operation]];
  if (operation === 'token') return once('token', () => document.checker(tokenSchema, 'body'));
  const success = document.successSchema(operation, status);
  if (!success) throw new Error(`${operation}: the document gives its answer no JSON body`);
  return once(`${operation}:${success.status}`, () =>
    document.checker({ allOf: [success.schema, { type: 'object', ...connectorNeeds[operation] }] }, 'body'),
  );
}

function once(key: string, build: () => Check): Check {
  let check = compiled.get(key);
  if (!check) {
    check = build();
    compiled.set(key, check);
  }
  return check;
}

/** The media type of a `Content-Type`, when it reads as one (it comes from the platform: never echoed raw). */
function mediaType(contentType: string | null): string {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (!type) return 'none given';
  return /^[a-z0-9.+-]{1,40}\/[a-z0-9.+-]{1,60}$/.test(type) ? type : 'unreadable';
}

/** A schema error in a few words: where in the body and what, bounded (a path may be long). */
const shortProblem = (problem: string) => (problem.length > 160 ? `${problem.slice(0, 157)}...` : problem);

/** The body of a success answer to `operation`, parsed and checked; or what is wrong with it. */
export function readAnswer(
  operation: AnswerOperation,
  status: number,
  contentType: string | null,
  raw: Buffer,
): AnswerReading {
  const check = checkOf(operation, status);
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    return {
      ok: false,
      problem: `the answer to ${operation} is not JSON (HTTP ${status}, content type ${mediaType(contentType)})`,
    };
  }
  const [first] = check(body);
  if (first !== undefined)
    return {
      ok: false,
      problem: `the answer to ${operation} does not follow the AFNOR document: ${shortProblem(first)}`,
    };
  return { ok: true, body: body as Record<string, unknown> };
}
