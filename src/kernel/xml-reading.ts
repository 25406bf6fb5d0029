import Big from 'big.js';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { hostileXmlReason } from './hostile-xml.js';

/**
 * Reading an XML from outside (a received CII or UBL invoice, a platform's CDAR) as a tree of
 * plain values, for readers that take what the file says without judging it.
 *
 * An element is known by its namespace URI and its local name, never by its prefix: `rsm:`, `a:`
 * or a default namespace bound to the same URI read alike, and an element whose namespace is not
 * one of the format's is not seen at all. In the tree an element is keyed by its local name; it is
 * a string when it holds only text, an object otherwise (`#text`, `@attribute` without namespace,
 * child elements). Elements the format repeats are always lists, even of one.
 *
 * A hostile XML (a DOCTYPE, forbidden characters: kernel/hostile-xml.ts) is refused before the
 * parser sees it, and one that is not well-formed (a mismatched end tag...) is refused too: the
 * parser alone would read it as far as it could and keep what it read.
 */

/** What a format's reader reads. */
export interface XmlVocabulary {
  /** The namespace URIs of the format's elements. */
  namespaces: readonly string[];
  /** The local names of the elements that may repeat. */
  repeated: readonly string[];
}

/** The tree of a document: its root element, keyed by local name. */
export type XmlTree = Record<string, unknown>;

/** Why an XML is not read; each reader says it as its own error. */
export class XmlReadingError extends Error {
  constructor(
    /** `hostile`: refused before the parser; `malformed`: the parser failed. */
    readonly kind: 'hostile' | 'malformed',
    /** The hostile reason, or the parser's message. */
    readonly reason: string,
  ) {
    super(kind === 'malformed' ? `not well-formed XML: ${reason}` : reason);
  }
}

type Element = Record<string, unknown>;
/** Prefix (`''` for the default namespace) to namespace URI. */
type Scope = ReadonlyMap<string, string>;

const isElement = (value: unknown): value is Element =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const localName = (name: string) => name.slice(name.indexOf(':') + 1);

/** The scope inside `element`: the one around it with its own `xmlns` declarations. */
function scopeOf(element: unknown, around: Scope): Scope {
  if (!isElement(element)) return around;
  let scope: Map<string, string> | null = null;
  for (const [key, value] of Object.entries(element)) {
    if (key !== '@xmlns' && !key.startsWith('@xmlns:')) continue;
    scope ??= new Map(around);
    scope.set(key === '@xmlns' ? '' : key.slice('@xmlns:'.length), String(value));
  }
  return scope ?? around;
}

/**
 * The parser's element (its keys prefixed as written) keyed by local name, keeping only the
 * children in `namespaces`; the declarations, prefixed attributes and processing instructions go.
 * An element left with text alone is that text, and with nothing empty text, as if written so.
 */
function byNamespace(element: unknown, scope: Scope, namespaces: ReadonlySet<string>): unknown {
  if (!isElement(element)) return element;
  const kept: Element = {};
  for (const [key, value] of Object.entries(element)) {
    if (key === '#text') kept[key] = value;
    else if (key.startsWith('@')) {
      if (key !== '@xmlns' && !key.includes(':')) kept[key] = value;
    } else if (!key.startsWith('?')) keepChildren(kept, key, value, scope, namespaces);
  }
  const keys = Object.keys(kept);
  if (keys.length === 0) return '';
  return keys.length === 1 && keys[0] === '#text' ? kept['#text'] : kept;
}

/** Adds to `parent` the elements written `name` that are in `namespaces`, under their local name. */
function keepChildren(parent: Element, name: string, value: unknown, scope: Scope, namespaces: ReadonlySet<string>) {
  const colon = name.indexOf(':');
  const prefix = colon < 0 ? '' : name.slice(0, colon);
  const seen = (Array.isArray(value) ? value : [value]).flatMap((item) => {
    const inner = scopeOf(item, scope);
    return namespaces.has(inner.get(prefix) ?? '') ? [byNamespace(item, inner, namespaces)] : [];
  });
  if (seen.length === 0) return;
  const local = localName(name);
  const already = parent[local];
  // Two prefixes of one namespace side by side are one list, as one prefix would be.
  parent[local] = already !== undefined ? [...elements(already), ...seen] : Array.isArray(value) ? seen : seen[0];
}

/** A reader of the documents of one vocabulary: the XML text to its tree. Throws XmlReadingError. */
export function xmlReader(vocabulary: XmlVocabulary): (xml: string) => XmlTree {
  const namespaces: ReadonlySet<string> = new Set(vocabulary.namespaces);
  const repeated: ReadonlySet<string> = new Set(vocabulary.repeated);
  // Prefixes are kept for the namespaces to be resolved; values stay the strings of the file.
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    removeNSPrefix: false,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    isArray: (name) => repeated.has(localName(name)),
  });
  return (xml) => {
    const hostile = hostileXmlReason(xml);
    if (hostile !== null) throw new XmlReadingError('hostile', hostile);
    // The parser takes a mismatched end tag without a word: the validator checks the whole text
    // first (white space before the declaration, which the parser always took, is let pass).
    // An empty text has no root, which the readers say themselves: only a text is checked.
    const wellFormed = xml.trim() === '' ? true : XMLValidator.validate(xml.trimStart());
    if (wellFormed !== true)
      throw new XmlReadingError('malformed', `${wellFormed.err.msg} (line ${wellFormed.err.line})`);
    let parsed: unknown;
    try {
      parsed = parser.parse(xml);
    } catch (error) {
      throw new XmlReadingError('malformed', error instanceof Error ? error.message : String(error));
    }
    const tree = byNamespace(parsed, new Map(), namespaces);
    return isElement(tree) ? tree : {};
  };
}

/** What `path` (local names) leads to from `node`, the first of a repeated element at each step. */
export const child = (node: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>((value, key) => {
    const next = Array.isArray(value) ? value[0] : value;
    return next && typeof next === 'object' ? (next as Element)[key] : undefined;
  }, node);

/** Every element of a repeated (or single, or absent) value. */
export const elements = (value: unknown): unknown[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** The text of an element (the first, if repeated), with or without attributes; null when absent. */
export const textOf = (value: unknown): string | null => {
  const first = Array.isArray(value) ? value[0] : value;
  if (first === undefined || first === null) return null;
  if (typeof first === 'string') return first;
  if (typeof first === 'object' && '#text' in first) return String((first as Element)['#text']);
  if (typeof first === 'object') return '';
  return String(first);
};

/** The text at `path` from `node`, or null. */
export const text = (node: unknown, ...path: string[]): string | null => textOf(child(node, ...path));

/** An attribute (without namespace) of an element (the first, if repeated), or null. */
export const attributeOf = (value: unknown, name: string): string | null => {
  const first = Array.isArray(value) ? value[0] : value;
  return first && typeof first === 'object' && `@${name}` in first ? String((first as Element)[`@${name}`]) : null;
};

/**
 * An amount of the file as cents, `what` naming it in `warnings`: absent or blank is 0, what is
 * not a number is 0 and said, more than 2 decimals is rounded half-up to the cent and said.
 */
export function amountInCents(value: string | null, what: string, warnings: string[]): number {
  if (value === null || value.trim() === '') return 0;
  let amount: Big;
  try {
    amount = new Big(value.trim()).times(100);
  } catch {
    warnings.push(`${what}: "${value}" is not a number; read as 0`);
    return 0;
  }
  const rounded = amount.round(0, Big.roundHalfUp);
  if (!rounded.eq(amount)) warnings.push(`${what}: ${value} has more than 2 decimals; rounded to the cent`);
  return Number(rounded.toFixed(0));
}
