import type { Capability } from '../capability.js';

/**
 * E-invoice: the formats of the e-invoice itself (named apart from the invoices' "documents"). The
 * document model, the CII (Factur-X EN 16931) and the UBL 2.1, the PDF and the Factur-X PDF/A-3b, the own
 * conformance checks, the official validators run in worker threads, and the CII and UBL readers.
 */
export const einvoiceCapability: Capability = {
  name: 'einvoice',
  published: [
    'document-model.ts',
    'cii-writer.ts',
    'ubl-writer.ts',
    'cii-reader.ts',
    'ubl-reader.ts',
    'draft-conformance.ts',
    'pdf-renderer.ts',
    'facturx.ts',
    'validation-pool.ts',
  ],
};
