import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  checkedAttachment,
  contentDisposition,
  decodeContent,
  matchesContentType,
  maxAttachmentBytes,
} from '../../src/invoices/attachment-rules.js';

/** The pure rules of attachments: base64, the signatures of each type, the download's file name. */

const zipHeader = Buffer.from([0x50, 0x4b, 0x03, 0x04, ...Array<number>(26).fill(0)]);
const ods = Buffer.concat([zipHeader, Buffer.from('mimetypeapplication/vnd.oasis.opendocument.spreadsheet')]);
const xlsx = Buffer.concat([zipHeader, Buffer.from('[Content_Types].xml')]);
const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]);

test('each type is recognised by its signature, and only its own', () => {
  assert.ok(matchesContentType('application/pdf', Buffer.from('%PDF-1.7\n')));
  assert.ok(!matchesContentType('application/pdf', Buffer.from(' %PDF-1.7\n')));
  assert.ok(matchesContentType('image/jpeg', jpeg));
  assert.ok(!matchesContentType('image/png', jpeg));
  assert.ok(matchesContentType('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', xlsx));
  assert.ok(matchesContentType('application/vnd.oasis.opendocument.spreadsheet', ods));
  // A zip is not an ODS without its mimetype entry first.
  assert.ok(!matchesContentType('application/vnd.oasis.opendocument.spreadsheet', xlsx));
  assert.ok(matchesContentType('text/csv', Buffer.from('a;b\n1;2\n')));
  assert.ok(!matchesContentType('text/csv', Buffer.from([0x61, 0x00, 0x62])));
});

test('content is strict base64, within the size', () => {
  assert.deepEqual(decodeContent('aGVsbG8='), Buffer.from('hello'));
  const code = (content: string) => {
    try {
      decodeContent(content);
    } catch (error: any) {
      return [error.code, error.param];
    }
    return null;
  };
  assert.deepEqual(code('aGVsbG8'), ['invalid_field_value', 'content'], 'unpadded');
  assert.deepEqual(code('aGVs\nbG8='), ['invalid_field_value', 'content'], 'a line break');
  assert.deepEqual(code('aGVsbG9='), ['invalid_field_value', 'content'], 'bits left in the padding');
  assert.deepEqual(code('aGVsbG8-'), ['invalid_field_value', 'content'], 'base64url');
  assert.deepEqual(code(Buffer.alloc(maxAttachmentBytes + 1).toString('base64')), ['payload_too_large', 'content']);
  assert.equal(decodeContent(Buffer.alloc(maxAttachmentBytes).toString('base64')).length, maxAttachmentBytes);
});

test('an upload is checked field by field, the code defaulting to PJA', () => {
  const checked = checkedAttachment({
    filename: ' plan.ods ',
    contentType: 'application/vnd.oasis.opendocument.spreadsheet',
    content: ods.toString('base64'),
  });
  assert.deepEqual(
    { ...checked, bytes: checked.bytes.length },
    {
      filename: 'plan.ods',
      contentType: 'application/vnd.oasis.opendocument.spreadsheet',
      code: 'PJA',
      description: null,
      bytes: ods.length,
    },
  );
  assert.throws(
    () => checkedAttachment({ filename: 'a"b.pdf', contentType: 'application/pdf', content: 'JVBERi0=' }),
    (error: any) => error.param === 'filename',
  );
});

test('the download names the file in ASCII and in UTF-8', () => {
  assert.equal(contentDisposition('plan.pdf'), `attachment; filename="plan.pdf"; filename*=UTF-8''plan.pdf`);
  assert.equal(
    contentDisposition("Relevé (d'heures).csv"),
    `attachment; filename="Relev_ (d'heures).csv"; filename*=UTF-8''Relev%C3%A9%20%28d%27heures%29.csv`,
  );
});
