import { isContentErrorCode } from '../domain/errors';
import type { TranslationFunctions } from '../i18n/i18n-types';
import { readSettings } from '../i18n/setup';
import { clearAuth, readAuth, writeAuth } from './storage';

// The HTTP client of spec sections 7–8. Every call goes to /api/v1/service with JSON (or a multipart
// body as it is), signs itself with the stored tokens, stores renewed tokens the server hands back,
// parses the answer by its content type, and turns any failure into an ApiError that every listener
// hears about.

export const API_BASE = '/api/v1/service';

export type ApiErrorCode = number | string | undefined;

export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    message: string,
    /** 0 when the network failed before any answer. */
    readonly status: number,
    readonly response: Response | null,
    readonly body: unknown,
    readonly code: ApiErrorCode,
  ) {
    super(message);
  }
  get isNetwork(): boolean {
    return this.status === 0;
  }
}

type Listener = (error: ApiError) => void;
const listeners = new Set<Listener>();

/** Subscribes to every failed call; returns the unsubscribe function. */
export function onApiError(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

interface ClientSettings {
  baseUrl: string;
  t: TranslationFunctions | null;
  locale: string;
  reload: () => void;
  fetch: typeof fetch;
}

const settings: ClientSettings = {
  baseUrl: '',
  t: null,
  // The page's language from the first call on: calls start before the start-up has set the client
  // up (the sign-in's restore, the project's early fetch), and the server answers in this language.
  locale: typeof window === 'undefined' ? 'ru' : readSettings().locale,
  reload: () => globalThis.location?.reload(),
  fetch: (...args) => globalThis.fetch(...args),
};

/** Set once at start-up (the translator, the locale) and by tests (base URL, reload). */
export function configureClient(patch: Partial<ClientSettings>): void {
  Object.assign(settings, patch);
}

export type Query = Record<
  string,
  string | number | boolean | null | undefined | readonly (string | number)[]
>;

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Sees the raw response of a successful call (list paging reads X-Total-Count). */
  onResponse?: (res: Response) => void;
  /**
   * A call started before its page asked for it (api/early.ts): a failure is left to the page's own
   * call, so no listener hears it and a refusal signs nobody out (the page may not be this role's).
   */
  quiet?: boolean;
}

function buildQuery(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    // Arrays repeat the key (GET /users?roles=1&roles=4).
    if (Array.isArray(value)) for (const item of value) params.append(key, String(item));
    else params.append(key, String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

async function parseBody(res: Response): Promise<unknown> {
  const type = res.headers.get('content-type') ?? '';
  if (res.status === 204) return null;
  if (type.includes('json')) {
    const text = await res.text();
    return text ? JSON.parse(text) : null;
  }
  if (type.startsWith('text/')) return res.text();
  return res.blob();
}

function messageOf(status: number, body: unknown): { message: string; code: ApiErrorCode } {
  const t = settings.t;
  const b = (body && typeof body === 'object' ? body : {}) as { message?: unknown; code?: unknown };
  const code = typeof b.code === 'number' || typeof b.code === 'string' ? b.code : undefined;
  let message =
    typeof b.message === 'string' && b.message
      ? b.message
      : t
        ? t.errors.serverStatus({ status })
        : `Server response status: ${status}`;
  if (isContentErrorCode(code) && t) message = t.errors.code[String(code) as keyof typeof t.errors.code]();
  return { message, code };
}

function isAbort(err: unknown): boolean {
  return err instanceof DOMException && err.name === 'AbortError';
}

function networkMessage(): string {
  return settings.t ? settings.t.errors.network() : 'Network error';
}

function fail(error: ApiError, quiet = false): never {
  if (quiet) throw error;
  for (const listener of listeners) {
    try {
      listener(error);
    } catch {
      /* a listener's failure must not hide the call's error */
    }
  }
  throw error;
}

export async function request<T = unknown>(
  method: string,
  path: string,
  opts: RequestOptions = {},
): Promise<T> {
  const headers: Record<string, string> = { 'accept-language': settings.locale, ...opts.headers };
  const stored = readAuth();
  if (stored) {
    headers['x-auth-token'] = stored.accessToken;
    headers['x-refresh-token'] = stored.refreshToken;
  }
  let body: BodyInit | undefined;
  if (opts.body instanceof FormData || opts.body instanceof Blob) body = opts.body;
  else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }

  let res: Response;
  try {
    res = await settings.fetch(`${settings.baseUrl}${API_BASE}${path}${buildQuery(opts.query)}`, {
      method,
      headers,
      body,
      signal: opts.signal,
    });
  } catch (err) {
    if (isAbort(err)) throw err;
    return fail(new ApiError(networkMessage(), 0, null, null, undefined), opts.quiet);
  }

  // The server renews an expired access token silently and hands the new pair back here.
  const access = res.headers.get('x-auth-token');
  const refresh = res.headers.get('x-refresh-token');
  const current = readAuth();
  if (access && refresh && current) writeAuth({ ...current, accessToken: access, refreshToken: refresh });

  let parsed: unknown = null;
  try {
    parsed = await parseBody(res);
  } catch (err) {
    // Aborted while the body was still arriving (a reload, a newer request): an abort, not a null
    // answer. A successful status with a body that cannot be read is a failed call.
    if (isAbort(err) || opts.signal?.aborted) throw err;
    if (res.ok) return fail(new ApiError(networkMessage(), 0, res, null, undefined), opts.quiet);
    parsed = null;
  }
  if (res.ok) {
    opts.onResponse?.(res);
    return parsed as T;
  }

  const { message, code } = messageOf(res.status, parsed);
  const error = new ApiError(message, res.status, res, parsed, code);
  if ((res.status === 401 || res.status === 403) && readAuth() && !opts.quiet) {
    clearAuth();
    settings.reload();
  }
  return fail(error, opts.quiet);
}

/** A page of a list: list calls answer with a JSON array and the full count in X-Total-Count. */
export interface Page<T> {
  items: T[];
  total: number;
}

export const api = {
  get: <T>(path: string, opts?: RequestOptions) => request<T>('GET', path, opts),
  list: async <T>(path: string, opts?: RequestOptions): Promise<Page<T>> => {
    let total = -1;
    const items = await request<T[]>('GET', path, {
      ...opts,
      onResponse: (res) => (total = Number(res.headers.get('x-total-count') ?? -1)),
    });
    return { items, total: total >= 0 ? total : items.length };
  },
  post: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
    request<T>('POST', path, { ...opts, body }),
  put: <T>(path: string, body?: unknown, opts?: RequestOptions) => request<T>('PUT', path, { ...opts, body }),
  del: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
    request<T>('DELETE', path, { ...opts, body }),
};

/** Signs in: the tokens come in the response headers, the user in the body. */
export async function loginCall(email: string, password: string) {
  const headers: Record<string, string> = {
    'accept-language': settings.locale,
    'content-type': 'application/json',
  };
  let res: Response;
  try {
    res = await settings.fetch(`${settings.baseUrl}${API_BASE}/authentication/login`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ email, password }),
    });
  } catch {
    return fail(new ApiError(networkMessage(), 0, null, null, undefined));
  }
  const body = (await parseBody(res).catch(() => null)) as { user?: import('../domain/user').User } | null;
  if (!res.ok) {
    const { message, code } = messageOf(res.status, body);
    // The spec's text for a refused sign-in.
    const text = res.status === 401 && settings.t ? settings.t.errors.wrongCredentials() : message;
    return fail(new ApiError(text, res.status, res, body, code));
  }
  const accessToken = res.headers.get('x-auth-token');
  const refreshToken = res.headers.get('x-refresh-token');
  if (!accessToken || !refreshToken || !body?.user) {
    return fail(new ApiError(messageOf(500, null).message, res.status, res, body, undefined));
  }
  return { user: body.user, accessToken, refreshToken };
}
