import fs from 'node:fs';
import path from 'node:path';
import { AUTH_ACTOR_FILE, MAIN_LAYOUT_FILE, ROUTE_FILES } from '../../src/views/routeFiles';
import { BOOT_GROUPS, routeGroups } from '../../src/views/localeGroups';

// The SPA's HTML for a route (issue 25, Lighthouse on the signed-in pages). The start-up script asks
// for the opened page's chunks, the sign-in's actor and the dictionary groups only once it has
// arrived and run: on a slow phone a round trip and the script's evaluation before the second wave
// of requests even starts. So the HTML served for a route already names them, as
// <link rel="modulepreload">, read from Vite's build manifest (.vite/manifest.json): the browser
// fetches them beside the start-up script, and the start-up's own requests find them loaded.
// Only static imports are followed: what a page loads later (the editor's canvas library, the
// report's charts, a form's dialog) stays out. Without a manifest (an older build) the HTML is
// served as it is.

interface ManifestChunk {
  file: string;
  imports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** The language the start-up will choose when nothing is stored: the browser's when en, else ru. */
export function localeOf(acceptLanguage: string | undefined): 'en' | 'ru' {
  const first = (acceptLanguage ?? '').split(',')[0].trim().slice(0, 2).toLowerCase();
  return first === 'en' ? 'en' : 'ru';
}

/** A route's path as the router reads it (findRoute in App.tsx): no trailing slash. */
const routePath = (url: string) => {
  const p = url.split('?')[0];
  return p.length > 1 ? p.replace(/\/+$/, '') : p;
};

export interface SpaShell {
  /** The HTML for a page address and the browser's Accept-Language. */
  html(url: string, acceptLanguage: string | undefined): string;
  /** The chunk files the HTML of this route names (for tests and the decision notes). */
  preloads(url: string, acceptLanguage: string | undefined): string[];
}

export function loadSpaShell(staticDir: string): SpaShell {
  const index = fs.readFileSync(path.join(staticDir, 'index.html'), 'utf8');
  const manifestFile = path.join(staticDir, '.vite', 'manifest.json');
  const manifest: Manifest | null = fs.existsSync(manifestFile)
    ? (JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest)
    : null;

  // A chunk and everything it imports statically, as manifest keys.
  const closure = (key: string, into: Set<string>) => {
    if (!manifest?.[key] || into.has(key)) return into;
    into.add(key);
    for (const k of manifest[key].imports ?? []) closure(k, into);
    return into;
  };
  // The start-up's own chunks are in index.html already (its script and Vite's modulepreloads).
  const inHtml = closure('index.html', new Set());

  const cache = new Map<string, { html: string; files: string[] }>();
  const build = (url: string, acceptLanguage: string | undefined) => {
    const route = Object.hasOwn(ROUTE_FILES, routePath(url)) ? ROUTE_FILES[routePath(url)] : undefined;
    // Not a route (the router shows its 404 page): the HTML as built, and nothing kept per address.
    if (!manifest || !route) return { html: index, files: [] };
    const locale = localeOf(acceptLanguage);
    const key = `${routePath(url)} ${locale}`;
    let hit = cache.get(key);
    if (hit) return hit;
    const modules = [
      // The restore first: the page waits for it.
      ...(route.public ? [] : [AUTH_ACTOR_FILE]),
      ...[...BOOT_GROUPS, ...routeGroups({ path: routePath(url), layout: route.layout })].map(
        (g) => `src/i18n/${locale}/${g}.ts`,
      ),
      ...(route.layout === 'main' ? [MAIN_LAYOUT_FILE] : []),
      route.page,
    ];
    const keys = new Set<string>();
    for (const m of modules) closure(m, keys);
    const files = [...keys].filter((k) => !inHtml.has(k)).map((k) => `/${manifest[k].file}`);
    const links = files.map((f) => `    <link rel="modulepreload" crossorigin href="${f}">\n`).join('');
    hit = { html: links ? index.replace('</head>', `\n${links}  </head>`) : index, files };
    cache.set(key, hit);
    return hit;
  };
  return {
    html: (url, acceptLanguage) => build(url, acceptLanguage).html,
    preloads: (url, acceptLanguage) => build(url, acceptLanguage).files,
  };
}
