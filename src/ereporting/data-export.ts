import type { DataExportSource } from '../exports/data-source.js';
import { toDeclaration } from './declaration-record.js';
import { declarationRowsAfter } from './store.js';

/** The company's e-reporting declarations, as the API shows them, for the data-protection export. */
export const ereportingDataExport: DataExportSource = {
  name: 'ereporting_declarations',
  async page(tx, scope, after, limit) {
    const rows = await declarationRowsAfter(tx, scope, after, limit);
    return rows.map((row) => ({ key: row.id, record: toDeclaration(row) }));
  },
};
