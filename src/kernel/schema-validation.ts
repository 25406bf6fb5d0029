import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { ApiError } from './errors.js';
import { compareIsoDates, earliestYear, isoDateProblem, latestYear, type IsoDateKind } from './iso-date.js';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as unknown as AddFormats;

/**
 * The date formats of every route, in one place: `date` (2026-09-01), `date-time` (with a time and
 * a zone) and `date-or-date-time` (either, for instants a client may give as a day). Each holds
 * only days that exist, in years 1900 to 9999 (a field may narrow that with `formatMinimum` /
 * `formatMaximum`): PostgreSQL cannot store year 0, and no invoice predates 1900.
 */
const dateFormats: IsoDateKind[] = ['date', 'date-time', 'date-or-date-time'];

/**
 * Bodies are validated strictly: no coercion ("5" is not 5) and no silent removal of unknown
 * fields. Query strings and path parameters are text by nature and are coerced to their types.
 * Numbers are finite: a body's `1e400` is refused as it is parsed (input-rules.ts) and by
 * `strictNumbers`; text coerced to a number is checked after coercion (`finiteNumbersOnly`).
 */
const common = { useDefaults: true, removeAdditional: false, allErrors: false, strict: false, verbose: true } as const;
const bodyAjv = withDateFormats(addFormats(new Ajv({ ...common, strictNumbers: true, coerceTypes: false })));
// Not `strictNumbers` here: with coercion, Ajv then lets "1e400" become Infinity unchecked.
const textAjv = withDateFormats(addFormats(new Ajv({ ...common, coerceTypes: 'array' })));

function withDateFormats(ajv: Ajv): Ajv {
  for (const kind of dateFormats) {
    ajv.addFormat(kind, {
      type: 'string',
      validate: (value: string) => isoDateProblem(value, kind) === null,
      compare: compareIsoDates,
    });
  }
  return ajv;
}

/** A validator of one part of a request: a JSON body strictly, text parts (query, path) coerced. */
export function compileSchema(schema: unknown, part: string | undefined): ValidateFunction {
  return part === 'body' ? bodyAjv.compile(schema as object) : finiteNumbersOnly(textAjv.compile(schema as object));
}

/**
 * A query or path validator that also refuses a number coerced from text to Infinity
 * (`?limit=1e400`, four hundred nines): a field without a maximum (a year in the path) would let
 * it through to PostgreSQL, which refuses it.
 */
function finiteNumbersOnly(validate: ValidateFunction): ValidateFunction {
  const checked = ((data: unknown) => {
    if (!validate(data)) {
      checked.errors = validate.errors;
      return false;
    }
    const name = Object.entries((data ?? {}) as Record<string, unknown>).find(([, value]) =>
      (Array.isArray(value) ? value : [value]).some((item) => typeof item === 'number' && !Number.isFinite(item)),
    )?.[0];
    checked.errors = name === undefined ? null : [nonFiniteError(name)];
    return name === undefined;
  }) as ValidateFunction;
  return checked;
}

function nonFiniteError(name: string): ErrorObject {
  const instancePath = `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
  return { keyword: 'type', instancePath, schemaPath: '#', params: { type: 'finite number' }, message: 'is infinite' };
}

/** `/address/postalCode` -> `address.postalCode`; `/lines/3` -> `lines[3]`. */
export function paramPath(pointer: string, extra?: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) parts.push(extra);
  return paramOf(parts);
}

/** `['lines', 3, 'vatRate']` -> `lines[3].vatRate`: the param of the contract for a path in a value. */
export function paramOf(parts: readonly (string | number)[]): string {
  return parts.reduce<string>(
    (path, part) =>
      typeof part === 'number' || /^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part,
    '',
  );
}

const rangeKeywords = new Set([
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'formatMinimum',
  'formatMaximum',
  'formatExclusiveMinimum',
  'formatExclusiveMaximum',
]);

/**
 * A date of the right shape that does not exist or falls outside the years served is a value
 * out of range (400 `invalid_field_value`, as the contract lists "date out of range"); a text that
 * is not a date at all is a bad format (422 `validation_error`).
 */
function dateOutOfRange(error: ErrorObject): string | null {
  if (error.keyword !== 'format') return null;
  const format = String((error.params as { format?: unknown }).format);
  if (!(dateFormats as string[]).includes(format) || typeof error.data !== 'string') return null;
  const problem = isoDateProblem(error.data, format as IsoDateKind);
  if (problem === 'calendar') return 'is not a day of the calendar';
  if (problem === 'range') return `must fall in the years ${earliestYear} to ${latestYear}`;
  return null;
}

/**
 * The contract's codes for a refused schema: a missing field is `missing_required_field`, an
 * unknown field, a wrong type or a value out of range is `invalid_field_value` (400); a value
 * outside an enum, a bad format or a length exceeded is `validation_error` (422).
 */
export function validationToApiError(errors: ErrorObject[], part: string): ApiError {
  // A union reports each branch's failure before its own: the union's error says more.
  const error = errors.find((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf') ?? errors[0];
  const where = part === 'querystring' ? 'query parameter' : part === 'params' ? 'path parameter' : 'field';
  if (!error) return new ApiError('invalid_field_value', { values: { detail: `The ${part} is invalid.` } });
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') {
    return new ApiError('missing_required_field', {
      param: paramPath(error.instancePath, String(params.missingProperty)),
    });
  }
  if (error.keyword === 'additionalProperties') {
    const param = paramPath(error.instancePath, String(params.additionalProperty));
    return new ApiError('invalid_field_value', { param, values: { detail: `Unknown ${where} \`${param}\`.` } });
  }
  const param = paramPath(error.instancePath) || undefined;
  const name = param ? `\`${param}\`` : `The ${part === 'body' ? 'request body' : part}`;
  // A nullable field given another type fails each branch on its type: still a wrong type.
  const branchTypes = errors
    .filter((e) => e !== error && e.instancePath === error.instancePath)
    .map((e) => (e.keyword === 'type' ? String((e.params as { type: string }).type) : null));
  const types =
    error.keyword === 'type'
      ? [String(params.type)]
      : branchTypes.length > 0 && branchTypes.every(Boolean)
        ? (branchTypes as string[])
        : null;
  if (types) {
    return new ApiError('invalid_field_value', {
      ...(param ? { param } : {}),
      values: { detail: `${name} must be ${types.map(article).join(' or ')}.` },
    });
  }
  const outOfRange = dateOutOfRange(error);
  if (outOfRange) {
    return new ApiError('invalid_field_value', {
      ...(param ? { param } : {}),
      values: { detail: `${name} ${outOfRange}.` },
    });
  }
  if (rangeKeywords.has(error.keyword)) {
    return new ApiError('invalid_field_value', {
      ...(param ? { param } : {}),
      values: { detail: `${name} ${error.message ?? 'is out of range'}.` },
    });
  }
  const choices = allowedValues(error);
  const detail = choices
    ? `${name} must be one of: ${choices.join(', ')}.`
    : `${name} ${error.message ?? 'is invalid'}.`;
  return new ApiError('validation_error', { ...(param ? { param } : {}), values: { detail } });
}

/** The allowed values of an enum, or of a union of constants. */
function allowedValues(error: ErrorObject): unknown[] | null {
  if (error.keyword === 'enum') return (error.params as { allowedValues: unknown[] }).allowedValues;
  if ((error.keyword === 'anyOf' || error.keyword === 'oneOf') && Array.isArray(error.schema)) {
    const branches = error.schema as { const?: unknown }[];
    if (branches.every((branch) => 'const' in branch)) return branches.map((branch) => branch.const);
  }
  return null;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
