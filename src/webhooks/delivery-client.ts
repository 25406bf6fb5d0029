import { Agent, request } from 'undici';
import { describeNetworkFailure } from '../kernel/network-failure.js';
import { blockedLiteral, isBlockedAddress, pinnedLookup } from '../kernel/outbound-address.js';
import { outcomeOfStatus, type Outcome } from './retry-schedule.js';
import type { UrlPolicy } from './endpoint-url.js';

export interface DeliveryRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface DeliveryClient {
  post(delivery: DeliveryRequest): Promise<Outcome & { durationMs: number }>;
  close(): Promise<void>;
}

/**
 * The only way the service calls a URL a user gave. Every connection goes through a lookup
 * that resolves the host, keeps only public addresses and dials one of those: what was checked
 * is what is connected to, so DNS rebinding gets nothing. Literal addresses are checked before
 * any connection; redirects are never followed.
 */
export function createDeliveryClient(policy: UrlPolicy, timeoutMs: number): DeliveryClient {
  const agent = new Agent({
    connect: { lookup: pinnedLookup(policy), timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connections: 64,
  });

  return {
    async post(delivery) {
      const started = performance.now();
      const done = (outcome: Outcome) => ({ ...outcome, durationMs: Math.round(performance.now() - started) });
      const literal = blockedLiteral(delivery.url, policy);
      if (literal !== null)
        return done({ kind: 'failed', status: null, error: `blocked: ${literal} is not a public address` });
      try {
        const response = await request(delivery.url, {
          method: 'POST',
          headers: delivery.headers,
          body: delivery.body,
          dispatcher: agent,
          signal: AbortSignal.timeout(timeoutMs),
        });
        // The receiver's answer is not ours to keep: read a little, then drop it.
        await response.body.dump({ limit: 65_536 }).catch(() => undefined);
        return done(outcomeOfStatus(response.statusCode));
      } catch (error) {
        return done({ kind: 'failed', status: null, error: describeFailure(error, timeoutMs) });
      }
    },
    close: () => agent.close(),
  };
}

function describeFailure(error: unknown, timeoutMs: number): string {
  const failure = error as { message?: string; cause?: { message?: string } };
  if (isBlockedAddress(error)) return `blocked: ${failure.cause?.message ?? failure.message}`;
  return describeNetworkFailure(error, timeoutMs);
}
