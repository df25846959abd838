import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import helmet from 'helmet';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { Config } from './config';
import { openDatabase } from './db';
import { migrateToLatest } from './db/migrate';
import { HttpError } from './http/errors';
import { registerRequestContext } from './http/context';
import { COMPRESSION } from './http/compression';
import { collectRoutes } from './http/route-table';
import { registerJsonBody } from './http/json-body';
import { spaInlineScriptHashes } from './http/inlineScripts';
import { routeModules } from './routes';
import { startSender, type Sender } from './callbacks/sender';
import { drainAnswerGroups } from './survey/group-commit';
import { moveUploadsIn } from './pictures/move-in';
import { Lifecycle } from './ops/lifecycle';
import probes from './ops/probes';
import metrics from './ops/metrics';
import { DownloadThreads } from './reports/download-threads';

export const API_PREFIX = '/api/v1/service';

/** Builds the server: database opened and migrated, every route registered. `main` and tests share it. */
export async function buildApp(
  config: Config,
  opts: { logger?: boolean | object } = {},
): Promise<FastifyInstance> {
  let log: FastifyInstance['log'] | null = null;
  const handle = openDatabase(config, (err) =>
    log
      ? log.warn({ err }, 'database connection lost; it is replaced on the next query')
      : console.error(err),
  );
  await migrateToLatest(handle);

  const app = Fastify({
    logger: opts.logger ?? { level: config.logLevel },
    bodyLimit: 1024 * 1024,
    trustProxy: config.trustProxy,
    // A path parameter as long as a URL allows: the router's default (100) answered a longer one
    // (a survey token pasted twice) with its own 414 in English before any route could say 404.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2048 },
  });
  log = app.log;
  app.decorate('db', handle.db);
  app.decorate('dialect', handle.dialect);
  app.decorate('config', config);
  const lifecycle = new Lifecycle();
  app.decorate('lifecycle', lifecycle);
  // The report downloads' worker threads, each with its own connection (server/reports/download-threads.ts).
  const downloads = new DownloadThreads(
    handle.db,
    { databaseUrl: config.databaseUrl, dataDir: config.dataDir },
    config.downloadThreads,
    (msg) => app.log.warn(msg),
  );
  app.decorate('downloads', downloads);
  let sender: Sender | null = null;
  // After the calls in flight (Fastify runs this once the listener has closed and every connection
  // ended): the sender's results and claims, then the answers still queued, then the database.
  app.addHook('onClose', async () => {
    await sender?.stop(lifecycle.deadline);
    await drainAnswerGroups(handle.db);
    await downloads.close();
    await handle.db.destroy();
  });
  // Pictures kept under DATA_DIR/uploads by an earlier release go into the database (once).
  await moveUploadsIn(handle.db, config.dataDir, app.log);

  // Security headers: helmet's middleware built once. @fastify/helmet builds it again on every
  // request (parsing the CSP each time), about a tenth of an answer submission's CPU.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // The SPA's own inline scripts by their hashes (server/http/inlineScripts.ts).
        scriptSrc: ["'self'", ...spaInlineScriptHashes(config.staticDir)],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    hsts: false,
  });
  app.addHook('onRequest', (req, reply, done) => securityHeaders(req.raw, reply.raw, () => done()));
  // How answers are compressed: server/http/compression.ts.
  await app.register(compress, COMPRESSION);

  registerRequestContext(app);
  registerJsonBody(app);
  app.setErrorHandler(errorHandler);
  // Operations (server/ops): the probes, and /metrics when METRICS_TOKEN is set.
  await app.register(probes, { db: handle.db, lifecycle });
  if (config.ops.metricsToken) await app.register(metrics, { db: handle.db, token: config.ops.metricsToken });
  collectRoutes(app, API_PREFIX);

  await app.register(
    async (api) => {
      for (const mod of routeModules) await api.register(mod);
    },
    { prefix: API_PREFIX },
  );

  // Block callbacks: this process's sender (server/callbacks/sender.ts), stopped before the database.
  if (config.callbacks.sender) sender = startSender(handle.db, handle.dialect, config.callbacks, app.log);

  const indexHtml = config.staticDir && path.join(config.staticDir, 'index.html');
  const hasSpa = !!indexHtml && fs.existsSync(indexHtml);
  if (hasSpa) {
    await app.register(fastifyStatic, {
      root: config.staticDir!,
      wildcard: false,
      index: false,
      cacheControl: false,
      setHeaders(reply, filePath) {
        // Hashed file names never change content: cache them for a year. Everything else (the
        // shell, the service worker, the manifest) must be revalidated so updates reach users.
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  // The respondent page: its own HTML entry (survey.html), never the back-office shell.
  const surveyHtml = config.staticDir && path.join(config.staticDir, 'survey.html');
  if (hasSpa && surveyHtml && fs.existsSync(surveyHtml)) {
    app.get('/s/:token', async (_req, reply) =>
      reply.header('cache-control', 'no-cache').type('text/html').sendFile('survey.html'),
    );
  }

  app.setNotFoundHandler(async (req, reply) => {
    const wantsPage =
      req.method === 'GET' && !req.url.startsWith('/api/') && !path.extname(req.url.split('?')[0]);
    if (hasSpa && wantsPage) {
      // History fallback: the SPA's router decides, and shows its own 404 page for unknown paths.
      return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
    }
    return reply.status(404).send({ message: req.t.errors.notFound() });
  });

  return app;
}

/**
 * PostgreSQL's class 22 ("data exception": 22003 out of range, 22021 NUL byte, 22P02 bad number…)
 * and SQLite's type and size errors, as better-sqlite3 raises them.
 */
export function isDataError(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; name?: unknown };
  if (typeof e.code === 'string' && /^22[0-9A-Z]{3}$/.test(e.code)) return true;
  if (typeof e.code === 'string' && ['SQLITE_MISMATCH', 'SQLITE_TOOBIG', 'SQLITE_RANGE'].includes(e.code))
    return true;
  const msg = typeof e.message === 'string' ? e.message : '';
  return (
    (e.name === 'TypeError' && msg.includes('SQLite3 can only bind')) ||
    (e.name === 'RangeError' && /BigInt|too large|out of range/i.test(msg))
  );
}

/** SQLite's lock not had within the busy timeout, PostgreSQL's lock wait given up. */
export function isBusyError(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && (/^SQLITE_(BUSY|LOCKED)/.test(code) || code === '55P03');
}

function errorHandler(
  this: FastifyInstance,
  err: FastifyError | HttpError,
  req: Parameters<FastifyInstance['errorHandler']>[1],
  reply: Parameters<FastifyInstance['errorHandler']>[2],
) {
  const t = req.t;
  if (err instanceof HttpError) {
    for (const [k, val] of Object.entries(err.extra.headers ?? {})) reply.header(k, val);
    const { headers: _h, ...extra } = err.extra;
    return reply.status(err.status).send({ message: err.text(t, req.locale), ...extra });
  }
  const status = (err as FastifyError).statusCode ?? 500;
  const code = (err as FastifyError).code;
  if (status >= 500 && isDataError(err)) {
    // A value the schemas let through but the database refuses (an out-of-range number, a NUL
    // byte): the caller's mistake, so a 400, never a 500. Logged, since a schema should catch it.
    req.log.warn({ err }, 'database refused a value');
    return reply.status(400).send({ message: t.errors.dataError(), code: 'data' });
  }
  if (isBusyError(err)) {
    // Another process (npm run demo, a script) holds SQLite's write lock past the busy timeout, or
    // PostgreSQL gave up on a lock: nothing was written, and the same call may simply be repeated.
    req.log.warn({ err }, 'database busy');
    return reply.status(503).header('retry-after', '2').send({ message: t.errors.busy(), code: 'busy' });
  }
  if (status >= 500) {
    req.log.error({ err }, 'request failed');
    return reply.status(500).send({ message: t.errors.generic() });
  }
  if (status === 415) {
    return reply
      .status(415)
      .send({ message: t.errors.unsupportedMediaType(), code: 'unsupported-media-type' });
  }
  let message: string;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413) message = t.errors.tooLarge();
  else if (code?.startsWith('FST_ERR_CTP_') || err.name === 'SyntaxError') message = t.errors.invalidJson();
  else if (status === 401) message = t.errors.unauthorized();
  else if (status === 403) message = t.errors.forbidden();
  else if (status === 404) message = t.errors.notFound();
  else if (status === 429) message = t.errors.tooManyRequests({ minutes: 1 });
  else message = t.errors.badRequest();
  return reply.status(status).send({ message, code });
}
