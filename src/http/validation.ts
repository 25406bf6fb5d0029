import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { ApiError } from '../kernel/errors.js';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;

/**
 * Bodies are validated strictly: no coercion ("5" is not 5) and no silent removal of unknown
 * fields. Query strings and path parameters are text by nature and are coerced to their types.
 */
const common = { useDefaults: true, removeAdditional: false, allErrors: false, strict: false } as const;
const bodyAjv = addFormats(new Ajv({ ...common, coerceTypes: false }));
const textAjv = addFormats(new Ajv({ ...common, coerceTypes: 'array' }));

export const compileValidator: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object);

/** `/address/postalCode` -> `address.postalCode`; `/lines/3` -> `lines[3]`. */
export function paramPath(pointer: string, extra?: string): string {
  const parts = pointer.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) parts.push(extra);
  return parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

const rangeKeywords = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf']);

/**
 * The contract's codes for a refused schema: a missing field is `missing_required_field`, an
 * unknown field, a wrong type or a value out of range is `invalid_field_value` (400); a value
 * outside an enum, a bad format or a length exceeded is `validation_error` (422).
 */
export function validationToApiError(errors: ErrorObject[], part: string): ApiError {
  const error = errors[0];
  const where = part === 'querystring' ? 'query parameter' : part === 'params' ? 'path parameter' : 'field';
  if (!error) return new ApiError('invalid_field_value', { values: { detail: `The ${part} is invalid.` } });
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') {
    return new ApiError('missing_required_field', { param: paramPath(error.instancePath, String(params.missingProperty)) });
  }
  if (error.keyword === 'additionalProperties') {
    const param = paramPath(error.instancePath, String(params.additionalProperty));
    return new ApiError('invalid_field_value', { param, values: { detail: `Unknown ${where} \`${param}\`.` } });
  }
  const param = paramPath(error.instancePath) || undefined;
  const name = param ? `\`${param}\`` : `The ${part === 'body' ? 'request body' : part}`;
  if (error.keyword === 'type') {
    return new ApiError('invalid_field_value', { ...(param ? { param } : {}), values: { detail: `${name} must be ${article(String(params.type))}.` } });
  }
  if (rangeKeywords.has(error.keyword)) {
    return new ApiError('invalid_field_value', { ...(param ? { param } : {}), values: { detail: `${name} ${error.message ?? 'is out of range'}.` } });
  }
  const allowed = error.keyword === 'enum' ? ` (one of ${(params.allowedValues as unknown[]).join(', ')})` : '';
  return new ApiError('validation_error', { ...(param ? { param } : {}), values: { detail: `${name} ${error.message ?? 'is invalid'}${allowed}.` } });
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
