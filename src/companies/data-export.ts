import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { findCompany } from './store.js';

/** What the data-protection export reads of this capability: the company itself, one record. */
export async function companyRecords(tx: Tx, scope: Scope, after: string | null) {
  if (after !== null) return [];
  const company = await findCompany(tx, scope.companyId);
  if (!company) return [];
  const { sandboxClockOffsetMs: _offset, ...fields } = company;
  return [{ key: company.id, record: { object: 'company', ...fields, created: company.created.toISOString() } }];
}
