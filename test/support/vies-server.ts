import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A local VIES: `POST /check-vat-number` answered in the shape of the EU's REST API (swagger
 * `swagger_publicVAT.yaml`: CheckVatResponse on success, `actionSucceed` + `errorWrappers` on an
 * error). What it says of each number is set by the test; every request is counted.
 */
export type ViesBehaviour =
  | 'valid'
  | 'invalid'
  | 'MS_UNAVAILABLE'
  | 'GLOBAL_MAX_CONCURRENT_REQ'
  | 'INVALID_INPUT'
  | 'http503'
  | 'malformed'
  | 'timeout';

export interface ViesRequestSeen {
  countryCode: string;
  vatNumber: string;
  requesterMemberStateCode?: string;
  requesterNumber?: string;
}

export interface ViesServer {
  url: string;
  /** By number with its prefix (`DE136695976`); numbers not listed follow `fallback`. */
  behaviour: Map<string, ViesBehaviour>;
  fallback: ViesBehaviour;
  requests: ViesRequestSeen[];
  /** Requests about one number (with its prefix). */
  countFor(vatNumber: string): number;
  close(): Promise<void>;
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

const errorAnswer = (error: string) => ({
  actionSucceed: false,
  errorWrappers: [{ error, message: `VIES says ${error}` }],
});

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return null;
  }
}

function checkVatResponse(seen: ViesRequestSeen, valid: boolean, consultation: number) {
  const requester = Boolean(seen.requesterMemberStateCode && seen.requesterNumber);
  return {
    countryCode: seen.countryCode,
    vatNumber: seen.vatNumber,
    requestDate: '2026-12-02T07:00:00.000Z',
    valid,
    // VIES answers a consultation number only to a request that names its requester.
    requestIdentifier: requester && valid ? `WAPIAAAAZ${String(consultation).padStart(6, '0')}` : '',
    name: valid ? 'BEISPIEL GMBH' : '---',
    address: valid ? 'HAUPTSTRASSE 1\n10115 BERLIN' : '---',
    traderName: '',
    traderStreet: '',
    traderPostalCode: '',
    traderCity: '',
    traderCompanyType: '',
    traderNameMatch: 'NOT_PROCESSED',
    traderStreetMatch: 'NOT_PROCESSED',
    traderPostalCodeMatch: 'NOT_PROCESSED',
    traderCityMatch: 'NOT_PROCESSED',
    traderCompanyTypeMatch: 'NOT_PROCESSED',
  };
}

export async function startViesServer(): Promise<ViesServer> {
  const sockets = new Set<Socket>();
  const server = createServer(async (request, response) => {
    if (request.method !== 'POST' || request.url !== '/check-vat-number') return send(response, 404, {});
    const body = (await readJson(request)) as Partial<ViesRequestSeen> | null;
    if (!body || typeof body.countryCode !== 'string' || typeof body.vatNumber !== 'string')
      return send(response, 400, errorAnswer('INVALID_INPUT'));
    const seen = body as ViesRequestSeen;
    vies.requests.push(seen);
    const behaviour = vies.behaviour.get(`${seen.countryCode}${seen.vatNumber}`) ?? vies.fallback;
    switch (behaviour) {
      case 'valid':
      case 'invalid':
        return send(response, 200, checkVatResponse(seen, behaviour === 'valid', vies.requests.length));
      case 'timeout':
        return; // never answers: the client's time-out decides
      case 'http503':
        response.writeHead(503, { 'content-type': 'text/html' });
        return response.end('<html>Service Unavailable</html>');
      case 'malformed':
        return send(response, 200, { countryCode: seen.countryCode, vatNumber: seen.vatNumber });
      case 'INVALID_INPUT':
        return send(response, 400, errorAnswer(behaviour));
      default:
        return send(response, 500, errorAnswer(behaviour));
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const vies: ViesServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    behaviour: new Map(),
    fallback: 'valid',
    requests: [],
    countFor: (vatNumber) =>
      vies.requests.filter((seen) => `${seen.countryCode}${seen.vatNumber}` === vatNumber).length,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return vies;
}
