import type { FastifyInstance, FastifyRequest } from 'fastify';
import { textProblem } from '../http/input-rules.js';
import { PageError } from './page-error.js';

/**
 * A submitted HTML form (`application/x-www-form-urlencoded`). Field names are looked up in a
 * Map, so no name (`__proto__`, `constructor`) can reach an object's prototype.
 */
export class Form {
  private readonly fields = new Map<string, string[]>();

  constructor(body: string) {
    for (const [name, value] of new URLSearchParams(body)) {
      const values = this.fields.get(name);
      if (values) values.push(value);
      else this.fields.set(name, [value]);
    }
  }

  /** The first value of the field, or undefined. */
  get(name: string): string | undefined {
    return this.fields.get(name)?.[0];
  }

  /** The field's value trimmed, undefined when absent or blank. */
  text(name: string): string | undefined {
    const value = this.get(name)?.trim();
    return value ? value : undefined;
  }

  /** Whether a name or value breaks the input rules (line breaks are allowed in values). */
  holdsForbiddenText(): boolean {
    for (const [name, values] of this.fields)
      if (textProblem(name, false) || values.some((value) => textProblem(value, true))) return true;
    return false;
  }

  /** Every value of a repeated field (checkboxes). */
  all(name: string): string[] {
    return this.fields.get(name) ?? [];
  }
}

const formBodyLimit = 64 * 1024;

export function installFormParser(app: FastifyInstance): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: formBodyLimit },
    (_request, body, done) => {
      const form = new Form(typeof body === 'string' ? body : body.toString('utf8'));
      // The input rule of the whole service: a NUL or control character would reach PostgreSQL.
      if (form.holdsForbiddenText())
        return done(new PageError(400, 'The form holds a control character, which no field accepts.'), undefined);
      done(null, form);
    },
  );
}

/** The request's form; an empty one when the body was not a form. */
export function formOf(request: FastifyRequest): Form {
  return request.body instanceof Form ? request.body : new Form('');
}
