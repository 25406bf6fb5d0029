import type { FastifySchemaCompiler } from 'fastify';
import { compileSchema } from '../kernel/schema-validation.js';

/** Fastify validates each part of a request with the API's schema rules (kernel/schema-validation.ts). */
export const compileValidator: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  compileSchema(schema, httpPart);
