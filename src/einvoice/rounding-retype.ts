/**
 * A workaround for a type error of the saxon-js 2.7 compiler (xslt3): an arithmetic operation
 * with a decimal operand on the result of `round()`, `abs()` or `round-half-to-even()` of a double
 * is compiled as a decimal operation, and fails at run time (`XPTY0004 Required item type of first
 * operand of 'arith' is xs:decimal; supplied value is xs:double`). The official Factur-X EXTENDED
 * schematron writes `round(sum(amounts) * xs:decimal(100)) div xs:decimal(100)` over untyped
 * amounts (doubles, as XPath wants), so every invoice failed it.
 *
 * `data()` of an atomic value is that value, of the same type, and of an empty sequence is the
 * empty sequence: `data(round(x))` is `round(x)` for every x, and hides from the compiler the type
 * it got wrong. Only the XPath of the XSLT's own instructions (`test` and `select` of `xsl:`
 * elements) is touched; the SVRL's literal `test` attributes stay as published.
 */

/** Bumped when the rewrite changes: the compiled cache keys carry it. */
export const roundingRetypeVersion = 1;

const wrappedFunctions = ['round-half-to-even', 'round', 'abs'];
const nameCharacter = /[\w.:-]/;

/** The index just past the string literal that starts at `start` (`'…'` or `&quot;…&quot;`). */
function literalEnd(xpath: string, start: number): number {
  const quote = xpath.startsWith('&quot;', start) ? '&quot;' : "'";
  const end = xpath.indexOf(quote, start + quote.length);
  return end === -1 ? xpath.length : end + quote.length;
}

const literalAt = (xpath: string, index: number) => xpath[index] === "'" || xpath.startsWith('&quot;', index);

/** The index of the `)` closing the `(` at `open`, string literals skipped; -1 when unbalanced. */
function closingParenthesis(xpath: string, open: number): number {
  let depth = 0;
  for (let index = open; index < xpath.length;) {
    if (literalAt(xpath, index)) {
      index = literalEnd(xpath, index);
      continue;
    }
    if (xpath[index] === '(') depth += 1;
    else if (xpath[index] === ')' && --depth === 0) return index;
    index += 1;
  }
  return -1;
}

/** `xpath` with every call of the functions above wrapped in `data()`, and how many were. */
export function retypeXPath(xpath: string): { text: string; calls: number } {
  let text = '';
  let calls = 0;
  for (let index = 0; index < xpath.length;) {
    if (literalAt(xpath, index)) {
      const end = literalEnd(xpath, index);
      text += xpath.slice(index, end);
      index = end;
      continue;
    }
    const name = nameCharacter.test(xpath[index - 1] ?? ' ')
      ? undefined
      : wrappedFunctions.find((candidate) => new RegExp(`^${candidate}\\s*\\(`).test(xpath.slice(index)));
    const open = name === undefined ? -1 : xpath.indexOf('(', index);
    const close = open === -1 ? -1 : closingParenthesis(xpath, open);
    if (close === -1) {
      text += xpath[index];
      index += 1;
      continue;
    }
    const inner = retypeXPath(xpath.slice(open + 1, close));
    text += `data(${xpath.slice(index, open + 1)}${inner.text}))`;
    calls += 1 + inner.calls;
    index = close + 1;
  }
  return { text, calls };
}

// A start tag of an XSLT instruction; its attribute values may hold `>`.
const instruction = /<xsl:[\w-]+(?:\s+[\w:-]+\s*=\s*(?:"[^"]*"|'[^']*'))*\s*\/?>/g;
const expressionAttribute = /(\s(?:test|select)\s*=\s*")([^"]*)"/g;

/** The XSLT with the calls above wrapped in `data()` in its instructions' XPath, and how many were. */
export function retypeRounding(xslt: string): { text: string; calls: number } {
  let calls = 0;
  const text = xslt.replace(instruction, (tag) =>
    tag.replace(expressionAttribute, (_whole, prefix: string, xpath: string) => {
      const retyped = retypeXPath(xpath);
      calls += retyped.calls;
      return `${prefix}${retyped.text}"`;
    }),
  );
  return { text, calls };
}
