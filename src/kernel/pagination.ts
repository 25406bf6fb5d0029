import { Type, type TSchema } from 'typebox';
import { refuse } from './errors.js';

/** List pagination (contract): cursor-based, newest first, 25 by default, at most 100. */
export const defaultPageSize = 25;
export const maxPageSize = 100;

export const paginationQuery = {
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: maxPageSize,
      default: defaultPageSize,
      description: `Items per page, 1 to ${maxPageSize}.`,
    }),
  ),
  starting_after: Type.Optional(
    Type.String({ minLength: 1, maxLength: 255, description: 'Id of the last item of the previous page.' }),
  ),
};

export interface PageRequest {
  limit: number;
  startingAfter?: string | undefined;
}

export interface ListEnvelope<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
  url: string;
}

export function listEnvelopeSchema(item: TSchema) {
  return Type.Object({
    object: Type.Literal('list'),
    data: Type.Array(item),
    has_more: Type.Boolean(),
    next_cursor: Type.Union([Type.String(), Type.Null()], {
      description: 'Pass as `starting_after` for the next page; null on the last page.',
    }),
    url: Type.String(),
  });
}

/** Builds the envelope from a page fetched with one row more than asked (that row means has_more). */
export function toListEnvelope<Row, Item>(
  rows: Row[],
  page: PageRequest,
  url: string,
  idOf: (row: Row) => string,
  map: (row: Row) => Item,
): ListEnvelope<Item> {
  const hasMore = rows.length > page.limit;
  const kept = hasMore ? rows.slice(0, page.limit) : rows;
  const last = kept[kept.length - 1];
  return {
    object: 'list',
    data: kept.map(map),
    has_more: hasMore,
    next_cursor: hasMore && last ? idOf(last) : null,
    url,
  };
}

/** A cursor that does not exist, was deleted, or belongs elsewhere: never a silent first page. */
export function unknownCursor(id: string) {
  return refuse(
    'invalid_field_value',
    `starting_after "${id}" is not an item of this list (unknown, deleted, or of another resource); restart the traversal without a cursor.`,
    { param: 'starting_after' },
  );
}
