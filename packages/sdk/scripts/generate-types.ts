/**
 * `npm run sdk:types`: writes packages/sdk/src/openapi.ts from the OpenAPI document of this
 * checkout's service (src/cli/openapi-document.ts: built in process, no server listening).
 */
import { writeFile } from 'node:fs/promises';
import { openApiDocumentOfCheckout } from '../../../src/cli/openapi-document.js';
import { typesFile, typesOfOpenApi } from './openapi-types.js';

await writeFile(typesFile, await typesOfOpenApi(await openApiDocumentOfCheckout()));
process.stdout.write(`written: ${typesFile.pathname}\n`);
