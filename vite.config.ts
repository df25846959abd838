import fs from 'node:fs';
import path from 'node:path';
import { build, defineConfig, normalizePath, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';
import { BASE_CHUNK_GROUPS } from './src/views/shell/localeChunks.ts';
import { routeGroups } from './src/views/localeGroups.ts';

// The SPA build. `npm run dev` serves it on 5173 and forwards /api to the server on 8080.
//
// PWA (issue 3, part 10): a web manifest and a generated service worker that precaches the shell
// (HTML, every JS/CSS chunk, icons, guide slides) and answers every navigation except /api with
// index.html, so the app opens offline. Updates wait for the user: the page shows an "update
// available" toast (src/views/shell/pwa.tsx) and the new worker takes over only after Reload.

const pkg = JSON.parse(fs.readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/**
 * The respondent page (/s/:token, issue 13) has a budget of 60 KB gzip of JS, and react-dom alone is
 * about 60 KB. So survey.html is built by a second, nested build into the same folder, with React
 * aliased to preact/compat (≈ 10 KB): the same components as the editor's preview, a tenth of the
 * weight. Every caller of `vite build` (npm start, the benches, the e2e setup) gets both pages.
 */
function surveyPage(): Plugin {
  let outDir = 'dist';
  let root = process.cwd();
  let mode = 'production';
  return {
    name: 'survey-page',
    apply: 'build',
    configResolved(c) {
      root = c.root;
      mode = c.mode;
      outDir = path.resolve(c.root, c.build.outDir);
    },
    async closeBundle() {
      await build({
        configFile: false,
        root,
        mode,
        logLevel: 'warn',
        plugins: [react(), tailwindcss()],
        resolve: {
          alias: [
            { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
            { find: /^react-dom$/, replacement: 'preact/compat' },
            { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
            { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
            { find: /^react$/, replacement: 'preact/compat' },
          ],
        },
        build: {
          outDir,
          emptyOutDir: false,
          target: 'es2022',
          sourcemap: false,
          rollupOptions: { input: { survey: path.resolve(root, 'survey.html') } },
        },
      });
    },
  };
}

/**
 * The favicon written into the page (issue 25): as a file it was one of the six requests a phone's
 * browser makes at once to this host while the start-up's script is still to come, and Lighthouse
 * counts every request before the page's largest paint in that paint's time. The file stays, for
 * whatever asks for it by name.
 */
function inlineFavicon(): Plugin {
  return {
    name: 'inline-favicon',
    apply: 'build',
    transformIndexHtml(html, { filename }) {
      const svg = fs.readFileSync(path.resolve(path.dirname(filename), 'public/icons/icon.svg'), 'utf8');
      const uri = `data:image/svg+xml,${encodeURIComponent(svg.replace(/\s+/g, ' ').trim())}`;
      return html.replace('href="/icons/icon.svg"', `href="${uri}"`);
    },
  };
}

/**
 * The editor's head start (issue 34, src/views/editor/headStart.ts): compiled on its own and
 * written into the page's head as an inline script, run while the HTML is parsed, with the paths of
 * the editor page's chunk and of every chunk it imports (the start-up's own are in the HTML
 * already), and, by language, the dictionary chunks the start-up loads before the editor's first
 * render (the base chunk and /project's groups, localeGroups.ts): without them in the head start
 * they were asked for only once the start-up's script had come and been evaluated, and arrived
 * after the editor's own chunks (issue 34, docs/decisions/reopen.md). The server allows the
 * script by its hash (server/http/inlineScripts.ts).
 */
function editorHeadStart(): Plugin {
  let root = process.cwd();
  let mode = 'production';
  const EDITOR_PAGE = '/src/views/editor/EditorPage.tsx';
  return {
    name: 'editor-head-start',
    apply: 'build',
    configResolved(c) {
      root = c.root;
      mode = c.mode;
    },
    transformIndexHtml: {
      order: 'post',
      async handler(html, ctx) {
        if (!ctx.bundle || !ctx.chunk || path.basename(ctx.filename) !== 'index.html') return html;
        const chunks = new Map(
          Object.values(ctx.bundle)
            .filter((c) => c.type === 'chunk')
            .map((c) => [c.fileName, c]),
        );
        const closure = (file: string, into: Set<string>): Set<string> => {
          if (into.has(file) || !chunks.has(file)) return into;
          into.add(file);
          for (const f of chunks.get(file)!.imports) closure(f, into);
          return into;
        };
        const editor = [...chunks.values()].find((c) =>
          normalizePath(c.facadeModuleId ?? '').endsWith(EDITOR_PAGE),
        );
        if (!editor) throw new Error(`editor-head-start: no chunk for ${EDITOR_PAGE}`);
        const inHtml = closure(ctx.chunk.fileName, new Set());
        const files = [...closure(editor.fileName, new Set())]
          .filter((f) => !inHtml.has(f))
          .map((f) => `/${f}`);
        const out = (await build({
          configFile: false,
          root,
          mode,
          logLevel: 'warn',
          build: {
            write: false,
            target: 'es2022',
            minify: true,
            lib: {
              entry: path.resolve(root, 'src/views/editor/headStartInline.ts'),
              formats: ['iife'],
              name: 'editorHeadStart',
            },
          },
        })) as { output: { type: string; code?: string }[] }[];
        const code = out[0].output.find((o) => o.type === 'chunk')!.code!.trim();
        // The dictionary's chunks by language: every chunk holding a group the editor's first render
        // waits for (the base chunk holds the start-up's groups), with what they import.
        const groups = new Set<string>([
          ...BASE_CHUNK_GROUPS,
          ...routeGroups({ path: '/project', layout: 'editor' }),
        ]);
        const dictionaries: Record<string, string[]> = {};
        for (const c of chunks.values()) {
          const hit = c.moduleIds
            .map((id) => /\/src\/i18n\/(\w+)\/(\w+)\.ts$/.exec(normalizePath(id)))
            .find((m) => m && groups.has(m[2]));
          if (!hit) continue;
          const into = new Set(dictionaries[hit[1]]?.map((f) => f.slice(1)));
          closure(c.fileName, into);
          dictionaries[hit[1]] = [...into].filter((f) => !inHtml.has(f)).map((f) => `/${f}`);
        }
        if (!Object.keys(dictionaries).length) throw new Error('editor-head-start: no dictionary chunks');
        const script = `<script data-chunks='${JSON.stringify(files)}' data-dictionaries='${JSON.stringify(dictionaries)}'>${code}</script>`;
        // Before the start-up's script, so that it runs as soon as the parser reaches it.
        return html.replace(/<script type="module"/, `${script}\n    <script type="module"`);
      },
    },
  };
}

/**
 * Fewer, larger chunks on a page's first load (issue 25, docs/decisions/bundles.md). Left to itself
 * the bundler made a chunk of every set of pages that shares a module: /projects fetched 38 scripts
 * of 1–6 KB, and over HTTP/1.1 (six connections a host) on a phone's network every wave of six is
 * a round trip. The groups below gather what signed-in pages load together anyway; the start-up's
 * own static graph is kept whole (the first group), so that nothing a signed-out page runs at start
 * is moved into a chunk it would then have to fetch.
 */
const startupModules = new Set<string>();
function startupGraph(): Plugin {
  let root = process.cwd();
  return {
    name: 'startup-graph',
    apply: 'build',
    configResolved(c) {
      root = c.root;
    },
    buildEnd() {
      startupModules.clear();
      // From index.html's own module (it imports src/main.tsx), so that the entry's module is in the
      // group too and the group's chunk is the entry's: no second script of 1 KB in front of it.
      const html = normalizePath(path.resolve(root, 'index.html'));
      const stack = [html, normalizePath(path.resolve(root, 'src/main.tsx'))];
      while (stack.length) {
        const id = stack.pop()!;
        if (startupModules.has(id)) continue;
        startupModules.add(id);
        stack.push(...(this.getModuleInfo(id)?.importedIds ?? []));
      }
    },
  };
}
// Module ids use forward slashes on every platform.
const inSrc = (pattern: string) => new RegExp(`/src/(${pattern})\\.tsx?$`);
const inModules = (pattern: string) => new RegExp(`/node_modules/(${pattern})/`);
const CHUNK_GROUPS: { name: string; priority: number; matches: RegExp[] }[] = [
  // The sign-in actor: the restore on a signed-in page, the submit on /login.
  { name: 'signin', priority: 30, matches: [inSrc('views/auth/startAuth'), inModules('xstate|@xstate')] },
  // Form parts, shared by the sign-in pages and most signed-in ones.
  {
    name: 'forms',
    priority: 20,
    matches: [inSrc('views/ui/(Button|Field|FormError|validation)|domain/validation')],
  },
  // List pages' parts.
  {
    name: 'lists',
    priority: 15,
    matches: [
      inSrc(
        'views/ui/(DataTable|SearchBox|useList)|domain/(lookups|permissions)|api/lookups|views/(projects|users)/labels',
      ),
    ],
  },
  // What the project list, the report list and the editor share.
  {
    name: 'projects',
    priority: 12,
    matches: [inSrc('views/projects/(columns|SettingsForm)|domain/demoRules')],
  },
  // The signed-in shell: the main layout, its menus, dialogs, guide and toasts.
  {
    name: 'shell',
    priority: 10,
    matches: [
      inSrc(
        'views/layouts/MainLayout|views/shell/(guide|logout)|machines/guide|views/ui/(Dropdown|confirm|icons|modal|toast|Toasts|useRestoreFocus|PageHeader)',
      ),
      inModules('react-hot-toast'),
    ],
  },
];

export default defineConfig({
  define: {
    __APP_VERSION__: JSON.stringify(pkg.version),
  },
  plugins: [
    startupGraph(),
    inlineFavicon(),
    editorHeadStart(),
    react(),
    tailwindcss(),
    surveyPage(),
    VitePWA({
      strategies: 'generateSW',
      registerType: 'prompt',
      // Registered by our own code through workbox-window, after the app has mounted.
      injectRegister: false,
      includeAssets: ['icons/icon.svg', 'icons/apple-touch-icon.png'],
      manifest: {
        id: '/',
        name: 'Бэк-офис опросов',
        short_name: 'Опросы',
        description:
          'Back-office of a survey platform: questionnaires, moderation, games, pricing, users and logs.',
        lang: 'ru',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        theme_color: '#4f46e5',
        background_color: '#f8fafc',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        navigateFallback: '/index.html',
        // The respondent page (/s/:token) is its own HTML entry, never the back-office shell.
        navigateFallbackDenylist: [/^\/api(\/|$)/, /^\/s\//],
        cleanupOutdatedCaches: true,
        // The editor chunk (cytoscape) is large; it must still be precached to open offline.
        maximumFileSizeToCacheInBytes: 5 * 1024 * 1024,
      },
    }),
  ],
  server: {
    proxy: { '/api': 'http://localhost:8080' },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    // Every browser the app supports preloads modules itself (docs/decisions/bundles.md).
    modulePreload: { polyfill: false },
    // The one chunk past 500 KB is ExcelJS for the languages panel's spreadsheet import and export
    // (src/domain/translations/xlsx.ts), fetched only when a user opens that file; the page-weight
    // bench holds every page's first load to its budget. The warning told a new user's first start
    // nothing to act on.
    chunkSizeWarningLimit: 1000,
    rollupOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'index', priority: 100, test: (id: string) => startupModules.has(id) },
            // The dictionary groups nearly every page shows, one chunk a language (localeChunks.ts).
            ...(['ru', 'en'] as const).map((locale) => ({
              name: `i18n-${locale}-base`,
              priority: 90,
              test: new RegExp(`/src/i18n/${locale}/(${BASE_CHUNK_GROUPS.join('|')})\\.ts$`),
            })),
            ...CHUNK_GROUPS.map(({ name, priority, matches }) => ({
              name,
              priority,
              test: (id: string) => !startupModules.has(id) && matches.some((m) => m.test(id)),
            })),
          ],
        },
        // A dictionary group's chunk says its language and group (issue 25): the e2e and the bench
        // check that a page fetches only its own language's groups.
        chunkFileNames: (chunk) => {
          const m = chunk.facadeModuleId?.match(/\/src\/i18n\/(\w+)\/(\w+)\.ts$/);
          return m ? `assets/i18n-${m[1]}-${m[2]}-[hash].js` : 'assets/[name]-[hash].js';
        },
      },
    },
  },
});
