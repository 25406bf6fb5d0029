import type { Tx } from '../db/database.js';
import type { Scope } from '../db/scope.js';
import { findCompany, findIdentity } from './store.js';

/** What the data-protection export reads of this capability: the company itself, one record. */
export async function companyRecords(tx: Tx, scope: Scope, after: string | null) {
  if (after !== null) return [];
  const company = await findCompany(tx, scope.companyId);
  if (!company) return [];
  const { sandboxClockOffsetMs: _offset, ...fields } = company;
  // The legal identity is the company's too (shared by both environments).
  const { id: _id, name: _name, siren: _siren, ...identity } = (await findIdentity(tx, company.id))!;
  return [
    {
      key: company.id,
      record: { object: 'company', ...fields, ...identity, created: company.created.toISOString() },
    },
  ];
}
