import { readFileSync } from 'node:fs';
import { writeCii } from '../../src/einvoice/cii-writer.js';
import { buildFacturX } from '../../src/einvoice/facturx.js';
import type { DocumentModel } from '../../src/einvoice/document-model.js';
import { sampleInvoice } from '../einvoice/support.js';
import type { Harness } from '../support/harness.js';

const examples = new URL('../einvoice/fixtures/examples/', import.meta.url);
const fixtures = new URL('./fixtures/', import.meta.url);

/** An official CII example (not French: the BR-FR rules fail it, so it is kept and flagged). */
export const ciiExample = () => readFileSync(new URL('CII_example1.xml', examples));
/** The Factur-X sample's EN 16931 XML. */
export const facturxExampleXml = () => readFileSync(new URL('factur-x-en16931.xml', examples));
export const ublExample = () => readFileSync(new URL('ubl-21-extended-ctc-fr.xml', fixtures));

/** The service's own Factur-X, made as its invoices are (the sample invoice of the document tests). */
export async function ownFacturX(overrides: Partial<DocumentModel> = {}): Promise<Buffer> {
  const model = sampleInvoice(overrides);
  return buildFacturX(model, writeCii(model), { creationDate: new Date('2026-11-24T10:00:00Z') });
}

/** Receives a file in the sandbox; returns the answer. */
export function receive(h: Harness, key: string, file: Buffer, flowId?: string) {
  return h.call('POST', '/v1/sandbox/received-invoices', {
    key,
    body: { file: file.toString('base64'), ...(flowId ? { flowId } : {}) },
  });
}
