import type { paths } from './openapi.js';

/** Typed views of the generated `paths`: an operation's body, query and answer. */
export type Method = 'get' | 'post' | 'delete';
export type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
export type PathOf<M extends Method> = {
  [P in keyof paths]: [NonNullable<paths[P][M]>] extends [never] ? never : P;
}[keyof paths];

export type BodyOf<O> = O extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : O extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B | undefined
    : undefined;
export type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? Q : never;
type JsonOf<R> = R extends { content: { 'application/json': infer A } }
  ? A
  : R extends { content?: never }
    ? void
    : unknown;
export type AnswerOf<O> = O extends { responses: infer R }
  ? 200 extends keyof R
    ? JsonOf<R[200]>
    : 201 extends keyof R
      ? JsonOf<R[201]>
      : 202 extends keyof R
        ? JsonOf<R[202]>
        : 204 extends keyof R
          ? void
          : unknown
  : unknown;

/** A list envelope of the contract: `object: "list"`, `data`, `has_more`, `next_cursor`, `url`. */
export interface ListPage<Item> {
  object: 'list';
  data: Item[];
  has_more: boolean;
  next_cursor: string | null;
  url: string;
}
export type ItemOf<A> = A extends { data: (infer Item)[] } ? Item : never;
