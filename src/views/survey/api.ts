import type { ProjectContent } from '../../domain/content/model';
import type { Attributes, ProfileField, Reply, ReplyEntry } from '../../domain/flow';
import type { PlaceOption } from './Place';
import type { SurveyLocale } from '../../i18n/survey';

// The respondent's calls (server/routes/survey.ts), with plain fetch: the back-office's HTTP client
// (sign-in, toasts) has no place in this page.

const BASE = '/api/v1/service';

export class SurveyError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: { code?: string; state?: string } = {},
  ) {
    super(message);
  }
}

async function call<T>(
  method: string,
  path: string,
  locale: SurveyLocale,
  opts: { body?: unknown; token?: string; signal?: AbortSignal } = {},
): Promise<T> {
  const headers: Record<string, string> = { 'accept-language': locale };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.token) headers['x-respondent-token'] = opts.token;
  const res = await fetch(BASE + path, {
    method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    signal: opts.signal,
  });
  const data = res.headers.get('content-type')?.includes('json') ? await res.json() : {};
  if (!res.ok)
    throw new SurveyError(res.status, data.message ?? `Server response status: ${res.status}`, data);
  return data as T;
}

export type Availability = 'open' | 'notStarted' | 'paused' | 'finished';
export interface LinkInfo {
  kind: 'link' | 'ticket';
  state: Availability;
  profile: boolean;
  /** The step cannot be skipped: every respondent must fit a portrait (a target project's link). */
  profileRequired: boolean;
  /** The fields the portraits have conditions on (required when the step is). */
  profileFields: ProfileField[];
  used?: boolean;
}
export interface Session {
  status: 'started' | 'completed' | 'screenedOut' | 'quotaFull';
  state: Availability;
  content: ProjectContent | null;
  start: { questionnaireId: string; seed: string };
  replies: ReplyEntry[];
}

function placesQuery(kind: 'city' | 'region', search: string, region?: string): string {
  const q = new URLSearchParams({ kind, search });
  if (region) q.set('region', region);
  return q.toString();
}

const BROWSER_KEY = 'survey-browser';
/**
 * A random marker this browser keeps for every survey (issue 31): the server stores only its hash and
 * flags a second completion of a project from the same browser as a duplicate. No address, no
 * fingerprint; a browser that keeps nothing (private mode, storage off) sends none.
 */
function browserMarker(): string | undefined {
  try {
    let marker = localStorage.getItem(BROWSER_KEY);
    if (!marker || !/^[A-Za-z0-9_-]{16,64}$/.test(marker)) {
      const bytes = crypto.getRandomValues(new Uint8Array(16));
      marker = btoa(String.fromCharCode(...bytes))
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/=+$/, '');
      localStorage.setItem(BROWSER_KEY, marker);
    }
    return marker;
  } catch {
    return undefined;
  }
}

export const surveyApi = {
  info: (token: string, l: SurveyLocale) => call<LinkInfo>('GET', `/survey/${encodeURIComponent(token)}`, l),
  start: (token: string, l: SurveyLocale, attributes?: Attributes) =>
    call<{ state: 'started'; token: string } | { state: 'quotaFull' | 'noMatch' | Availability }>(
      'POST',
      `/survey/${encodeURIComponent(token)}/start`,
      l,
      {
        body: { locale: l, ...(attributes && { attributes }), browser: browserMarker() },
      },
    ),
  session: (token: string, l: SurveyLocale) => call<Session>('GET', '/survey/session', l, { token }),
  answer: (token: string, l: SurveyLocale, body: { at: number; questionId: string; reply: Reply }) =>
    call<{ status: Session['status']; answered: number }>('POST', '/survey/answer', l, { token, body }),
  places: (
    token: string,
    l: SurveyLocale,
    kind: 'city' | 'region',
    search: string,
    signal: AbortSignal,
    region?: string,
  ) =>
    call<PlaceOption[]>('GET', `/survey/places?${placesQuery(kind, search, region)}`, l, { token, signal }),
  /** The profile step's cities, by the link's token (the respondent has not started yet). */
  linkPlaces: (link: string, l: SurveyLocale, search: string, signal: AbortSignal) =>
    call<PlaceOption[]>(
      'GET',
      `/survey/${encodeURIComponent(link)}/places?${placesQuery('city', search)}`,
      l,
      { signal },
    ),
};
