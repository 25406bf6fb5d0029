import { createHash } from 'node:crypto';
import { idPrefixes, newId, type IdKind } from '../kernel/ids.js';

/**
 * Ids of sandbox fixtures: the same after every reset of a company, so integrators can keep
 * them. They have the shape of every id (a prefix, 10 characters of time, 16 others): the time is
 * a fixed instant (the fixture's `created`), the rest is derived from the company, the kind and
 * the fixture's name.
 */
export const fixtureEpoch = Date.parse('2026-01-01T00:00:00.000Z');

const alphabet = '0123456789abcdefghjkmnpqrstvwxyz';

/** The `created` of the fixture at `position` (1, 2...; a higher position is listed first). */
export function fixtureCreated(position: number): Date {
  return new Date(fixtureEpoch + position);
}

export function fixtureId(kind: IdKind, companyId: string, name: string, position: number): string {
  const timePart = newId(kind, fixtureCreated(position)).slice(0, idPrefixes[kind].length + 10);
  const digest = createHash('sha256').update(`${companyId}:${kind}:${name}`).digest();
  let rest = '';
  for (let i = 0; i < 16; i++) rest += alphabet[digest[i]! & 31];
  return timePart + rest;
}
