import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A local Sirene API 3.11: `GET /siret/{siret}` and `GET /siren/{siren}` answered in the shape of INSEE's published
 * description (`{ header: { statut, message }, etablissement: { siret, statutDiffusionEtablissement,
 * uniteLegale: { statutDiffusionUniteLegale, denominationUniteLegale }, periodesEtablissement: [...] } }`,
 * `{ header, uniteLegale: { siren, statutDiffusionUniteLegale, periodesUniteLegale: [...] } }`;
 * 404 unknown, 403 non-diffusible, 429 over the quota, 401 a refused key). What it says of each
 * SIRET (SIREN) is set by the test; every request is counted, with the key it carried.
 */
export type SireneBehaviour =
  | 'active'
  | 'closed'
  | 'name_hidden'
  | 'address_hidden'
  | 'unknown'
  | 'non_diffusible'
  | 'http429'
  | 'http500'
  | 'malformed'
  | 'slow';

export interface SireneServer {
  url: string;
  apiKey: string;
  behaviour: Map<string, SireneBehaviour>;
  fallback: SireneBehaviour;
  requests: { siret: string; apiKey: string | undefined }[];
  countFor(siret: string): number;
  close(): Promise<void>;
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json;charset=utf-8' });
  response.end(typeof body === 'string' ? body : JSON.stringify(body));
}

const header = (statut: number, message: string) => ({ header: { statut, message } });

function establishment(siret: string, behaviour: SireneBehaviour) {
  return {
    ...header(200, 'OK'),
    etablissement: {
      siren: siret.slice(0, 9),
      nic: siret.slice(9),
      siret,
      statutDiffusionEtablissement: behaviour === 'address_hidden' ? 'P' : 'O',
      etablissementSiege: true,
      uniteLegale: {
        etatAdministratifUniteLegale: 'A',
        statutDiffusionUniteLegale: behaviour === 'name_hidden' ? 'P' : 'O',
        denominationUniteLegale: behaviour === 'name_hidden' ? null : 'BOULANGERIE DUPONT',
        categorieJuridiqueUniteLegale: '5710',
      },
      adresseEtablissement: { codePostalEtablissement: '75002', libelleCommuneEtablissement: 'PARIS 2' },
      periodesEtablissement: [
        { dateFin: null, dateDebut: '2020-01-01', etatAdministratifEtablissement: behaviour === 'closed' ? 'F' : 'A' },
        { dateFin: '2019-12-31', dateDebut: '2010-01-01', etatAdministratifEtablissement: 'A' },
      ],
    },
  };
}

function legalUnit(siren: string, behaviour: SireneBehaviour) {
  return {
    ...header(200, 'OK'),
    uniteLegale: {
      siren,
      statutDiffusionUniteLegale: behaviour === 'name_hidden' ? 'P' : 'O',
      periodesUniteLegale: [
        {
          dateFin: null,
          dateDebut: '2020-01-01',
          etatAdministratifUniteLegale: behaviour === 'closed' ? 'C' : 'A',
          denominationUniteLegale: behaviour === 'name_hidden' ? null : 'BOULANGERIE DUPONT',
        },
      ],
    },
  };
}

export async function startSireneServer(apiKey = 'sirene-test-key'): Promise<SireneServer> {
  const sockets = new Set<Socket>();
  const sirene: SireneServer = {
    url: '',
    apiKey,
    behaviour: new Map(),
    fallback: 'active',
    requests: [],
    countFor: (siret) => sirene.requests.filter((seen) => seen.siret === siret).length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const match = /^\/(siret\/\d{14}|siren\/\d{9})$/.exec(request.url ?? '');
    const key = request.headers['x-insee-api-key-integration'] as string | undefined;
    if (!match || request.method !== 'GET') return send(response, 400, header(400, 'Bad request'));
    const siret = match[1]!.split('/')[1]!;
    const answer = siret.length === 9 ? legalUnit : establishment;
    sirene.requests.push({ siret, apiKey: key });
    if (key !== sirene.apiKey) return send(response, 401, header(401, 'Invalid API key'));
    const behaviour = sirene.behaviour.get(siret) ?? sirene.fallback;
    switch (behaviour) {
      case 'unknown':
        return send(response, 404, header(404, `Aucun élément trouvé pour le siret ${siret}`));
      case 'non_diffusible':
        return send(response, 403, header(403, 'Établissement non diffusable'));
      case 'http429':
        return send(response, 429, header(429, 'Quota exceeded'));
      case 'http500':
        return send(response, 500, header(500, 'Erreur interne du serveur'));
      case 'malformed':
        return send(response, 200, '<html>maintenance</html>');
      case 'slow':
        return void setTimeout(() => send(response, 200, answer(siret, 'active')), 3000);
      default:
        return send(response, 200, answer(siret, behaviour));
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  sirene.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return sirene;
}
