import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { routeKey, type RouteEntry } from '../http/route-table';
import { OPS_ROUTE_DOCS, ROUTE_DOCS } from './registry';

// The OpenAPI 3.1 document, generated from the route table (every route Fastify registered) and the
// valibot schemas the handlers parse with (server/openapi/registry.ts). Served at
// /api/v1/service/openapi.json and rendered at /api/v1/service/docs.

type Json = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: Json;
}

export interface Operation {
  operationId: string;
  summary: string;
  tags: string[];
  parameters?: { name: string; in: 'query' | 'path'; required: boolean; schema: Json }[];
  requestBody?: { required: boolean; content: Record<string, { schema: Json }> };
  responses: Record<string, Json>;
  /** The operations' calls are at the site's root, not under the API prefix. */
  servers?: { url: string }[];
}

function jsonSchema(schema: v.GenericSchema): Json {
  // 2020-12 is OpenAPI 3.1's dialect. Checks JSON Schema cannot say (custom checks, transforms) are
  // left out rather than failing the whole document.
  const out = toJsonSchema(schema, { target: 'draft-2020-12', errorMode: 'ignore' }) as Json;
  delete out.$schema;
  return tidy(out) as Json;
}

/** A query number is checked as text first ("not empty"); the document states only the number. */
function tidy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(tidy);
  if (!node || typeof node !== 'object') return node;
  const o = Object.fromEntries(Object.entries(node).map(([k, val]) => [k, tidy(val)])) as Json;
  if (o.type === 'integer' || o.type === 'number') {
    delete o.minLength;
    delete o.maxLength;
  }
  return o;
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

function operationId(r: RouteEntry): string {
  const words = r.path
    .split(/[/:-]/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1));
  return r.method.toLowerCase() + words.join('');
}

export function buildOpenApi(
  routes: readonly RouteEntry[],
  apiPrefix: string,
  version: string,
): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const tags = new Set<string>();
  for (const r of routes) {
    const doc = ROUTE_DOCS[routeKey(r)];
    const tag = doc?.tag ?? 'other';
    tags.add(tag);
    const op: Operation = {
      operationId: operationId(r),
      summary: doc?.summary ?? routeKey(r),
      tags: [tag],
      responses: {
        '200': { description: 'Done' },
        '400': errorResponse('Bad input: the message names the field and the reason'),
        '401': errorResponse('Not signed in'),
        '403': errorResponse('This role or user may not'),
        '404': errorResponse('No such object'),
      },
    };
    const parameters: NonNullable<Operation['parameters']> = [];
    for (const m of r.path.matchAll(/:(\w+)/g))
      parameters.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } });
    if (doc?.query) {
      const q = jsonSchema(doc.query);
      const required = new Set((q.required as string[] | undefined) ?? []);
      for (const [name, schema] of Object.entries((q.properties as Record<string, Json>) ?? {}))
        parameters.push({ name, in: 'query', required: required.has(name), schema });
    }
    if (parameters.length) op.parameters = parameters;
    if (doc?.body) {
      op.requestBody = { required: true, content: { 'application/json': { schema: jsonSchema(doc.body) } } };
    } else if (doc?.multipart) {
      const properties = Object.fromEntries(
        doc.multipart.map((f) => [
          f,
          { type: 'array', items: { type: 'string', contentMediaType: 'application/octet-stream' } },
        ]),
      );
      op.requestBody = {
        required: true,
        content: { 'multipart/form-data': { schema: { type: 'object', properties } } },
      };
    }
    const path = r.path.replace(/:(\w+)/g, '{$1}');
    (paths[path] ??= {})[r.method.toLowerCase()] = op;
  }
  for (const [key, doc] of Object.entries(OPS_ROUTE_DOCS)) {
    const [method, path] = key.split(' ');
    tags.add(doc.tag);
    paths[path] = {
      [method.toLowerCase()]: {
        operationId: operationId({ method, path } as RouteEntry),
        summary: doc.summary,
        tags: [doc.tag],
        servers: [{ url: '/' }],
        responses: Object.fromEntries(
          Object.entries(doc.responses).map(([status, text]) => [
            status,
            { description: text, content: { 'text/plain': { schema: { type: 'string' } } } },
          ]),
        ),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Survey back-office API',
      version,
      description:
        'Every call but the public ones (sign-in, registration, links from mails, pictures, the SDK) needs the ' +
        'x-auth-token header from POST /authentication/login. Errors answer {message, code?, field?, details?} with ' +
        'the message in the language of Accept-Language (ru or en).',
    },
    servers: [{ url: apiPrefix }],
    tags: [...tags].sort().map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'x-auth-token' } },
      schemas: {
        Error: {
          type: 'object',
          required: ['message'],
          properties: {
            message: { type: 'string' },
            code: { type: ['string', 'integer'] },
            field: { type: 'string' },
            details: {},
          },
        },
      },
    },
  };
}
