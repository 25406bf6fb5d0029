import { refuse, type ApiError } from '../kernel/errors.js';
import { isPublicAddress, literalAddress } from './public-address.js';

export type ResolveHost = (hostname: string) => Promise<string[]>;

export interface UrlPolicy {
  resolve: ResolveHost;
  /** FACTEUR_ALLOW_PRIVATE_WEBHOOKS: tests deliver to a receiver on 127.0.0.1. Never in production. */
  allowPrivate: boolean;
}

const maxUrlLength = 2048;

function invalid(detail: string): ApiError {
  return refuse('invalid_field_value', detail, { param: 'url' });
}

/**
 * An endpoint URL must be HTTPS, carry no credentials, and its host must resolve to public
 * addresses only. Returns the normalized URL, or throws `invalid_field_value` (param `url`).
 */
export async function checkEndpointUrl(raw: string, policy: UrlPolicy): Promise<string> {
  if (raw.length > maxUrlLength) throw invalid(`The URL is longer than ${maxUrlLength} characters.`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('The URL is not a valid absolute URL.');
  }
  if (url.protocol !== 'https:') throw invalid('Webhook endpoints must use https://.');
  if (url.username || url.password) throw invalid('The URL must not carry credentials.');
  // WHATWG parsing has already turned decimal, octal and hex hosts (https://2130706433/) into dotted form.
  const literal = literalAddress(url.hostname);
  if (literal !== null) {
    if (!policy.allowPrivate && !isPublicAddress(literal)) throw invalid(`The address ${literal} is not public.`);
    return url.toString();
  }
  let addresses: string[];
  try {
    addresses = await policy.resolve(url.hostname);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0) throw invalid(`The host ${url.hostname} does not resolve.`);
  const internal = addresses.filter((address) => !isPublicAddress(address));
  if (!policy.allowPrivate && internal.length > 0)
    throw invalid(`The host ${url.hostname} resolves to a non-public address.`);
  return url.toString();
}
