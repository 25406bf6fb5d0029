import { isUtf8 } from 'node:buffer';
import type { FastifyInstance } from 'fastify';
import { refuse } from '../kernel/errors.js';
import { bodyRefusal, findHostileValue } from './input-rules.js';

/**
 * JSON bodies: UTF-8 or refused (never silently repaired with U+FFFD), an empty body is no body
 * (action routes), prototype keys are refused, the value is an object, and it meets the input
 * rules (text, numbers, depth) before anything else reads it. The size limit applies before all
 * of this, as Fastify reads the body.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    if (!isUtf8(bytes)) return done(refuse('invalid_field_value', 'The request body is not valid UTF-8.'), undefined);
    const text = bytes.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    // V8's JSON.parse and secure-json-parse's prototype scan are iterative: any depth is safe here.
    parse(request, text, (error, value) => {
      if (error)
        return done(refuse('invalid_field_value', `The request body is not valid JSON: ${error.message}`), undefined);
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        return done(refuse('invalid_field_value', 'The request body must be a JSON object.'), undefined);
      }
      const spot = findHostileValue(value);
      if (spot) return done(bodyRefusal(spot), undefined);
      done(null, value);
    });
  });
}

/**
 * For the routes of a plugin whose JSON body is signed (a platform's callback, Stripe's events):
 * the body stays the raw bytes, since the signature covers them byte for byte; the route parses
 * it only once the signature is checked.
 */
export function keepRawJsonBody(app: FastifyInstance, bodyLimit = 1024 * 1024): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit }, (_request, body, done) =>
    done(null, body),
  );
}
