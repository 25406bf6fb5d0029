/**
 * The connector's multipart body against WHATWG FormData (undici's): the same bytes but for the
 * boundary, and read back part by part by the standard parser.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FormData, Response } from 'undici';
import { multipartBody, type MultipartPart } from '../../src/platform/multipart-body.js';

const pdf = Buffer.concat([Buffer.from('%PDF-1.7\r\n'), Buffer.from([0, 255, 13, 10, 45, 45]), Buffer.from('\n%%EOF')]);
const parts: MultipartPart[] = [
  { name: 'flowInfo', content: JSON.stringify({ trackingId: 'é-1', name: 'F.pdf' }), contentType: 'application/json' },
  { name: 'file', content: pdf, contentType: 'application/pdf', filename: 'F2026-000001.pdf' },
];

/**
 * What undici's FormData sends for the same parts, with its boundary. Its parts are all files (a
 * Blob without a name is called "blob"); a part of ours without `filename` is a plain field.
 */
async function formDataBytes(list: readonly MultipartPart[]): Promise<{ boundary: string; body: Buffer }> {
  const form = new FormData();
  for (const part of list) {
    const blob = new Blob([part.content as string | Uint8Array<ArrayBuffer>], { type: part.contentType });
    form.set(part.name, blob, part.filename!);
  }
  const response = new Response(form);
  const boundary = /boundary=(.+)$/.exec(response.headers.get('content-type')!)![1]!;
  return { boundary, body: Buffer.from(await response.arrayBuffer()) };
}

const boundaryOf = (contentType: string) => /^multipart\/form-data; boundary=(.+)$/.exec(contentType)![1]!;

test('the body is FormData’s, byte for byte, but for the boundary', async () => {
  const files = parts.map((part) => ({ ...part, filename: part.filename ?? 'flow-info.json' }));
  const ours = multipartBody(files);
  const theirs = await formDataBytes(files);
  const boundary = boundaryOf(ours.contentType);
  assert.equal(
    ours.body.toString('latin1').replaceAll(boundary, 'B'),
    theirs.body.toString('latin1').replaceAll(theirs.boundary, 'B'),
  );
});

test('names and file names with quotes and line breaks are encoded as FormData encodes them', async () => {
  const odd: MultipartPart[] = [{ name: 'a"b\r\nc', content: 'x', contentType: 'text/plain', filename: 'f"\n\r.pdf' }];
  const ours = multipartBody(odd);
  const theirs = await formDataBytes(odd);
  assert.match(ours.body.toString('latin1'), /name="a%22b%0D%0Ac"; filename="f%22%0A%0D.pdf"/);
  assert.equal(
    ours.body.toString('latin1').replaceAll(boundaryOf(ours.contentType), 'B'),
    theirs.body.toString('latin1').replaceAll(theirs.boundary, 'B'),
  );
});

test('the standard parser reads every part back, the file unchanged', async () => {
  const ours = multipartBody(parts);
  const read = await new Response(ours.body, { headers: { 'content-type': ours.contentType } }).formData();
  // A part without a file name is a field: its text, as the simulator (and a platform) reads it.
  assert.deepEqual(JSON.parse(read.get('flowInfo') as string), { trackingId: 'é-1', name: 'F.pdf' });
  const file = read.get('file') as unknown as Blob & { name: string };
  assert.equal(file.name, 'F2026-000001.pdf');
  assert.equal(file.type, 'application/pdf');
  assert.deepEqual(Buffer.from(await file.arrayBuffer()), pdf);
});

test('each body has its own boundary, absent from its parts', () => {
  const first = boundaryOf(multipartBody(parts).contentType);
  const second = boundaryOf(multipartBody(parts).contentType);
  assert.notEqual(first, second);
  assert.ok(first.length >= 48);
});
