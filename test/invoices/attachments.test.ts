import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Harness } from '../support/harness.js';
import { createFileWorker } from '../../src/invoices/generation.js';
import { plans } from '../../src/kernel/plans.js';
import { sha256Hex } from '../../src/archive/entry-hash.js';
import {
  attachmentBodyLimit,
  maxAttachmentBytes,
  maxAttachmentsPerDocument,
} from '../../src/invoices/attachment-rules.js';
import { testCacheDir } from '../einvoice/support.js';
import { advice, customer, decision, documentHarness, frenchBuyer, readyDraft, seller } from './support.js';

/**
 * Attachments (BG-24) of invoices and credit notes: uploaded on a draft in JSON (base64), checked
 * (type, bytes matching it, size, count, BR-FR-18), counted in the plan's storage, returned byte
 * for byte; frozen at finalization and carried by the files: base64 in the CII and the UBL,
 * embedded files of the Factur-X, all passing the official validators and identical when generated
 * again.
 */

const addressedBuyer = { ...frenchBuyer, electronicAddress: '732829320' };

// A one-pixel PNG, a minimal PDF, a timesheet in CSV.
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const pdf = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  'latin1',
);
const csv = Buffer.from('date;heures;intervenant\n2026-10-01;7;Léa\n2026-10-02;3,5;Léa\n', 'utf8');

const upload = (
  h: Harness,
  key: string,
  path: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) => h.call('POST', `${path}/attachments`, { key, body, headers });

const pngBody = { filename: 'photo.png', contentType: 'image/png', content: png.toString('base64') };

async function storedBytes(h: Harness, key: string): Promise<number> {
  const response = await h.call('GET', '/v1/subscription', { key });
  assert.equal(response.statusCode, 200, response.body);
  return response.data.usage.storageBytes;
}

function assertRefused(response: { statusCode: number; body: string; data: any }, code: string, param?: string) {
  assert.equal(response.data?.error?.code, code, response.body);
  if (param !== undefined) assert.equal(response.data.error.param, param, response.body);
}

/** The files the Factur-X embeds, by name: bytes and AFRelationship as a reader finds them. */
async function embeddedFiles(bytes: Buffer): Promise<Record<string, Buffer>> {
  const document = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false })
    .promise;
  const attachments = (await document.getAttachments()) as Record<string, { filename: string; content: Uint8Array }>;
  await document.destroy();
  return Object.fromEntries(Object.values(attachments).map((file) => [file.filename, Buffer.from(file.content)]));
}

test('attachments', async (t) => {
  const h = await documentHarness();
  t.after(() => h.close());
  const companyIds: string[] = [];
  const worker = createFileWorker(h.deps, { cacheDir: testCacheDir, validators: 1, companyIds });
  t.after(() => worker.stop());
  const drain = (companyId: string) => {
    if (!companyIds.includes(companyId)) companyIds.push(companyId);
    return worker.drain();
  };

  await t.test('upload, list, retrieve, download byte for byte, delete; counted in the storage', async () => {
    const { key } = await seller(h);
    const draft = await readyDraft(h, key);
    const path = `/v1/invoices/${draft.id}`;
    const before = await storedBytes(h, key);

    const created = await upload(h, key, path, {
      filename: 'Relevé d’heures octobre.csv',
      contentType: 'text/csv',
      content: csv.toString('base64'),
      description: 'Temps passé en octobre',
      code: 'DOCUMENT_ANNEXE',
    });
    assert.equal(created.statusCode, 201, created.body);
    const attachment = created.data;
    assert.match(attachment.id, /^att_/);
    assert.deepEqual(
      { ...attachment, id: undefined, created: undefined },
      {
        id: undefined,
        object: 'attachment',
        filename: 'Relevé d’heures octobre.csv',
        contentType: 'text/csv',
        size: csv.length,
        sha256: sha256Hex(csv),
        description: 'Temps passé en octobre',
        code: 'DOCUMENT_ANNEXE',
        created: undefined,
      },
    );
    const second = await upload(h, key, path, pngBody);
    assert.equal(second.statusCode, 201, second.body);
    assert.equal(second.data.code, 'PJA', 'the default code');
    assert.equal(second.data.description, null);
    assert.equal(await storedBytes(h, key), before + csv.length + png.length);

    const listed = await h.call('GET', `${path}/attachments`, { key });
    assert.equal(listed.statusCode, 200, listed.body);
    assert.deepEqual(listed.data, {
      object: 'list',
      data: [attachment, second.data],
      has_more: false,
      next_cursor: null,
      url: `${path}/attachments`,
    });
    assert.deepEqual((await h.call('GET', path, { key })).data.attachments, [attachment, second.data]);
    assert.deepEqual((await h.call('GET', `${path}/attachments/${attachment.id}`, { key })).data, attachment);

    const content = await h.call('GET', `${path}/attachments/${attachment.id}/content`, { key });
    assert.equal(content.statusCode, 200, content.body);
    assert.ok(content.rawPayload.equals(csv), 'the bytes as uploaded');
    assert.equal(content.headers['content-type'], 'text/csv');
    assert.equal(content.headers.etag, `"${sha256Hex(csv)}"`);
    assert.equal(
      content.headers['content-disposition'],
      `attachment; filename="Relev_ d_heures octobre.csv"; filename*=UTF-8''Relev%C3%A9%20d%E2%80%99heures%20octobre.csv`,
    );
    const image = await h.call('GET', `${path}/attachments/${second.data.id}/content`, { key });
    assert.ok(image.rawPayload.equals(png));
    assert.equal(image.headers['content-type'], 'image/png');
    const notModified = await h.call('GET', `${path}/attachments/${second.data.id}/content`, {
      key,
      headers: { 'if-none-match': `"${sha256Hex(png)}"` },
    });
    assert.equal(notModified.statusCode, 304);

    const deleted = await h.call('DELETE', `${path}/attachments/${second.data.id}`, { key });
    assert.equal(deleted.statusCode, 200, deleted.body);
    assert.deepEqual(deleted.data, { id: second.data.id, object: 'attachment', deleted: true });
    assert.equal(await storedBytes(h, key), before + csv.length, 'its storage released');
    assertRefused(await h.call('GET', `${path}/attachments/${second.data.id}`, { key }), 'not_found', 'attachmentId');
    assertRefused(
      await h.call('GET', `${path}/attachments/${second.data.id}/content`, { key }),
      'not_found',
      'attachmentId',
    );
    assert.deepEqual((await h.call('GET', path, { key })).data.attachments, [attachment]);
  });

  await t.test('an upload replayed with its Idempotency-Key stores one attachment', async () => {
    const { key } = await seller(h);
    const draft = await readyDraft(h, key);
    const path = `/v1/invoices/${draft.id}`;
    const headers = { 'idempotency-key': `attach-${draft.id}` };
    const first = await upload(h, key, path, pngBody, headers);
    const again = await upload(h, key, path, pngBody, headers);
    assert.equal(first.statusCode, 201, first.body);
    assert.deepEqual(again.data, first.data);
    assert.equal((await h.call('GET', `${path}/attachments`, { key })).data.data.length, 1);
  });

  await t.test('each refusal, with its code and param', async () => {
    const { key } = await seller(h);
    const draft = await readyDraft(h, key);
    const path = `/v1/invoices/${draft.id}`;
    const before = await storedBytes(h, key);

    assertRefused(await upload(h, key, path, { ...pngBody, content: 'not base64!' }), 'invalid_field_value', 'content');
    assertRefused(await upload(h, key, path, { ...pngBody, content: 'iVBORw0KGgo' }), 'invalid_field_value', 'content');
    assertRefused(await upload(h, key, path, { ...pngBody, content: '' }), 'invalid_field_value', 'content');
    assertRefused(
      await upload(h, key, path, { ...pngBody, contentType: 'application/zip' }),
      'invalid_field_value',
      'contentType',
    );
    assertRefused(
      await upload(h, key, path, { ...pngBody, contentType: 'application/pdf' }),
      'invalid_field_value',
      'content',
    );
    assertRefused(
      await upload(h, key, path, {
        filename: 'tableau.xlsx',
        contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        content: pdf.toString('base64'),
      }),
      'invalid_field_value',
      'content',
    );
    assertRefused(await upload(h, key, path, { ...pngBody, code: 'PHOTO' }), 'invalid_field_value', 'code');
    assertRefused(
      await upload(h, key, path, { ...pngBody, filename: '../photo.png' }),
      'invalid_field_value',
      'filename',
    );
    assertRefused(
      await upload(h, key, path, { ...pngBody, filename: 'factur-x.xml' }),
      'invalid_field_value',
      'filename',
    );
    assertRefused(await upload(h, key, path, { ...pngBody, url: 'https://example.com' }), 'invalid_field_value', 'url');

    // A body over the route's limit, in the contract's envelope.
    const tooBig = await upload(h, key, path, {
      ...pngBody,
      content: Buffer.alloc(attachmentBodyLimit, 0x41).toString('base64'),
    });
    assert.equal(tooBig.statusCode, 400, tooBig.body);
    assertRefused(tooBig, 'payload_too_large');

    // At most one LISIBLE (BR-FR-18), one name per document, ten attachments.
    const readable = { filename: 'facture.pdf', contentType: 'application/pdf', content: pdf.toString('base64') };
    assert.equal((await upload(h, key, path, { ...readable, code: 'LISIBLE' })).statusCode, 201);
    assertRefused(
      await upload(h, key, path, { ...readable, filename: 'autre.pdf', code: 'LISIBLE' }),
      'invalid_field_value',
      'code',
    );
    assertRefused(
      await upload(h, key, path, { ...pngBody, filename: 'FACTURE.pdf' }),
      'invalid_field_value',
      'filename',
    );
    for (let index = 1; index < maxAttachmentsPerDocument; index++)
      assert.equal((await upload(h, key, path, { ...pngBody, filename: `photo-${index}.png` })).statusCode, 201);
    assertRefused(
      await upload(h, key, path, { ...pngBody, filename: 'one-more.png' }),
      'invalid_field_value',
      'content',
    );
    assert.equal((await h.call('GET', `${path}/attachments`, { key })).data.data.length, maxAttachmentsPerDocument);
    assert.equal(
      await storedBytes(h, key),
      before + pdf.length + (maxAttachmentsPerDocument - 1) * png.length,
      'refused uploads store nothing',
    );

    // Another company's document, an unknown one: 404.
    const other = await seller(h);
    assertRefused(await upload(h, other.key, path, pngBody), 'not_found', 'id');
    assertRefused(await h.call('GET', `${path}/attachments`, { key: other.key }), 'not_found', 'id');
    const [first] = (await h.call('GET', `${path}/attachments`, { key })).data.data;
    assertRefused(
      await h.call('GET', `${path}/attachments/${first.id}/content`, { key: other.key }),
      'not_found',
      'id',
    );
    assertRefused(await h.call('DELETE', `${path}/attachments/${first.id}`, { key: other.key }), 'not_found', 'id');
    assertRefused(await upload(h, key, '/v1/invoices/inv_missing', pngBody), 'not_found', 'id');
    // An invoice's attachments are not a credit note's.
    assertRefused(await h.call('GET', `/v1/credit-notes/${draft.id}/attachments`, { key }), 'not_found', 'id');
  });

  await t.test('an attachment of exactly the size limit fits in the body limit', async () => {
    const { key } = await seller(h);
    const draft = await readyDraft(h, key);
    const path = `/v1/invoices/${draft.id}`;
    const largest = Buffer.concat([pdf, Buffer.alloc(maxAttachmentBytes - pdf.length, 0x20)]);
    const response = await upload(h, key, path, {
      filename: 'plans.pdf',
      contentType: 'application/pdf',
      content: largest.toString('base64'),
      description: 'x'.repeat(1000),
    });
    assert.equal(response.statusCode, 201, response.body);
    assert.equal(response.data.size, maxAttachmentBytes);
    const content = await h.call('GET', `${path}/attachments/${response.data.id}/content`, { key });
    assert.ok(content.rawPayload.equals(largest));
  });

  await t.test('past the storage quota, refused and nothing stored', async () => {
    const { companyId, key } = await seller(h);
    const draft = await readyDraft(h, key);
    const path = `/v1/invoices/${draft.id}`;
    const limit = plans.pro.storageBytes;
    await h.deps.pool.query(
      `insert into storage_usage (company_id, livemode, bytes) values ($1, false, $2)
       on conflict (company_id, livemode) do update set bytes = excluded.bytes`,
      [companyId, limit - png.length + 1],
    );
    const refused = await upload(h, key, path, pngBody);
    assert.equal(refused.statusCode, 402, refused.body);
    assertRefused(refused, 'storage_quota_exceeded');
    assert.deepEqual((await h.call('GET', `${path}/attachments`, { key })).data.data, []);
    assert.equal(await storedBytes(h, key), limit - png.length + 1);
    // One byte less and it fits, to the byte.
    await h.deps.pool.query(`update storage_usage set bytes = $2 where company_id = $1 and livemode = false`, [
      companyId,
      limit - png.length,
    ]);
    assert.equal((await upload(h, key, path, pngBody)).statusCode, 201);
    assert.equal(await storedBytes(h, key), limit);
  });

  await t.test(
    'frozen at finalization, carried by the CII, the UBL and the Factur-X, which pass the official validators and are generated again identical',
    async () => {
      const { companyId, key } = await seller(h);
      const customerId = await customer(h, key, addressedBuyer);
      const draft = await readyDraft(h, key, { customerId, lines: [advice] });
      const path = `/v1/invoices/${draft.id}`;
      const uploads = [
        { filename: 'facture-lisible.pdf', contentType: 'application/pdf', content: pdf, code: 'LISIBLE' },
        { filename: 'heures.csv', contentType: 'text/csv', content: csv, code: 'DOCUMENT_ANNEXE' },
        { filename: 'chantier.png', contentType: 'image/png', content: png, code: 'BON_LIVRAISON' },
      ];
      for (const { content, ...rest } of uploads) {
        const response = await upload(h, key, path, {
          ...rest,
          content: content.toString('base64'),
          description: `Pièce ${rest.filename}`,
        });
        assert.equal(response.statusCode, 201, response.body);
      }
      const [kept] = (await h.call('GET', `${path}/attachments`, { key })).data.data;
      const finalized = await h.call('POST', `${path}/finalize`, { key });
      assert.equal(finalized.statusCode, 200, finalized.body);
      assert.deepEqual(
        finalized.data.attachments.map((attachment: any) => attachment.filename),
        uploads.map((each) => each.filename),
      );

      // Frozen: neither added nor deleted once issued.
      assertRefused(await upload(h, key, path, pngBody), 'invoice_not_editable', 'id');
      assertRefused(await h.call('DELETE', `${path}/attachments/${kept.id}`, { key }), 'invoice_not_editable', 'id');

      // The worker stores files only once the official validators accepted the CII and the UBL.
      assert.equal(await drain(companyId), 1);
      const files = async () => {
        const out: Record<string, Buffer> = {};
        for (const kind of ['facturx', 'xml', 'ubl'] as const) {
          const response = await h.call('GET', `${path}/files/${kind}`, { key });
          assert.equal(response.statusCode, 200, response.body);
          out[kind] = response.rawPayload;
        }
        return out;
      };
      const issued = await files();
      const cii = issued.xml!.toString('utf8');
      // The CII carries the readable one whole and names the others (Factur-X 1.09.2: one 916
      // document with a name and bytes, CII-SR-475 and CII-SR-476).
      for (const { filename, contentType, content, code } of uploads)
        assert.ok(
          cii.includes(
            code === 'LISIBLE'
              ? `<ram:AdditionalReferencedDocument><ram:IssuerAssignedID>${filename}</ram:IssuerAssignedID><ram:TypeCode>916</ram:TypeCode><ram:Name>${code}</ram:Name><ram:AttachmentBinaryObject mimeCode="${contentType}" filename="${filename}">${content.toString('base64')}</ram:AttachmentBinaryObject></ram:AdditionalReferencedDocument>`
              : `<ram:AdditionalReferencedDocument><ram:IssuerAssignedID>${filename}</ram:IssuerAssignedID><ram:TypeCode>916</ram:TypeCode></ram:AdditionalReferencedDocument>`,
          ),
          `${filename} in the CII`,
        );
      assert.equal(cii.match(/<ram:AttachmentBinaryObject /g)?.length, 1);
      assert.match(cii, /<\/ram:BuyerTradeParty><ram:AdditionalReferencedDocument>/);
      const ubl = issued.ubl!.toString('utf8');
      for (const { filename, contentType, content, code } of uploads)
        assert.ok(
          ubl.includes(
            `<cac:AdditionalDocumentReference><cbc:ID>${filename}</cbc:ID><cbc:DocumentDescription>${code}</cbc:DocumentDescription><cac:Attachment><cbc:EmbeddedDocumentBinaryObject mimeCode="${contentType}" filename="${filename}">${content.toString('base64')}</cbc:EmbeddedDocumentBinaryObject></cac:Attachment></cac:AdditionalDocumentReference>`,
          ),
          `${filename} in the UBL`,
        );
      const embedded = await embeddedFiles(issued.facturx!);
      assert.deepEqual(Object.keys(embedded).sort(), ['factur-x.xml', ...uploads.map((each) => each.filename)].sort());
      for (const { filename, content } of uploads)
        assert.ok(embedded[filename]!.equals(content), `${filename} embedded`);
      assert.ok(embedded['factur-x.xml']!.equals(issued.xml!), 'the CII embedded is the CII file');
      const raw = issued.facturx!.toString('latin1');
      assert.equal(raw.match(/\/AFRelationship \/Supplement/g)?.length, uploads.length);
      assert.equal(raw.match(/\/AFRelationship \/Data/g)?.length, 1);

      // Generated again from the stored document: the same bytes.
      await h.deps.pool.query(
        `update document_files set state = 'pending', attempts = 0, files = null, facturx = null, xml = null, pdf = null, ubl = null,
           next_attempt_at = '2000-01-01' where company_id = $1 and document_id = $2`,
        [companyId, draft.id],
      );
      assert.equal(await drain(companyId), 1);
      const again = await files();
      for (const kind of ['facturx', 'xml', 'ubl'] as const) assert.ok(again[kind]!.equals(issued[kind]!), kind);
    },
  );

  await t.test('a credit note carries its attachments too (UBL CreditNote)', async () => {
    const { companyId, key } = await seller(h);
    const customerId = await customer(h, key, addressedBuyer);
    const invoice = await readyDraft(h, key, { customerId, lines: [advice] });
    assert.equal((await h.call('POST', `/v1/invoices/${invoice.id}/finalize`, { key })).statusCode, 200);
    const taken = await decision(h, key, { customerId }, [advice]);
    const note = await h.call('POST', '/v1/credit-notes', {
      key,
      body: { relatedInvoiceId: invoice.id, taxDecisionId: taken.id },
    });
    assert.equal(note.statusCode, 201, note.body);
    const path = `/v1/credit-notes/${note.data.id}`;
    const attached = await upload(h, key, path, { ...pngBody, code: 'BON_LIVRAISON' });
    assert.equal(attached.statusCode, 201, attached.body);
    assert.deepEqual((await h.call('GET', path, { key })).data.attachments, [attached.data]);
    const finalized = await h.call('POST', `${path}/finalize`, { key });
    assert.equal(finalized.statusCode, 200, finalized.body);
    assert.equal(await drain(companyId), 2);
    const ubl = await h.call('GET', `${path}/files/ubl`, { key });
    assert.equal(ubl.statusCode, 200, ubl.body);
    assert.match(
      ubl.body,
      /<\/cac:BillingReference><cac:AdditionalDocumentReference><cbc:ID>photo\.png<\/cbc:ID><cbc:DocumentDescription>BON_LIVRAISON</,
    );
    const facturx = await h.call('GET', `${path}/files/facturx`, { key });
    assert.ok((await embeddedFiles(facturx.rawPayload))['photo.png']!.equals(png));
    const content = await h.call('GET', `${path}/attachments/${attached.data.id}/content`, { key });
    assert.ok(content.rawPayload.equals(png), 'still downloadable once finalized');
  });
});
