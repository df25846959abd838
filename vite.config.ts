import fs from 'node:fs';
import path from 'node:path';
import { build, defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';

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

export default defineConfig({
  define: {
    __APP_VERSION__: JSON.stringify(pkg.version),
  },
  plugins: [
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
    rollupOptions: {
      output: {
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
