import { refuse, type ApiError } from '../kernel/errors.js';
import { hostRefusal, type OutboundPolicy } from '../kernel/outbound-address.js';

/** `allowPrivate` is FACTEUR_ALLOW_PRIVATE_WEBHOOKS: tests deliver to a receiver on 127.0.0.1. Never in production. */
export type UrlPolicy = OutboundPolicy;

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
  const refusal = await hostRefusal(url.hostname, policy);
  if (refusal?.reason === 'unresolved') throw invalid(`The host ${url.hostname} does not resolve.`);
  if (refusal?.literal) throw invalid(`The address ${refusal.literal} is not public.`);
  if (refusal) throw invalid(`The host ${url.hostname} resolves to a non-public address.`);
  return url.toString();
}
