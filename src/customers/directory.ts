import { isValidSiret } from '../identifiers/siren.js';

/**
 * The company directory that says whether a SIRET exists and what the registry keeps from
 * publication (a "diffusion partielle" marker on the name or the address).
 *
 * Sandbox: a simulated directory, deterministic so integrators can test every answer. It knows
 * every SIRET with valid check digits, except by the first three digits of the establishment
 * number (NIC, the last five digits):
 * - `999..`: unknown, `siret_not_found` (e.g. 73282932099902);
 * - `998..`: known, name non-disclosed (e.g. 73282932099803);
 * - `997..`: known, address non-disclosed (e.g. 73282932099704).
 *
 * Live: the Sirene API and the connected platform's Directory Service (src/directory/service.ts,
 * `companyDirectory`); the platform's directory is also consulted before any deposit
 * (`buyer_not_in_directory`).
 */

/** Fields of a customer that the registry may mark as non-disclosed. */
export const nonDisclosableFields = [
  'name',
  'address',
  'address.line1',
  'address.line2',
  'address.postalCode',
  'address.city',
] as const;
export type NonDisclosableField = (typeof nonDisclosableFields)[number];

export interface DirectoryEntry {
  /** The SIRET looked up (the SIREN, for `lookupSiren`). */
  siret: string;
  nonDisclosed: NonDisclosableField[];
  /** Live: `unverified` when no directory answered (the SIRET is accepted, checked again later). */
  verification?: 'verified' | 'unverified';
}

export interface CompanyDirectory {
  name: string;
  /** The entry of a SIRET (check digits already valid), or null when the directory does not know it. */
  lookup(siret: string): Promise<DirectoryEntry | null>;
  /** The entry of a legal unit (SIREN, check digit valid), for a customer without a SIRET; absent: not looked up. */
  lookupSiren?(siren: string): Promise<DirectoryEntry | null>;
}

export const sandboxUnknownNic = '999';
export const sandboxNameHiddenNic = '998';
export const sandboxAddressHiddenNic = '997';

/** The simulated directory's answer, as a pure function. */
export function sandboxDirectoryEntry(siret: string): DirectoryEntry | null {
  if (!isValidSiret(siret)) return null;
  const nic = siret.slice(9, 12);
  if (nic === sandboxUnknownNic) return null;
  if (nic === sandboxNameHiddenNic) return { siret, nonDisclosed: ['name'] };
  if (nic === sandboxAddressHiddenNic) return { siret, nonDisclosed: ['address'] };
  return { siret, nonDisclosed: [] };
}

export const sandboxDirectory: CompanyDirectory = {
  name: 'sandbox',
  lookup: async (siret) => sandboxDirectoryEntry(siret),
};
