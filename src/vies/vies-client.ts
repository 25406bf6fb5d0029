import { request } from 'undici';
import { describeNetworkFailure } from '../kernel/network-failure.js';

/**
 * The EU's VIES REST service (`POST {base}/check-vat-number`, swagger
 * `swagger_publicVAT.yaml`; research/eu-vat-domain.md section 8). A number is sent without its
 * prefix, under its VIES country code (`EL` for Greece, `XI` for Northern Ireland); with a
 * requester (the seller's own VAT number) VIES answers a consultation number, the proof of the check.
 */

export interface ViesRequest {
  /** With its prefix: `DE136695976`. */
  vatNumber: string;
  /** The requester's VAT number with its prefix, or null (then VIES gives no consultation number). */
  requester: string | null;
}

export type ViesAnswer =
  | {
      outcome: 'valid' | 'invalid';
      requestDate: string | null;
      requestIdentifier: string | null;
      name: string | null;
      address: string | null;
    }
  | { outcome: 'unavailable'; failure: string };

export interface ViesClient {
  check(query: ViesRequest): Promise<ViesAnswer>;
}

/**
 * VIES's error codes that mean "no answer now" (a member state down, too many requests, our
 * requester refused): never "invalid". Only INVALID_INPUT says something of the number itself.
 */
const numberRefusals = new Set(['INVALID_INPUT']);

const split = (vatNumber: string) => ({ countryCode: vatNumber.slice(0, 2), vatNumber: vatNumber.slice(2) });

/** VIES writes `---` where a member state does not publish the name or the address. */
const published = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' && value.trim() !== '---' ? value.trim() : null;

function bodyOf(query: ViesRequest): string {
  const requester = query.requester ? split(query.requester) : null;
  return JSON.stringify({
    ...split(query.vatNumber),
    ...(requester ? { requesterMemberStateCode: requester.countryCode, requesterNumber: requester.vatNumber } : {}),
  });
}

/** The error codes of an answer: `errorWrappers[].error`, or a `userError` other than VALID/INVALID. */
function errorCodes(answer: Record<string, unknown>): string[] {
  const wrappers = Array.isArray(answer.errorWrappers) ? (answer.errorWrappers as unknown[]) : [];
  const codes = wrappers.flatMap((wrapper) =>
    wrapper && typeof (wrapper as { error?: unknown }).error === 'string' ? [(wrapper as { error: string }).error] : [],
  );
  if (typeof answer.userError === 'string' && !['VALID', 'INVALID'].includes(answer.userError))
    codes.push(answer.userError);
  return codes;
}

/** What an answer of VIES says, checked field by field; anything unexpected is `unavailable`. */
export function readViesAnswer(status: number, text: string, asked: string): ViesAnswer {
  let answer: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(text);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    answer = parsed as Record<string, unknown>;
  } catch {
    return { outcome: 'unavailable', failure: `HTTP ${status}: not a JSON answer` };
  }
  const codes = errorCodes(answer);
  if (codes.some((code) => numberRefusals.has(code)))
    return { outcome: 'invalid', requestDate: null, requestIdentifier: null, name: null, address: null };
  if (codes.length > 0) return { outcome: 'unavailable', failure: codes.join(', ') };
  if (status !== 200) return { outcome: 'unavailable', failure: `HTTP ${status}` };
  if (typeof answer.valid !== 'boolean') return { outcome: 'unavailable', failure: 'malformed answer: no `valid`' };
  const answered = `${String(answer.countryCode ?? '')}${String(answer.vatNumber ?? '')}`;
  // An answer about another number than the one asked is not an answer.
  if (answered !== asked) return { outcome: 'unavailable', failure: 'malformed answer: another number' };
  return {
    outcome: answer.valid ? 'valid' : 'invalid',
    requestDate: typeof answer.requestDate === 'string' ? answer.requestDate : null,
    requestIdentifier: published(answer.requestIdentifier),
    name: published(answer.name),
    address: published(answer.address),
  };
}

/** The VIES client of a base URL (the operator's setting, not a user's: no address filtering). */
export function createViesClient(options: { baseUrl: string; timeoutMs: number }): ViesClient {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/check-vat-number`;
  return {
    async check(query) {
      try {
        const response = await request(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: bodyOf(query),
          signal: AbortSignal.timeout(options.timeoutMs),
          headersTimeout: options.timeoutMs,
          bodyTimeout: options.timeoutMs,
        });
        const text = await response.body.text();
        return readViesAnswer(response.statusCode, text, query.vatNumber);
      } catch (error) {
        return { outcome: 'unavailable', failure: describeNetworkFailure(error, options.timeoutMs) };
      }
    },
  };
}
