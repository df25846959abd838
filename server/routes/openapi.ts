import type { FastifyInstance } from 'fastify';
import { buildOpenApi, type OpenApiDocument } from '../openapi/document';
import { renderDocsPage } from '../openapi/page';
import pkg from '../../package.json' with { type: 'json' };

// GET /openapi.json and GET /docs: the API described, public (it holds nothing private). Built on
// the first call, once every route is registered.

export default async function openapiRoutes(app: FastifyInstance) {
  let doc: OpenApiDocument | null = null;
  let page: string | null = null;
  const document = () => (doc ??= buildOpenApi(app.routeTable, app.prefix, pkg.version));

  app.get('/openapi.json', async (_req, reply) => {
    reply.header('cache-control', 'no-cache');
    return document();
  });

  app.get('/docs', async (_req, reply) => {
    page ??= renderDocsPage(document());
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(page);
  });
}
