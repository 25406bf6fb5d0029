/** The part of saxon-js 2.7 the validators use (the package ships no types). */
declare module 'saxon-js' {
  /** A node of saxon-js's own DOM (a parsed source or a code list). */
  export interface SaxonNode {
    readonly nodeType: number;
  }
  /** A node of a result delivered raw (saxon-js's DOM-like tree): what the SVRL walk reads. */
  export interface SvrlElement {
    readonly nodeType: number;
    readonly localName: string | null;
    readonly namespaceURI: string | null;
    readonly firstChild: SvrlElement | null;
    readonly nextSibling: SvrlElement | null;
    readonly textContent: string | null;
    readonly attributes: { getNamedItem(name: string): { value: string } | null };
  }
  export interface TransformOptions {
    stylesheetInternal?: unknown;
    stylesheetFileName?: string;
    stylesheetBaseURI?: string;
    sourceText?: string;
    sourceNode?: SaxonNode;
    /** The initial match selection: the stylesheet's templates applied to each item in turn. */
    initialSelection?: SaxonNode[];
    /** `array`: the principal result is always an array of its items. */
    resultForm?: 'array' | 'default' | 'iterator' | 'xdm';
    destination?: 'serialized' | 'raw' | 'document' | 'application';
    /** Documents `doc()` and `document()` read from memory, by absolute URI. */
    documentPool?: Record<string, SaxonNode>;
  }
  export interface TransformResult {
    principalResult: unknown;
  }
  export function transform(options: TransformOptions): TransformResult;
  export function transform(options: TransformOptions, mode: 'async'): Promise<TransformResult>;
  export function getResource(options: {
    text?: string;
    file?: string;
    type: 'xml' | 'json' | 'text';
  }): Promise<SaxonNode>;
  const SaxonJS: {
    transform: typeof transform;
    getResource: typeof getResource;
  };
  export default SaxonJS;
}
