import { Type } from 'typebox';
import { refuse } from './errors.js';

/**
 * `metadata`: the client's free JSON object on documents and resources (contract, Conventions),
 * at most 50 keys of 40 characters and 8 KB of JSON, replaced whole on update (Stripe's rule).
 */
export const maxMetadataBytes = 8192;

export const metadataField = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  // Says the values are free JSON, so the generated SDK types accept `{ a: "b" }` (without it,
  // openapi-typescript types the object as `Record<string, never>`).
  additionalProperties: true,
  maxProperties: 50,
  propertyNames: { maxLength: 40 },
  description: 'Free JSON object (at most 50 keys of 40 characters, 8 KB), replaced whole on update.',
});

/** The size rule the schema cannot say; `param` names the field (`metadata`, `buyer.metadata`). */
export function checkMetadata(metadata: Record<string, unknown> | undefined, param = 'metadata'): void {
  if (metadata === undefined) return;
  if (Buffer.byteLength(JSON.stringify(metadata), 'utf8') > maxMetadataBytes) {
    throw refuse('validation_error', `\`${param}\` is at most ${maxMetadataBytes} bytes of JSON.`, { param });
  }
}
