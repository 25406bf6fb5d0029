/**
 * What an XML from outside (a received invoice, a platform's life-cycle message) never needs and a
 * hostile one uses: a DOCTYPE declares entities (the "billion laughs") or an external DTD (a file
 * or URL the parser would fetch). None is ever expanded or fetched: the text is refused before any
 * parser sees it. Characters XML 1.0 forbids (NUL...) are refused too: no parser would take them,
 * and PostgreSQL's JSON cannot hold NUL.
 *
 * Answers why the XML is refused, or null when nothing hostile is found; the caller throws its own error.
 */
export function hostileXmlReason(xml: string): string | null {
  if (/<!(DOCTYPE|ENTITY)/i.test(xml))
    return 'the XML declares a DOCTYPE (entities or an external DTD): refused, never expanded';
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/.test(xml))
    return 'the XML carries characters XML forbids (NUL, control characters)';
  return null;
}
