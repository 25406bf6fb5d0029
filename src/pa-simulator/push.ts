import { randomBytes, randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import { signCallback, signatureHeader, signatureTimestampHeader } from '../platform/callback-signature.js';
import type { StoredFlow } from './flow-store.js';
import { errorBody, type Exchange, type Reply } from './server.js';
import type { SimulatorStats } from './stats.js';
import type { SimulatorTimers } from './timers.js';

/**
 * The webhooks of the Flow Service (`/v1/webhooks`): each client's subscriptions, and the signed
 * callback of each flow stored to the subscriptions it matches, retried a few times.
 */

interface Webhook {
  webhookId: string;
  signingKey: string;
  createdAt: string;
  owner: string;
  callbackUrl: string;
  flowTypes?: string[];
  flowDirection?: string;
  ackStatus?: string;
}

/** The body of `POST /v1/webhooks` (checked against the document by the server). */
interface WebhookRequest {
  callbackUrl: string;
  flowTypes?: string[];
  flowDirection?: string;
  ackStatus?: string;
}

export interface PushOptions {
  now: () => number;
  /** Waits between the attempts of a callback delivery (ms). */
  retryDelaysMs: number[];
  observe?: ((exchange: Exchange) => void) | undefined;
  stats: SimulatorStats;
  timers: SimulatorTimers;
}

export class WebhookPush {
  private readonly webhooks = new Map<string, Webhook>();
  private readonly agent = new Agent({
    connect: { timeout: 5_000 },
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });

  constructor(private readonly options: PushOptions) {}

  list(owner: string): Reply {
    const mine = [...this.webhooks.values()].filter((webhook) => webhook.owner === owner);
    // The document requires `webhookIds` and describes `webhooks`: both are given.
    return {
      status: 200,
      body: {
        count: mine.length,
        webhookIds: mine.map((webhook) => webhook.webhookId),
        webhooks: mine.map(webhookJson),
      },
    };
  }

  subscribe(owner: string, params: WebhookRequest): Reply {
    const webhook: Webhook = {
      webhookId: randomUUID(),
      signingKey: randomBytes(32).toString('base64'),
      createdAt: new Date(this.options.now()).toISOString(),
      owner,
      callbackUrl: params.callbackUrl,
      ...(params.flowTypes ? { flowTypes: params.flowTypes } : {}),
      ...(params.flowDirection ? { flowDirection: params.flowDirection } : {}),
      ...(params.ackStatus ? { ackStatus: params.ackStatus } : {}),
    };
    this.webhooks.set(webhook.webhookId, webhook);
    return {
      status: 201,
      body: { webhookId: webhook.webhookId, signingKey: webhook.signingKey, createdAt: webhook.createdAt },
    };
  }

  unsubscribe(owner: string, webhookId: string): Reply {
    const webhook = this.webhooks.get(webhookId);
    if (!webhook || webhook.owner !== owner)
      return { status: 404, body: errorBody('MISSING_RESOURCE', 'no such webhook') };
    this.webhooks.delete(webhook.webhookId);
    return { status: 204 };
  }

  /** Calls back every subscription of the flow's owner that the flow matches. */
  push(flow: StoredFlow): void {
    const json = flow.json;
    const ack = (json.acknowledgement as { status: string }).status;
    for (const webhook of this.webhooks.values()) {
      if (webhook.owner !== flow.owner) continue;
      if (webhook.flowTypes && !webhook.flowTypes.includes(String(json.flowType))) continue;
      if (webhook.flowDirection && webhook.flowDirection !== json.flowDirection) continue;
      if (webhook.ackStatus && webhook.ackStatus !== ack) continue;
      void this.deliver(webhook, json);
    }
  }

  clear(): void {
    this.webhooks.clear();
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  private async deliver(webhook: Webhook, flow: Record<string, unknown>): Promise<void> {
    const body = JSON.stringify(flow);
    const delays = this.options.retryDelaysMs;
    for (let attempt = 0; attempt <= delays.length; attempt += 1) {
      const status = await this.attempt(webhook, flow, body);
      if (status >= 200 && status < 300) {
        this.options.stats.callbacksDelivered += 1;
        return;
      }
      const wait = delays[attempt];
      if (wait === undefined) break;
      await this.options.timers.sleep(wait);
    }
    this.options.stats.callbacksFailed += 1;
  }

  /** One signed POST of the flow to the callback URL; answers its status (0: no answer). */
  private async attempt(webhook: Webhook, flow: Record<string, unknown>, body: string): Promise<number> {
    const timestamp = Math.floor(this.options.now() / 1000);
    const headers = {
      'content-type': 'application/json',
      [signatureHeader]: signCallback(body, webhook.signingKey, timestamp),
      [signatureTimestampHeader]: String(timestamp),
    };
    let status = 0;
    try {
      const response = await request(webhook.callbackUrl, {
        method: 'POST',
        headers,
        body,
        dispatcher: this.agent,
      });
      status = response.statusCode;
      await response.body.dump();
    } catch {
      status = 0;
    }
    this.options.observe?.({
      service: 'callback',
      method: 'POST',
      path: webhook.callbackUrl,
      requestHeaders: headers,
      requestBody: flow,
      status,
      contentType: null,
      responseBody: undefined,
    });
    return status;
  }
}

function webhookJson(webhook: Webhook) {
  return {
    webhookId: webhook.webhookId,
    createdAt: webhook.createdAt,
    callbackUrl: webhook.callbackUrl,
    ...(webhook.flowTypes ? { flowTypes: webhook.flowTypes } : {}),
    ...(webhook.flowDirection ? { flowDirection: webhook.flowDirection } : {}),
    ...(webhook.ackStatus ? { ackStatus: webhook.ackStatus } : {}),
  };
}
