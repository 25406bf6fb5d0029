import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CiiReadError, readCii } from '../../src/einvoice/cii-reader.js';
import { writeCii } from '../../src/einvoice/cii-writer.js';
import { readUbl, UblReadError } from '../../src/einvoice/ubl-reader.js';
import { buildCdarMessage, CdarParseError, parseCdarMessage } from '../../src/platform/cdar.js';
import { ublExample } from '../received/support.js';
import { sampleInvoice } from './support.js';

/**
 * The readers on the XML reading kit (kernel/xml-reading.ts): each knows every namespace of its
 * format (a document written with other prefixes reads to the same result, dates of `qdt:` and
 * `udt:` included), sees nothing of another namespace, and says a hostile or broken XML as its own
 * error.
 */

/** `xml` with each prefix of `renamed` written as its new name, declarations included. */
const withPrefixes = (xml: string, renamed: Record<string, string>) =>
  xml.replace(/(<\/?|xmlns:)([A-Za-z]+)(?=[:=])/g, (whole, lead: string, prefix: string) =>
    prefix in renamed ? `${lead}${renamed[prefix]}` : whole,
  );

const cii = writeCii(
  sampleInvoice({ typeCode: '381', precedingInvoice: { number: 'F2026-000001', issueDate: '2026-11-02' } }),
);
const ubl = ublExample().toString('utf8');
const cdar = buildCdarMessage({
  messageId: 'LC-1',
  issuedAt: new Date('2026-10-15T10:00:00Z'),
  status: '207',
  invoice: { number: 'F-1', issueDate: '2026-10-01', sellerSiren: '100000009' },
  issuer: { role: 'BY', siren: '200000008' },
  recipient: { siren: '100000009', electronicAddress: '100000009' },
  reason: { code: 'TX_TVA_ERR', text: 'Taux' },
  notes: ['vu'],
});

test('a document written with other prefixes reads to the same result', () => {
  const read = readCii(cii);
  assert.equal(read.precedingInvoice?.issueDate, '2026-11-02', 'a qdt: date');
  assert.deepEqual(readCii(withPrefixes(cii, { rsm: 'a', ram: 'b', qdt: 'c', udt: 'd' })), read);

  assert.ok(readUbl(ubl).totals.due > 0);
  assert.deepEqual(readUbl(withPrefixes(ubl, { cac: 'a', cbc: 'b' })), readUbl(ubl));

  const [status] = parseCdarMessage(cdar);
  assert.deepEqual(
    [status!.invoiceIssueDate, status!.issuedAt?.toISOString(), status!.reasons],
    ['2026-10-01', '2026-10-15T10:00:00.000Z', [{ code: 'TX_TVA_ERR', text: 'Taux' }]],
    'a qdt: and a udt: date',
  );
  assert.deepEqual(parseCdarMessage(withPrefixes(cdar, { rsm: 'a', ram: 'b', qdt: 'c', udt: 'd' })), [status]);
});

test('an element of another namespace is not read: the usual prefix bound elsewhere', () => {
  const elsewhere = (xml: string, uri: string) => xml.replace(uri, 'urn:example:not-the-format');
  const ram = 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100';
  const read = readCii(elsewhere(cii, ram));
  assert.deepEqual([read.number, read.seller.legalName, read.lines], ['', '', []]);
  assert.throws(
    () => readCii(elsewhere(cii, 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100')),
    (error: unknown) =>
      error instanceof CiiReadError && error.message === 'not a CII document: no CrossIndustryInvoice root',
  );
  assert.equal(
    readUbl(elsewhere(ubl, 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2')).number,
    '',
  );
  assert.throws(
    () => parseCdarMessage(elsewhere(cdar, ram)),
    (error: unknown) => error instanceof CdarParseError && error.message === 'the message carries no status (MDT-105)',
  );
});

test('a hostile or broken XML is each reader’s own error, as the kit says it', () => {
  const doctype = (xml: string) => xml.replace('?>', '?><!DOCTYPE x SYSTEM "file:///etc/passwd">');
  const refused = /^the XML declares a DOCTYPE \(entities or an external DTD\): refused, never expanded$/;
  assert.throws(
    () => readCii(doctype(cii)),
    (error: unknown) => error instanceof CiiReadError && refused.test(error.message),
  );
  assert.throws(
    () => readUbl(doctype(ubl)),
    (error: unknown) => error instanceof UblReadError && refused.test(error.message),
  );
  assert.throws(
    () => parseCdarMessage(doctype(cdar)),
    (error: unknown) => error instanceof CdarParseError && refused.test(error.message),
  );
  assert.throws(
    () => readCii('not xml <'),
    (error: unknown) => error instanceof CiiReadError && /^not well-formed XML: ./.test(error.message),
  );
  assert.throws(
    () => readUbl('not xml <'),
    (error: unknown) => error instanceof UblReadError && /^not well-formed XML: ./.test(error.message),
  );
  assert.throws(
    () => parseCdarMessage('not xml <'),
    (error: unknown) => error instanceof CdarParseError && /^not XML: ./.test(error.message),
  );
});
