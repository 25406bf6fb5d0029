import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';

export const typesFile = new URL('../src/openapi.ts', import.meta.url);

/**
 * The SDK's types from the service's OpenAPI document, by openapi-typescript. Deterministic:
 * the committed file is this function's output (formatted as `npm run format` would, so that it
 * leaves it as it is), and test/sdk/sdk.test.ts fails when they differ.
 */
export async function typesOfOpenApi(document: unknown): Promise<string> {
  const ast = await openapiTS(JSON.parse(JSON.stringify(document)), { alphabetize: true });
  const text = `// Generated from facteur's OpenAPI document by \`npm run sdk:types\`; do not edit.\n\n${astToString(ast)}`;
  const path = fileURLToPath(typesFile);
  return format(text, { ...(await resolveConfig(path)), filepath: path });
}
