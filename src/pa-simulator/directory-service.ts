import type { DirectoryLine, SimulatedDirectory } from './directory.js';
import { errorBody, type Operation, type Reply } from './server.js';

/**
 * The Directory Service (`/directory-service/v1/...`) over the simulated directory: the legal
 * units, facilities, routing codes and directory lines, searched or read one by one, in the
 * shapes of its OpenAPI document.
 */

type Filters = Record<string, { op?: string; value?: string }>;

const notFound: Reply = { status: 404, body: errorBody('MISSING_RESOURCE', 'Requested resource is Not Found') };

export class DirectoryService {
  constructor(private readonly directory: SimulatedDirectory) {}

  operation({ operationId, params, body: requestBody }: Operation): Reply {
    const body = requestBody as Record<string, unknown> | undefined;
    const filters = (body?.filters ?? {}) as Filters;
    const one = <T>(item: T | null | undefined, json: (item: T) => unknown): Reply =>
      item ? { status: 200, body: json(item) } : notFound;
    const search = (items: unknown[]): Reply => ({ status: 200, body: page(body, items) });
    switch (operationId) {
      case 'searchCompanyBySiren':
        return search(this.directory.legalUnits(filters).map((unit) => legalUnitJson(unit.siren, unit.businessName)));
      case 'getCompanyBySiren':
        return one(this.directory.legalUnit(params.siren ?? ''), (unit) =>
          legalUnitJson(unit.siren, unit.businessName),
        );
      case 'searchFacilityBySiret':
        return search(this.directory.facilities(filters).map(facilityJson));
      case 'getFacilityBySiret':
        return one(this.directory.facility(params.siret ?? ''), facilityJson);
      case 'searchRoutingCode':
        return search(this.directory.routingCodes(filters).map(routingCodeJson));
      case 'getRoutingCodeBySiretAndId': {
        const [line] = this.directory.routingCodes({
          siret: { value: params.siret ?? '' },
          routingIdentifier: { value: params['routing-identifier'] ?? '' },
        });
        return one(line, routingCodeJson);
      }
      case 'searchDirectoryLine':
        return search(this.directory.searchLines(filters).map((line) => directoryLineJson(line, false)));
      case 'getDirectoryLineById':
        return one(this.directory.line(params['addressing-identifier'] ?? ''), (line) => directoryLineJson(line, true));
      case 'getHealth':
        return { status: 200 };
      default:
        return notFound;
    }
  }
}

/** A search's answer: the search echoed, the total, the page `ignore` and `limit` ask for. */
function page(search: Record<string, unknown> | undefined, items: unknown[]) {
  const ignore = Number(search?.ignore ?? 0);
  const limit = search?.limit === undefined ? items.length : Number(search.limit);
  return { search: search ?? {}, totalNumberOfResults: items.length, results: items.slice(ignore, ignore + limit) };
}

function legalUnitJson(siren: string, businessName: string) {
  return { siren, businessName, entityType: 'PrivateVatRegistered', administrativeStatus: 'A' };
}

function facilityJson(line: DirectoryLine) {
  return {
    siret: line.siret!,
    siren: line.siren,
    name: line.businessName.slice(0, 100),
    facilityType: 'P',
    administrativeStatus: line.facilityStatus,
  };
}

function routingCodeJson(line: DirectoryLine) {
  return {
    routingIdentifier: line.routingIdentifier!,
    siret: line.siret ?? undefined,
    routingIdentifierType: '0224',
    routingCodeName: line.routingIdentifier!,
    administrativeStatus: 'A',
  };
}

function directoryLineJson(line: DirectoryLine, single: boolean) {
  return {
    addressingIdentifier: line.addressingIdentifier,
    platformType: line.platformType,
    // The single-line answer knows only Enabled and Disabled.
    directoryLineStatus: single && line.status === 'Upcoming' ? 'Disabled' : line.status,
    siren: line.siren,
    ...(line.siret ? { siret: line.siret } : {}),
    ...(line.routingIdentifier ? { routingIdentifier: line.routingIdentifier } : {}),
    ...(line.addressingSuffix ? { addressingSuffix: line.addressingSuffix } : {}),
  };
}
