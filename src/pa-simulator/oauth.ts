import { randomBytes } from 'node:crypto';
import type { RawReply, RawRequest } from './server.js';
import type { SimulatorStats } from './stats.js';

/**
 * The OAuth2 client-credentials token endpoint (`POST /auth-service/{custId}/token`), the bearer
 * tokens it issued, and their revocation. The client credentials come in the form or as Basic.
 */

export interface SimulatorClient {
  clientId: string;
  clientSecret: string;
}

export interface OAuthOptions {
  /** The accepted client credentials; default one, generated. */
  clients?: SimulatorClient[] | undefined;
  /** Life of an access token, seconds. */
  tokenTtlSeconds: number;
  now: () => number;
  stats: SimulatorStats;
}

export class OAuthService {
  readonly clients: SimulatorClient[];
  private readonly tokens = new Map<string, { clientId: string; expiresAt: number }>();

  constructor(private readonly options: OAuthOptions) {
    this.clients = options.clients ?? [
      { clientId: `sim-client-${randomBytes(4).toString('hex')}`, clientSecret: randomBytes(18).toString('base64url') },
    ];
  }

  /** Accepts another client from now on (an account opened on the platform). */
  admit(client: SimulatorClient): void {
    if (!this.clients.some((known) => known.clientId === client.clientId)) this.clients.push(client);
  }

  token(request: RawRequest): RawReply {
    const form = new URLSearchParams(request.body.toString('utf8'));
    const oauthError = (status: number, error: string, description: string): RawReply => ({
      requestBody: Object.fromEntries(form),
      status,
      body: { error, error_description: description },
      headers: { 'cache-control': 'no-store' },
    });
    if (request.method !== 'POST' || !/^\/auth-service\/[^/]+\/token$/.test(request.url))
      return oauthError(404, 'invalid_request', 'the token endpoint is POST /auth-service/{custId}/token');
    if (form.get('grant_type') !== 'client_credentials')
      return oauthError(400, 'unsupported_grant_type', 'only client_credentials is supported');
    const { clientId, clientSecret } = credentialsOf(form, request.headers.authorization);
    const client = this.clients.find((candidate) => candidate.clientId === clientId);
    if (!client || client.clientSecret !== clientSecret)
      return oauthError(401, 'invalid_client', 'unknown client or wrong secret');
    const ttl = this.options.tokenTtlSeconds;
    const accessToken = randomBytes(24).toString('base64url');
    this.tokens.set(accessToken, { clientId: client.clientId, expiresAt: this.options.now() + ttl * 1000 });
    this.options.stats.tokensIssued += 1;
    return {
      requestBody: { grant_type: 'client_credentials' },
      status: 200,
      body: { access_token: accessToken, token_type: 'Bearer', expires_in: ttl },
      headers: { 'cache-control': 'no-store' },
    };
  }

  /** The client this bearer token was issued to, or null (none, unknown, expired, revoked). */
  authenticate(authorization: string | undefined): string | null {
    const match = /^Bearer (.+)$/i.exec(authorization ?? '');
    const token = match ? this.tokens.get(match[1]!) : undefined;
    if (!token || token.expiresAt <= this.options.now()) return null;
    return token.clientId;
  }

  /** Every token issued so far stops working. */
  revokeAll(): void {
    this.tokens.clear();
  }
}

/** The client's credentials: Basic authorization first, else the form's fields. */
function credentialsOf(
  form: URLSearchParams,
  authorization: string | undefined,
): { clientId: string | null; clientSecret: string | null } {
  const basic = /^Basic (.+)$/i.exec(authorization ?? '');
  if (!basic) return { clientId: form.get('client_id'), clientSecret: form.get('client_secret') };
  const [id, secret] = Buffer.from(basic[1]!, 'base64').toString('utf8').split(':');
  return { clientId: decodeURIComponent(id ?? ''), clientSecret: decodeURIComponent(secret ?? '') };
}
