import { parseArgs, type ParseArgsConfig } from 'node:util';
import { refuse } from '../kernel/errors.js';

/** Parses `--name value` options strictly: an unknown option is an error, not a silent no-op. */
export function parseOptions<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw refuse('invalid_field_value', (error as Error).message);
  }
}

export function required(value: string | boolean | undefined, name: string): string {
  if (typeof value !== 'string' || value === '')
    throw refuse('missing_required_field', `--${name} is required.`, { param: name });
  return value;
}
