/**
 * `npm run docs:reference`: writes docs/reference from the OpenAPI document of this checkout's
 * service (src/cli/openapi-document.ts, as `npm run sdk:types` reads it) and the error catalogue;
 * a page the document no longer has is removed.
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { openApiDocumentOfCheckout } from '../cli/openapi-document.js';
import { referencePages, type OpenApiDocument } from './reference-pages.js';

const directory = fileURLToPath(new URL('../../docs/reference/', import.meta.url));
const pages = referencePages((await openApiDocumentOfCheckout()) as OpenApiDocument);
await mkdir(directory, { recursive: true });
for (const name of await readdir(directory)) if (name.endsWith('.md') && !pages.has(name)) await rm(directory + name);
for (const [name, text] of pages) await writeFile(directory + name, text);
process.stdout.write(`written: ${pages.size} pages in ${directory}\n`);
