import { request } from 'undici';
import { describeNetworkFailure } from '../kernel/network-failure.js';

/**
 * INSEE's Sirene API 3.11 (`GET {base}/siret/{siret}` and `GET {base}/siren/{siren}`, header
 * `X-INSEE-Api-Key-Integration`): whether an establishment (a legal unit) exists, is closed
 * (`etatAdministratifEtablissement` `F`, `etatAdministratifUniteLegale` `C`, in the current
 * period), and what the registry keeps from publication ("diffusion partielle", `P`: the legal
 * unit's name, the establishment's address). A 403 is a unit kept from publication altogether. Anything else that is no clear answer (429, 5xx, a time-out, a malformed body, a
 * refused key) is `unavailable`: never "unknown".
 */

export type DirectoryAnswer =
  | {
      outcome: 'found';
      closed: boolean;
      nameHidden: boolean;
      addressHidden: boolean;
      legalName: string | null;
    }
  | { outcome: 'not_found' }
  | { outcome: 'unavailable'; failure: string };

export interface SireneClient {
  lookupSiret(siret: string): Promise<DirectoryAnswer>;
  lookupSiren(siren: string): Promise<DirectoryAnswer>;
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

/** The period in force: the one without an end date (Sirene lists the newest first). */
function currentPeriod(periods: unknown): Record<string, unknown> | null {
  if (!Array.isArray(periods) || periods.length === 0) return null;
  const open = periods.find(
    (period) => period && typeof period === 'object' && !(period as { dateFin?: unknown }).dateFin,
  );
  return (open ?? periods[0]) as Record<string, unknown>;
}

/** What a 200 of `/siret/{siret}` says, checked field by field. */
export function readSiretAnswer(body: string, asked: string): DirectoryAnswer {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return { outcome: 'unavailable', failure: 'malformed answer: not JSON' };
  }
  const establishment = parsed?.etablissement as Record<string, unknown> | undefined;
  if (!establishment || typeof establishment !== 'object' || establishment.siret !== asked)
    return { outcome: 'unavailable', failure: 'malformed answer: no `etablissement` for the SIRET asked' };
  const unit = (establishment.uniteLegale ?? {}) as Record<string, unknown>;
  const period = currentPeriod(establishment.periodesEtablissement);
  return {
    outcome: 'found',
    closed: period?.etatAdministratifEtablissement === 'F',
    nameHidden: unit.statutDiffusionUniteLegale === 'P',
    addressHidden: establishment.statutDiffusionEtablissement === 'P',
    legalName: text(unit.denominationUniteLegale),
  };
}

/** What a 200 of `/siren/{siren}` says: the legal unit, its name and state in the current period. */
export function readSirenAnswer(body: string, asked: string): DirectoryAnswer {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return { outcome: 'unavailable', failure: 'malformed answer: not JSON' };
  }
  const unit = parsed?.uniteLegale as Record<string, unknown> | undefined;
  if (!unit || typeof unit !== 'object' || unit.siren !== asked)
    return { outcome: 'unavailable', failure: 'malformed answer: no `uniteLegale` for the SIREN asked' };
  const period = currentPeriod(unit.periodesUniteLegale);
  return {
    outcome: 'found',
    closed: period?.etatAdministratifUniteLegale === 'C',
    nameHidden: unit.statutDiffusionUniteLegale === 'P',
    addressHidden: false,
    legalName: text(period?.denominationUniteLegale),
  };
}

/** Sirene's statuses (its documentation, "Codes retour"); `asked` is a SIRET (14 digits) or a SIREN. */
export function readSireneAnswer(status: number, body: string, asked: string): DirectoryAnswer {
  if (status === 200) return asked.length === 9 ? readSirenAnswer(body, asked) : readSiretAnswer(body, asked);
  if (status === 404) return { outcome: 'not_found' };
  // "Établissement non diffusable": it exists; nothing of it may be published.
  if (status === 403)
    return { outcome: 'found', closed: false, nameHidden: true, addressHidden: true, legalName: null };
  if (status === 401) return { outcome: 'unavailable', failure: 'HTTP 401: the Sirene API key was refused' };
  return { outcome: 'unavailable', failure: `HTTP ${status}` };
}

export function createSireneClient(options: { baseUrl: string; apiKey: string; timeoutMs: number }): SireneClient {
  async function get(resource: 'siret' | 'siren', identifier: string): Promise<DirectoryAnswer> {
    try {
      const response = await request(`${options.baseUrl}/${resource}/${encodeURIComponent(identifier)}`, {
        method: 'GET',
        headers: { accept: 'application/json', 'X-INSEE-Api-Key-Integration': options.apiKey },
        signal: AbortSignal.timeout(options.timeoutMs),
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
      return readSireneAnswer(response.statusCode, await response.body.text(), identifier);
    } catch (error) {
      return { outcome: 'unavailable', failure: describeNetworkFailure(error, options.timeoutMs) };
    }
  }
  return { lookupSiret: (siret) => get('siret', siret), lookupSiren: (siren) => get('siren', siren) };
}
