import type { Capability } from '../capability.js';

/**
 * Documents: the e-invoice itself. The document model, the CII (Factur-X EN 16931), the PDF and
 * the Factur-X PDF/A-3b, the own conformance checks, the official validators run in worker
 * threads, and the CII reader.
 */
export const documentsCapability: Capability = {
  name: 'documents',
  published: [
    'document-model.ts',
    'cii-writer.ts',
    'cii-reader.ts',
    'draft-conformance.ts',
    'pdf-renderer.ts',
    'facturx.ts',
    'validation-pool.ts',
  ],
};
