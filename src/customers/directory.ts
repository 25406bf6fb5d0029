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
 * Live: no directory connector is configured yet, so `directoryFor(true)` is null and a live
 * SIRET is checked for its check digits only; the platform's directory is consulted before any
 * deposit (`buyer_not_in_directory`).
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
  siret: string;
  nonDisclosed: NonDisclosableField[];
}

export interface CompanyDirectory {
  name: string;
  /** The entry of a SIRET (check digits already valid), or null when the directory does not know it. */
  lookup(siret: string): Promise<DirectoryEntry | null>;
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

/** The directory of an environment: the simulated one in test, none (not configured) in live. */
export function directoryFor(livemode: boolean): CompanyDirectory | null {
  return livemode ? null : sandboxDirectory;
}
