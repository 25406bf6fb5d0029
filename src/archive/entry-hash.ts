import { createHash } from 'node:crypto';
import { canonicalJson } from '../kernel/canonical-json.js';

/**
 * The hash of an archive entry: SHA-256 (hex) of the canonical JSON of everything the entry
 * states, the previous entry's hash included, so changing any entry breaks its own hash and
 * every later link of the chain.
 */

export const genesisHash = '0'.repeat(64);

export interface EntryFacts {
  companyId: string;
  sequence: number;
  documentId: string;
  documentKind: string;
  documentNumber: string;
  fileHashes: Record<string, string>;
  /** Null in entries made before the rule set was recorded: then it is not hashed, so they still verify. */
  ruleSet: string | null;
  archivedAt: Date;
  previousHash: string;
}

export function entryHashOf(entry: EntryFacts): string {
  const text = canonicalJson({
    companyId: entry.companyId,
    sequence: entry.sequence,
    documentId: entry.documentId,
    documentKind: entry.documentKind,
    documentNumber: entry.documentNumber,
    fileHashes: entry.fileHashes,
    ...(entry.ruleSet === null ? {} : { ruleSet: entry.ruleSet }),
    archivedAt: entry.archivedAt.toISOString(),
    previousHash: entry.previousHash,
  });
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
