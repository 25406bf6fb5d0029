import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';

/**
 * The API reference at `/docs`: Swagger UI (swagger-ui-dist, from npm, served from this
 * installation: no CDN) rendering `/v1/openapi.json`, with every operation's answers, errors and
 * generated examples. The page runs no inline script (its start is `reference.js`), so its CSP
 * allows scripts from this origin only; Swagger UI sets inline styles, hence `style-src 'unsafe-inline'`.
 */
export const apiReferencePolicy =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'";

const distDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

/** The files of swagger-ui-dist the page uses, and nothing else of the folder. */
const assets: Record<string, { file: string; type: string }> = {
  'swagger-ui.css': { file: 'swagger-ui.css', type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { file: 'swagger-ui-bundle.js', type: 'text/javascript; charset=utf-8' },
  'favicon-32x32.png': { file: 'favicon-32x32.png', type: 'image/png' },
};

const startScript = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({ url: '/v1/openapi.json', dom_id: '#reference', deepLinking: true, docExpansion: 'list', tryItOutEnabled: false });
});
`;

const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>facteur: API reference</title><link rel="icon" href="/docs/assets/favicon-32x32.png"><link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><p style="margin:1rem 2rem;font:14px system-ui,sans-serif">Error codes: <a href="/docs/errors">/docs/errors</a>. The document: <a href="/v1/openapi.json">/v1/openapi.json</a>.</p>
<div id="reference"></div><script src="/docs/assets/swagger-ui-bundle.js"></script><script src="/docs/assets/reference.js"></script></body></html>`;

export async function apiReferenceRoutes(app: FastifyInstance): Promise<void> {
  const loaded = new Map<string, Buffer>();
  app.get('/docs', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('Content-Security-Policy', apiReferencePolicy).send(page),
  );
  app.get('/docs/assets/reference.js', { schema: { hide: true } }, async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('Cache-Control', 'no-cache').send(startScript),
  );
  app.get<{ Params: { file: string } }>('/docs/assets/:file', { schema: { hide: true } }, async (request, reply) => {
    const asset = assets[request.params.file];
    if (!asset) return reply.callNotFound();
    if (!loaded.has(asset.file)) loaded.set(asset.file, await readFile(join(distDir, asset.file)));
    return reply.type(asset.type).header('Cache-Control', 'public, max-age=86400').send(loaded.get(asset.file));
  });
}
