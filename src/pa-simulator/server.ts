import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afnorDocuments } from '../platform/openapi-validator.js';

/**
 * The simulator's HTTPS server: reads each request, routes it to its service (the token
 * endpoint, the admin interface, the Flow or the Directory Service), checks the latter two against
 * their OpenAPI documents, and writes the answer the service gives, showing every exchange to the
 * observer. The services answer values; none of them touches a socket.
 */

/** One request and its answer, as the simulator saw them (the tests check both against the documents). */
export interface Exchange {
  service: 'flow' | 'directory' | 'auth' | 'admin' | 'callback' | 'other';
  method: string;
  /** Path and query, as received (`/flow-service/v1/flows/search`), or the callback's URL. */
  path: string;
  requestHeaders: Record<string, string | string[] | undefined>;
  /** The JSON body; a multipart form's fields (JSON parts parsed, a file as the string `binary`). */
  requestBody: unknown;
  status: number;
  contentType: string | null;
  /** The JSON answer, or undefined (a file, nothing). */
  responseBody: unknown;
}

/** An answer a service gives: a JSON body (or none), or a file. */
export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** A file instead of a JSON body. */
  file?: { content: Buffer; contentType: string };
}

/** A reply, or none at all: the request hangs until the client gives up (a scripted timeout). */
export type Answer = Reply | { hang: true };

/** A request the server hands over unread (the token endpoint, the admin interface). */
export interface RawRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A reply to a raw request, with its body as the exchange shows it. */
export interface RawReply extends Reply {
  requestBody: unknown;
}

/** The multipart form of a deposit. */
export interface DepositForm {
  flowInfo: unknown;
  file: Buffer | null;
  fileType: string | null;
}

/** An operation of an OpenAPI document, matched and checked. */
export interface Operation {
  operationId: string;
  params: Record<string, string>;
  query: URLSearchParams;
  body: unknown;
  form: DepositForm | null;
}

/** Where the server sends each request. */
export interface SimulatorRoutes {
  token(request: RawRequest): RawReply;
  admin(request: RawRequest): RawReply;
  /** The client a bearer token was issued to, or null (none, unknown, expired). */
  authenticate(authorization: string | undefined): string | null;
  flow(operation: Operation, owner: string): Answer | Promise<Answer>;
  directory(operation: Operation): Answer;
}

export interface SimulatorServerOptions {
  tls: { cert: string; key: string };
  /** Refuse (400) a request its OpenAPI document does not allow. */
  checkRequests: boolean;
  observe?: ((exchange: Exchange) => void) | undefined;
}

export const errorBody = (errorCode: string, errorMessage: string) => ({ errorCode, errorMessage });

const maxBodyBytes = 110 * 1024 * 1024;

export class SimulatorServer {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly hanging = new Set<ServerResponse>();
  private readonly documents = afnorDocuments();
  private port = 0;

  constructor(
    private readonly options: SimulatorServerOptions,
    private readonly routes: SimulatorRoutes,
  ) {
    this.server = createServer({ cert: options.tls.cert, key: options.tls.key, minVersion: 'TLSv1.2' }, (req, res) => {
      void this.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent)
          this.write(req, res, 'other', undefined, { status: 500, body: errorBody('INTERNAL_ERROR', String(error)) });
      });
    });
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  async start(port: number, host: string): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
    return this.url;
  }

  unref(): void {
    this.server.unref();
  }

  get url(): string {
    return `https://localhost:${this.port}`;
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      for (const socket of this.sockets) socket.destroy();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = req.url ?? '/';
    const raw = await readBody(req);
    const rawRequest = { method: req.method ?? 'GET', url: path, headers: req.headers, body: raw };
    if (path.startsWith('/auth-service/')) return this.writeRaw(req, res, 'auth', this.routes.token(rawRequest));
    if (path.startsWith('/simulator/')) return this.writeRaw(req, res, 'admin', this.routes.admin(rawRequest));
    const service = path.startsWith('/flow-service/')
      ? 'flow'
      : path.startsWith('/directory-service/')
        ? 'directory'
        : null;
    if (!service)
      return this.write(req, res, 'other', undefined, {
        status: 404,
        body: errorBody('MISSING_RESOURCE', 'no such service'),
      });
    return this.operate(req, res, service, raw);
  }

  /** A request to the Flow or the Directory Service: read, authenticated, matched, checked, answered. */
  private async operate(
    req: IncomingMessage,
    res: ServerResponse,
    service: 'flow' | 'directory',
    raw: Buffer,
  ): Promise<void> {
    const path = req.url ?? '/';
    const document = this.documents[service];
    const contentType = (req.headers['content-type'] ?? '').toLowerCase();
    let body: unknown;
    let form: DepositForm | null = null;
    try {
      if (contentType.startsWith('multipart/form-data')) {
        form = await readForm(raw, contentType);
        body = { flowInfo: form.flowInfo, ...(form.file ? { file: 'binary' } : {}) };
      } else if (raw.length > 0) body = JSON.parse(raw.toString('utf8'));
    } catch {
      return this.write(req, res, service, undefined, {
        status: 400,
        body: errorBody('INVALID_REQUEST', 'the body cannot be read'),
      });
    }
    const refuse = (status: number, errorCode: string, errorMessage: string) =>
      this.write(req, res, service, body, { status, body: errorBody(errorCode, errorMessage) });

    const owner = this.routes.authenticate(req.headers.authorization);
    const match = document.match(req.method ?? 'GET', path);
    if (!match) return refuse(404, 'MISSING_RESOURCE', 'no such operation');
    if (!owner && match.operationId !== 'getHealth')
      return refuse(401, 'INVALID_TOKEN', 'a valid bearer token is required');
    if (this.options.checkRequests) {
      const problems = document.checkRequest({ method: req.method ?? 'GET', path, headers: req.headers, body });
      if (problems.length > 0) return refuse(400, 'INVALID_REQUEST', problems.slice(0, 10).join('; '));
    }
    const operation = {
      operationId: match.operationId,
      params: match.params,
      query: new URLSearchParams(path.split('?')[1] ?? ''),
      body,
      form,
    };
    const answer =
      service === 'flow' ? await this.routes.flow(operation, owner ?? '') : this.routes.directory(operation);
    if ('hang' in answer) return this.hang(res);
    this.write(req, res, service, body, answer);
  }

  private writeRaw(req: IncomingMessage, res: ServerResponse, service: Exchange['service'], reply: RawReply): void {
    const { requestBody, ...answer } = reply;
    this.write(req, res, service, requestBody, answer);
  }

  private write(
    req: IncomingMessage,
    res: ServerResponse,
    service: Exchange['service'],
    requestBody: unknown,
    reply: Reply,
  ): void {
    const { status, body, headers = {}, file } = reply;
    const contentType = file?.contentType ?? (body === undefined ? null : 'application/json');
    const payload = file?.content ?? (body === undefined ? undefined : Buffer.from(JSON.stringify(body)));
    res.writeHead(status, {
      ...(contentType ? { 'content-type': contentType } : {}),
      ...(payload ? { 'content-length': String(payload.length) } : {}),
      ...headers,
    });
    res.end(payload);
    this.options.observe?.({
      service,
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      requestHeaders: req.headers,
      requestBody,
      status,
      contentType,
      responseBody: file ? undefined : body,
    });
  }

  private hang(res: ServerResponse): void {
    this.hanging.add(res);
    res.on('close', () => this.hanging.delete(res));
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBodyBytes) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

async function readForm(raw: Buffer, contentType: string): Promise<DepositForm> {
  const data = await new Response(new Uint8Array(raw), { headers: { 'content-type': contentType } }).formData();
  const info = data.get('flowInfo');
  const infoText = typeof info === 'string' ? info : info ? await info.text() : null;
  const file = data.get('file');
  return {
    flowInfo: infoText === null ? undefined : (JSON.parse(infoText) as unknown),
    file: file && typeof file !== 'string' ? Buffer.from(await file.arrayBuffer()) : null,
    fileType: file && typeof file !== 'string' ? file.type : null,
  };
}
