/**
 * The simulated directory (annuaire): directory lines, seeded, from which the legal units, the
 * facilities and the routing codes of the AFNOR Directory Service are derived.
 */

export interface DirectoryLineSeed {
  siren: string;
  siret?: string | null;
  routingIdentifier?: string | null;
  addressingSuffix?: string | null;
  /** The electronic address; default the SIREN, `_SIRET`, `_ROUTING` joined. */
  addressingIdentifier?: string;
  status?: 'Enabled' | 'Disabled' | 'Upcoming';
  platformType?: 'WK' | 'DFH';
  businessName?: string;
  /** Administrative status of the facility (A active, C closed). */
  facilityStatus?: 'A' | 'C';
}

export interface DirectoryLine {
  siren: string;
  siret: string | null;
  routingIdentifier: string | null;
  addressingSuffix: string | null;
  addressingIdentifier: string;
  status: 'Enabled' | 'Disabled' | 'Upcoming';
  platformType: 'WK' | 'DFH';
  businessName: string;
  facilityStatus: 'A' | 'C';
}

export function directoryLineOf(seed: DirectoryLineSeed): DirectoryLine {
  const siret = seed.siret ?? null;
  const routingIdentifier = seed.routingIdentifier ?? null;
  return {
    siren: seed.siren,
    siret,
    routingIdentifier,
    addressingSuffix: seed.addressingSuffix ?? null,
    addressingIdentifier:
      seed.addressingIdentifier ??
      [seed.siren, siret, routingIdentifier, seed.addressingSuffix].filter((part): part is string => !!part).join('_'),
    status: seed.status ?? 'Enabled',
    platformType: seed.platformType ?? 'WK',
    businessName: seed.businessName ?? `Entreprise ${seed.siren}`,
    facilityStatus: seed.facilityStatus ?? 'A',
  };
}

type Filter = { op?: string; value?: string } | undefined;

function matches(filter: Filter, value: string | null): boolean {
  if (!filter || filter.value === undefined) return true;
  if (value === null) return false;
  switch (filter.op) {
    case 'contains':
      return value.includes(filter.value);
    case 'startWith':
      return value.startsWith(filter.value);
    default:
      return value === filter.value;
  }
}

export class SimulatedDirectory {
  private lines: DirectoryLine[] = [];

  seed(seeds: readonly DirectoryLineSeed[]): void {
    for (const seed of seeds) {
      const line = directoryLineOf(seed);
      // The same address seeded again replaces the earlier line (a status change, for instance).
      this.lines = this.lines.filter((existing) => existing.addressingIdentifier !== line.addressingIdentifier);
      this.lines.push(line);
    }
  }

  clear(): void {
    this.lines = [];
  }

  all(): readonly DirectoryLine[] {
    return this.lines;
  }

  searchLines(filters: Record<string, Filter>): DirectoryLine[] {
    return this.lines.filter(
      (line) =>
        matches(filters.siren, line.siren) &&
        matches(filters.siret, line.siret) &&
        matches(filters.routingIdentifier, line.routingIdentifier) &&
        matches(filters.addressingIdentifier, line.addressingIdentifier) &&
        matches(filters.addressingSuffix, line.addressingSuffix),
    );
  }

  line(addressingIdentifier: string): DirectoryLine | null {
    return this.lines.find((line) => line.addressingIdentifier === addressingIdentifier) ?? null;
  }

  legalUnit(siren: string): { siren: string; businessName: string } | null {
    const line = this.lines.find((candidate) => candidate.siren === siren);
    return line ? { siren, businessName: line.businessName } : null;
  }

  legalUnits(filters: Record<string, Filter>): { siren: string; businessName: string }[] {
    const sirens = [...new Set(this.lines.map((line) => line.siren))];
    return sirens
      .map((siren) => this.legalUnit(siren)!)
      .filter((unit) => matches(filters.siren, unit.siren) && matches(filters.businessName, unit.businessName));
  }

  facility(siret: string): DirectoryLine | null {
    return this.lines.find((line) => line.siret === siret) ?? null;
  }

  facilities(filters: Record<string, Filter>): DirectoryLine[] {
    const seen = new Set<string>();
    return this.lines.filter((line) => {
      if (!line.siret || seen.has(line.siret)) return false;
      seen.add(line.siret);
      return matches(filters.siret, line.siret) && matches(filters.siren, line.siren);
    });
  }

  routingCodes(filters: Record<string, Filter>): DirectoryLine[] {
    return this.lines.filter(
      (line) =>
        line.routingIdentifier !== null &&
        matches(filters.siret, line.siret) &&
        matches(filters.routingIdentifier, line.routingIdentifier),
    );
  }
}
