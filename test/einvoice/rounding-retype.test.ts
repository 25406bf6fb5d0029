import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { retypeRounding, retypeXPath } from '../../src/einvoice/rounding-retype.js';
import { stylesheets } from '../../src/einvoice/standards.js';

/**
 * The saxon-js 2.7 compiler types `round()`, `abs()` and `round-half-to-even()` of a double wrongly
 * when a decimal is the other operand of an arithmetic operation; wrapping the call in `data()`
 * (the same value, the same type) works around it. These tests pin the rewrite and show it gives
 * what XPath says where the published text fails.
 */

const xslt3 = createRequire(import.meta.url).resolve('xslt3');
const run = promisify(execFile);

test('every rounding call in an expression is wrapped, literals and other names untouched', () => {
  assert.deepEqual(retypeXPath('xs:decimal(round(sum(a) * xs:decimal(100)) div xs:decimal(100))'), {
    text: 'xs:decimal(data(round(sum(a) * xs:decimal(100))) div xs:decimal(100))',
    calls: 1,
  });
  // Nested calls, each wrapped; the longest name first.
  assert.deepEqual(retypeXPath('abs(round-half-to-even(x, 2)) le 0.01'), {
    text: 'data(abs(data(round-half-to-even(x, 2)))) le 0.01',
    calls: 2,
  });
  // In a string literal (either quote), a prefixed name or a longer name: not a call of fn:round.
  const untouched = "'round(' = &quot;abs(x)&quot; or ram:abs(y) or myround(z) or abs = 1";
  assert.deepEqual(retypeXPath(untouched), { text: untouched, calls: 0 });
  assert.deepEqual(retypeXPath('round (a) + 1'), { text: 'data(round (a)) + 1', calls: 1 });
  // Unbalanced (no closing parenthesis): left as it is, the compiler will say why.
  assert.deepEqual(retypeXPath('round(a'), { text: 'round(a', calls: 0 });
});

test("only the XSLT's instructions are retyped, the SVRL's literal test attributes stay as published", () => {
  const xslt = [
    '<xsl:when test="abs(x) &gt; 1 or x > 2"/>',
    '<svrl:failed-assert test="abs(x) &gt; 1 or x > 2"/>',
    '<xsl:value-of select="round(y)" />',
    '<xsl:attribute name="round(z)"/>',
  ].join('\n');
  assert.deepEqual(retypeRounding(xslt), {
    text: [
      '<xsl:when test="data(abs(x)) &gt; 1 or x > 2"/>',
      '<svrl:failed-assert test="abs(x) &gt; 1 or x > 2"/>',
      '<xsl:value-of select="data(round(y))" />',
      '<xsl:attribute name="round(z)"/>',
    ].join('\n'),
    calls: 2,
  });
});

test('the Factur-X EXTENDED schematron: only data() added, around its rounding calls', async () => {
  const published = await readFile(stylesheets['FACTUR-X_EXTENDED'].xslt, 'utf8');
  const { text, calls } = retypeRounding(published);
  assert.equal(calls, 209);
  // Removing each data( that was added and its closing parenthesis gives the published text back.
  let restored = text;
  for (let at = restored.search(/data\((?=(?:round-half-to-even|round|abs)\s*\()/); at !== -1;) {
    let depth = 0;
    let close = at + 4;
    for (; close < restored.length; close += 1) {
      if (restored[close] === '(') depth += 1;
      else if (restored[close] === ')' && --depth === 0) break;
    }
    restored = restored.slice(0, at) + restored.slice(at + 5, close) + restored.slice(close + 1);
    at = restored.search(/data\((?=(?:round-half-to-even|round|abs)\s*\()/);
  }
  assert.equal(restored, published);
});

test('compiled by saxon-js: the published expressions fail, retyped they give what XPath says', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'rounding-retype-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  // Untyped amounts sum as doubles (95.004); the rounding calls of double, decimal and empty input.
  const cases: [string, string][] = [
    ['round(sum(//a) * xs:decimal(100)) div xs:decimal(100)', '95'],
    ['abs(-2.5e0) * 2.0', '5'],
    ['round-half-to-even(2.5e0) + 0.5', '2.5'],
    ['round(2.5) div 2.0', '1.5'],
    ['count(round(()))', '0'],
  ];
  const stylesheet = (expressions: string[]) =>
    [
      '<xsl:stylesheet version="2.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:xs="http://www.w3.org/2001/XMLSchema">',
      '<xsl:output method="text"/>',
      '<xsl:template match="/">',
      ...expressions.map((expression) => `<xsl:value-of select="${expression}"/><xsl:text>|</xsl:text>`),
      '</xsl:template>',
      '</xsl:stylesheet>',
    ].join('\n');
  await writeFile(join(dir, 'amounts.xml'), '<x><a>50.004</a><a>45</a></x>');
  const transform = async (file: string) =>
    (await run(process.execPath, [xslt3, `-xsl:${join(dir, file)}`, `-s:${join(dir, 'amounts.xml')}`])).stdout;

  await writeFile(join(dir, 'published.xsl'), stylesheet([cases[0]![0]]));
  await assert.rejects(transform('published.xsl'), /XPTY0004[\s\S]*first operand of 'arith' is xs:decimal/);

  const retyped = retypeRounding(stylesheet(cases.map(([expression]) => expression)));
  assert.equal(retyped.calls, 5);
  await writeFile(join(dir, 'retyped.xsl'), retyped.text);
  assert.equal(await transform('retyped.xsl'), `${cases.map(([, value]) => value).join('|')}|`);
});
