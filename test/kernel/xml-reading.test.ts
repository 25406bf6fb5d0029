import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  amountInCents,
  attributeOf,
  child,
  elements,
  text,
  textOf,
  XmlReadingError,
  xmlReader,
} from '../../src/kernel/xml-reading.js';

/**
 * The XML reading kit of the invoice and CDAR readers: elements by namespace URI and local name,
 * whatever the prefix; text and attributes; repeated elements as lists; a hostile or broken XML
 * refused with its kind; amounts of the file as cents.
 */

const doc = 'urn:example:document';
const part = 'urn:example:part';
const read = xmlReader({ namespaces: [doc, part], repeated: ['Line'] });

const invoice = (prefixes: { doc: string; part: string }) => {
  const d = prefixes.doc ? `${prefixes.doc}:` : '';
  const p = `${prefixes.part}:`;
  const declareDoc = prefixes.doc ? `xmlns:${prefixes.doc}="${doc}"` : `xmlns="${doc}"`;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>` +
    `<${d}Invoice ${declareDoc} xmlns:${prefixes.part}="${part}">` +
    `<${p}ID schemeID="0002">F-1</${p}ID>` +
    `<${p}Line><${p}Amount currencyID="EUR">10.00</${p}Amount></${p}Line>` +
    `</${d}Invoice>`
  );
};

test('elements are known by namespace URI, not by prefix: any prefix or a default namespace reads alike', () => {
  const usual = read(invoice({ doc: 'rsm', part: 'ram' }));
  assert.deepEqual(usual, {
    Invoice: {
      ID: { '#text': 'F-1', '@schemeID': '0002' },
      Line: [{ Amount: { '#text': '10.00', '@currencyID': 'EUR' } }],
    },
  });
  assert.deepEqual(read(invoice({ doc: 'x', part: 'y' })), usual, 'other prefixes');
  assert.deepEqual(read(invoice({ doc: '', part: 'ram' })), usual, 'a default namespace');
  // One namespace under two prefixes side by side: one list, as under one prefix.
  assert.deepEqual(
    read(`<Invoice xmlns="${doc}" xmlns:a="${part}" xmlns:b="${part}"><a:Line>1</a:Line><b:Line>2</b:Line></Invoice>`),
    { Invoice: { Line: ['1', '2'] } },
  );
});

test('an element of another namespace is not seen, whatever its prefix', () => {
  // The usual prefix bound to another URI, a declaration that rebinds it below, no namespace at all.
  const elsewhere = read(
    `<rsm:Invoice xmlns:rsm="${doc}" xmlns:ram="urn:example:other">` +
      `<ram:ID>wrong</ram:ID><ID>none</ID>` +
      `<Note xmlns="${part}">seen</Note>` +
      `<ram:Line xmlns:ram="${part}">rebound</ram:Line>` +
      `<ram:Total>wrong too</ram:Total>` +
      `</rsm:Invoice>`,
  );
  assert.deepEqual(elsewhere, { Invoice: { Note: 'seen', Line: ['rebound'] } });
  assert.deepEqual(read(`<Invoice><ID>F-1</ID></Invoice>`), {}, 'no namespace: no root');
  assert.deepEqual(read(`<Invoice xmlns="urn:example:other"><ID>F-1</ID></Invoice>`), {});
});

test('the text of an element: with or without attributes, empty, absent; through a path; of the first repeated', () => {
  const tree = read(
    `<Invoice xmlns="${doc}"><ID schemeID="0002"> F-1 </ID><Empty/><Flagged flag="1"/>` +
      `<Line>first</Line><Line>second</Line><Party><Name>Acme &amp; Co</Name><Note><![CDATA[a <b>]]></Note></Party></Invoice>`,
  );
  const root = child(tree, 'Invoice');
  assert.equal(text(root, 'ID'), 'F-1', 'trimmed, without its attribute');
  assert.equal(text(root, 'Empty'), '');
  assert.equal(text(root, 'Flagged'), '', 'an element of attributes only has empty text');
  assert.equal(text(root, 'Missing'), null);
  assert.equal(text(root, 'Missing', 'Deeper'), null);
  assert.equal(text(root, 'Party', 'Name'), 'Acme & Co', 'entities of XML itself are read');
  assert.equal(text(root, 'Party', 'Note'), 'a <b>', 'CDATA is text');
  assert.equal(text(root, 'Line'), 'first');
  assert.deepEqual(elements(child(root, 'Line')).map(textOf), ['first', 'second']);
  assert.equal(textOf(undefined), null);
  // Values stay the strings of the file: no number is parsed.
  assert.equal(text(read(`<Invoice xmlns="${doc}"><Rate>05.50</Rate></Invoice>`), 'Invoice', 'Rate'), '05.50');
});

test('attributes: by name without namespace, on the first repeated element; null when absent', () => {
  const root = child(
    read(
      `<Invoice xmlns="${doc}" xmlns:x="urn:example:other">` +
        `<Line unitCode="C62" x:unitCode="XXX">1</Line><Line unitCode="HUR">2</Line><ID>F-1</ID></Invoice>`,
    ),
    'Invoice',
  );
  assert.equal(attributeOf(child(root, 'Line'), 'unitCode'), 'C62', 'the first, and not the prefixed one');
  assert.deepEqual(
    elements(child(root, 'Line')).map((line) => attributeOf(line, 'unitCode')),
    ['C62', 'HUR'],
  );
  assert.equal(attributeOf(child(root, 'ID'), 'schemeID'), null);
  assert.equal(attributeOf(child(root, 'Missing'), 'schemeID'), null);
  assert.equal(attributeOf(child(root, 'Line'), 'xmlns'), null, 'declarations are not attributes');
});

test('a repeated element is a list even of one; another repeated twice is a list; absent is none', () => {
  const root = child(read(`<Invoice xmlns="${doc}"><Line>1</Line><ID>a</ID><ID>b</ID></Invoice>`), 'Invoice');
  assert.deepEqual(child(root, 'Line'), ['1']);
  assert.deepEqual(elements(child(root, 'ID')), ['a', 'b']);
  assert.deepEqual(elements(child(root, 'Missing')), []);
  assert.equal(text(root, 'ID'), 'a', 'a path goes through the first');
});

test('a DOCTYPE or a character XML forbids is refused before the parser, as hostile', () => {
  const body = invoice({ doc: 'rsm', part: 'ram' });
  const hostile = [
    body.replace('?>', '?><!DOCTYPE rsm:Invoice [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]>'),
    body.replace('?>', '?><!DOCTYPE rsm:Invoice SYSTEM "file:///etc/passwd">'),
    body.replace('F-1', 'F\u00001'),
  ];
  for (const xml of hostile)
    assert.throws(
      () => read(xml),
      (error: unknown) =>
        error instanceof XmlReadingError &&
        error.kind === 'hostile' &&
        /DOCTYPE \(entities or an external DTD\): refused, never expanded|characters XML forbids/.test(error.message),
    );
});

test('a broken XML is refused as malformed, with the parser saying why', () => {
  assert.throws(
    () => read('not xml <'),
    (error: unknown) =>
      error instanceof XmlReadingError &&
      error.kind === 'malformed' &&
      error.reason.length > 0 &&
      error.message === `not well-formed XML: ${error.reason}`,
  );
  assert.deepEqual(read(''), {}, 'nothing to read is no root, not an error');
});

test('amounts of the file become cents; rounding and what is not a number are said', () => {
  const warnings: string[] = [];
  assert.equal(amountInCents('2619.08', 'BT-115', warnings), 261908);
  assert.equal(amountInCents(' -5 ', 'BT-114', warnings), -500);
  assert.equal(amountInCents(null, 'BT-113', warnings), 0);
  assert.equal(amountInCents('  ', 'BT-113', warnings), 0);
  assert.deepEqual(warnings, []);
  assert.equal(amountInCents('2619.085', 'BT-115', warnings), 261909, 'half up');
  assert.equal(amountInCents('-0.005', 'BT-114', warnings), -1, 'half up on the magnitude');
  assert.equal(amountInCents('12,50', 'BT-106', warnings), 0);
  assert.deepEqual(warnings, [
    'BT-115: 2619.085 has more than 2 decimals; rounded to the cent',
    'BT-114: -0.005 has more than 2 decimals; rounded to the cent',
    'BT-106: "12,50" is not a number; read as 0',
  ]);
});
