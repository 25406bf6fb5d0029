import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';

/**
 * What a capability gives the data-protection export: the rows it holds for a company, as the
 * records written to the archive (the API's resource when there is one, never a secret), one
 * page at a time in the order of `key` (an id), so that the export reads any amount with
 * constant memory and resumes after a crash from the last key it committed.
 */
export interface DataExportRecord {
  key: string;
  record: unknown;
}

export interface DataExportSource {
  /** The file's name in the archive, without `.jsonl`: `customers`. Unique across capabilities. */
  name: string;
  /**
   * At most `limit` records after `after` (null: from the first), in the scope's transaction;
   * `publicUrl` is the service's address, for the links a resource carries.
   */
  page(tx: Tx, scope: Scope, after: string | null, limit: number, publicUrl: string): Promise<DataExportRecord[]>;
}
