import type { Executor } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { entryHashOf, genesisHash } from './entry-hash.js';
import { entriesBetween, entryOfDocument, insertEntry, lastEntry, lockChain, type ArchiveEntryRow } from './store.js';

/**
 * The legal archive: live finalized documents and their files' hashes, appended to the company's
 * hash chain once the files are stored (in the same transaction), and verified on demand.
 */

export interface ArchivedDocument {
  documentId: string;
  documentKind: string;
  documentNumber: string;
  /** SHA-256 (hex) of each stored file, by kind. */
  fileHashes: Record<string, string>;
  /** The rule set (FNFE-MPE version) that validated the files. */
  ruleSet: string;
}

export interface ArchiveEntry {
  sequence: number;
  documentId: string;
  documentKind: string;
  documentNumber: string;
  fileHashes: Record<string, string>;
  /** The rule set that validated the files; null in an entry made before it was recorded. */
  ruleSet: string | null;
  archivedAt: string;
  previousHash: string;
  entryHash: string;
}

const toEntry = (row: ArchiveEntryRow): ArchiveEntry => ({
  sequence: row.sequence,
  documentId: row.documentId,
  documentKind: row.documentKind,
  documentNumber: row.documentNumber,
  fileHashes: row.fileHashes,
  ruleSet: row.ruleSet,
  archivedAt: row.archivedAt.toISOString(),
  previousHash: row.previousHash,
  entryHash: row.entryHash,
});

/**
 * Appends the document to its company's chain, in the caller's transaction (the one that stores
 * its files). The chain is locked until the commit, so entries link in order. A document already
 * archived keeps its entry.
 */
export async function appendEntry(
  tx: Executor,
  scope: Scope,
  document: ArchivedDocument,
  now: Date,
): Promise<ArchiveEntry> {
  if (!scope.livemode) throw new Error('test documents never enter the legal archive');
  await lockChain(tx, scope);
  const existing = await entryOfDocument(tx, scope, document.documentId);
  if (existing) return toEntry(existing);
  const last = await lastEntry(tx, scope);
  const facts = {
    companyId: scope.companyId,
    sequence: (last?.sequence ?? 0) + 1,
    ...document,
    archivedAt: now,
    previousHash: last?.entryHash ?? genesisHash,
  };
  const row: ArchiveEntryRow = { ...facts, livemode: true, entryHash: entryHashOf(facts) };
  await insertEntry(tx, row);
  return toEntry(row);
}

export interface VerificationCheck {
  /** `entry` (the document has its entry), `entry_hash`, `chain`, `files`. */
  check: 'entry' | 'entry_hash' | 'chain' | 'files';
  ok: boolean;
  detail: string;
}

export interface ChainVerification {
  intact: boolean;
  checks: VerificationCheck[];
  entry: ArchiveEntry | null;
}

const chainPage = 1000;

/**
 * Recomputes the document's entry, the chain from its first entry up to it (every hash, every
 * link, no sequence missing), and compares the files' hashes computed now from the stored bytes
 * (`storedFileHashes`) with those the entry recorded.
 */
export async function verifyDocument(
  db: Executor,
  scope: Scope,
  documentId: string,
  storedFileHashes: Record<string, string>,
): Promise<ChainVerification> {
  const row = await entryOfDocument(db, scope, documentId);
  if (!row)
    return {
      intact: false,
      checks: [
        {
          check: 'entry',
          ok: false,
          detail: `The archive holds no entry for ${documentId}, whose files are stored: the entry was removed.`,
        },
      ],
      entry: null,
    };
  const checks: VerificationCheck[] = [
    { check: 'entry', ok: true, detail: `Entry ${row.sequence} of the chain names ${documentId}.` },
  ];

  const recomputed = entryHashOf(row);
  checks.push(
    recomputed === row.entryHash
      ? { check: 'entry_hash', ok: true, detail: 'The entry hashes to its recorded hash.' }
      : {
          check: 'entry_hash',
          ok: false,
          detail: `The entry hashes to ${recomputed}, not its recorded ${row.entryHash}: it was edited.`,
        },
  );

  checks.push(await verifyChain(db, scope, row.sequence));

  const problems: string[] = [];
  const kinds = new Set([...Object.keys(row.fileHashes), ...Object.keys(storedFileHashes)]);
  for (const kind of [...kinds].sort()) {
    const recorded = row.fileHashes[kind];
    const stored = storedFileHashes[kind];
    if (recorded === undefined) problems.push(`${kind}: stored but not in the entry`);
    else if (stored === undefined) problems.push(`${kind}: in the entry but no longer stored`);
    else if (recorded !== stored)
      problems.push(`${kind}: the stored bytes hash to ${stored}, the entry says ${recorded}`);
  }
  checks.push(
    problems.length === 0
      ? { check: 'files', ok: true, detail: `The stored files hash as archived (${[...kinds].sort().join(', ')}).` }
      : { check: 'files', ok: false, detail: `Stored files differ from the archive: ${problems.join('; ')}.` },
  );
  return { intact: checks.every((check) => check.ok), checks, entry: toEntry(row) };
}

/** The chain from its first entry to `upTo`: each entry's hash, each link, no gap. */
async function verifyChain(db: Executor, scope: Scope, upTo: number): Promise<VerificationCheck> {
  let expectedSequence = 1;
  let previousHash = genesisHash;
  for (;;) {
    const page = await entriesBetween(db, scope, expectedSequence - 1, upTo, chainPage);
    if (page.length === 0) break;
    for (const entry of page) {
      if (entry.sequence !== expectedSequence)
        return {
          check: 'chain',
          ok: false,
          detail: `Entry ${expectedSequence} is missing from the chain (the next one is ${entry.sequence}): an entry was removed.`,
        };
      if (entry.previousHash !== previousHash)
        return {
          check: 'chain',
          ok: false,
          detail: `Entry ${entry.sequence} links to ${entry.previousHash}, but the entry before it hashes to ${previousHash}.`,
        };
      const recomputed = entryHashOf(entry);
      if (recomputed !== entry.entryHash)
        return {
          check: 'chain',
          ok: false,
          detail: `Entry ${entry.sequence} hashes to ${recomputed}, not its recorded ${entry.entryHash}: it was edited.`,
        };
      previousHash = entry.entryHash;
      expectedSequence++;
    }
  }
  if (expectedSequence !== upTo + 1)
    return {
      check: 'chain',
      ok: false,
      detail: `The chain stops at entry ${expectedSequence - 1} before entry ${upTo}: entries were removed.`,
    };
  return { check: 'chain', ok: true, detail: `Entries 1 to ${upTo} link and hash as recorded.` };
}
