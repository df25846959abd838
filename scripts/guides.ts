// `npm run guides`: makes the helper guides' slides (spec section 2) from the running app.
//
// It builds the SPA, starts the real server on a temporary SQLite database with a mail sink,
// registers a demo researcher per language through POST /researcher and the mailed link (which
// also gives them the example project), adds a direct-link project through the API, then drives
// headless Chromium through every guide's steps in ru and en. Each slide is the screen with the
// control in question outlined and the slide's caption (i18n `guides.captions`) drawn beside it,
// encoded as WebP by the browser's own canvas and written to public/guides/<guide>/<locale>/<n>.webp
// (at most 80 KB each: the quality steps down until it fits); the captions drawn go to
// public/guides/captions.json.
//
// Controls are found by role and accessible name, the names taken from the app's i18n texts, with
// a list of candidates per step (the screens change): when none is on the page the slide is the page
// as it is, and a warning says so. Options: --dist <dir> reuses a build, --guide <id> and
// --locale <ru|en> make only some slides, --out <dir> writes elsewhere (default public/guides).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { build } from 'vite';
import { CHROMIUM_FLAGS } from '../tests/e2e/helpers';
import { startServer, type Session, type TestServer } from '../tests/server/helpers';
import { startMailSink } from '../tests/server/mail-sink';
import { translateKey, translator } from '../server/http/i18n';
import { exampleContent } from '../src/domain/demo';
import {
  captionKey,
  GUIDE_IDS,
  GUIDE_LOCALES,
  GUIDE_SLIDE_HEIGHT,
  GUIDE_SLIDE_MAX_BYTES,
  GUIDE_SLIDE_WIDTH,
  GUIDES,
  isGuideId,
  type GuideId,
} from '../src/domain/guides';
import type { Locales } from '../src/i18n/i18n-types';

const PASSWORD = 'guides-demo-1';
/** How long one candidate may take to appear before the next is tried. */
const FIND_MS = 2500;
const QUALITIES = [0.82, 0.74, 0.66, 0.58, 0.5, 0.42, 0.34];

// ---------------------------------------------------------------------------------------------
// The steps of each guide.

interface Ctx {
  page: Page;
  locale: Locales;
  /** The text of an i18n key in this locale, or null when the key does not exist (yet). */
  text: (key: string, params?: Record<string, unknown>) => string | null;
  seed: Seed;
}

/** One way to find a control; null when it cannot apply (its text key is missing). */
type Candidate = (ctx: Ctx) => Locator | null;

interface Step {
  /** Page to open first (relative to the app), when the step needs another page. */
  go?: (seed: Seed) => string;
  /** Things to do before the picture (open a pane, select an item); each is tried, none required. */
  before?: Candidate[];
  /** The control to outline: the first candidate present on the page. */
  target: Candidate[];
  /** Things to do after the picture, to leave the page as the next step expects. */
  after?: Candidate[];
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A role whose accessible name contains the i18n text of one of the keys. */
const role =
  (r: Parameters<Page['getByRole']>[0], key: string, params?: Record<string, unknown>): Candidate =>
  ({ page, text }) => {
    const name = text(key, params);
    return name ? page.getByRole(r, { name: new RegExp(escape(name), 'i') }) : null;
  };
/** Any element labelled (aria-label, label) with the i18n text. */
const label =
  (key: string): Candidate =>
  ({ page, text }) => {
    const name = text(key);
    return name ? page.getByLabel(name, { exact: false }) : null;
  };
const css =
  (selector: string): Candidate =>
  ({ page }) =>
    page.locator(selector);

const editorCanvas = [
  role('region', 'editor.frame.canvas.label'),
  label('editor.frame.canvas.label'),
  css('[data-testid="editor-canvas"], [data-testid="canvas"]'),
  role('navigation', 'editor.page.outline'),
];
const editorItemPanel = [
  role('tabpanel', 'editor.frame.tabs.item'),
  css('[data-testid="item-panel"]'),
  role('complementary', 'editor.frame.tabs.label'),
  css('aside'),
];
const selectQuestion: Candidate[] = [
  role('treeitem', 'editor.frame.outline.question', { n: 1 }),
  css('[data-testid="canvas-node-question"]'),
  role('textbox', 'editor.page.questionText', { n: 1 }),
];
const tool = (name: string, legacy?: string) =>
  [role('button', `editor.frame.tools.${name}`), legacy ? role('button', legacy) : null].filter(
    (c): c is Candidate => c !== null,
  );
const previewPane = [role('region', 'editor.frame.preview.label'), css('[data-testid="preview"]')];

const editorOf = (pid: (s: Seed) => number) => (s: Seed) => `/project?pid=${pid(s)}`;

const STEPS: Record<GuideId, Step[]> = {
  'lk/demo-researcher': [
    { go: () => '/projects', target: [role('link', 'shell.menu.questionnaires')] },
    {
      target: [
        ({ page, text, seed }) =>
          page
            .getByRole('row')
            .filter({ hasText: seed.exampleName })
            .getByRole('link', { name: text('projects.actions.open') ?? 'Open' }),
        ({ page, seed }) => page.getByRole('row').filter({ hasText: seed.exampleName }),
      ],
    },
    { target: [role('button', 'projects.list.create'), role('link', 'projects.list.create')] },
    { go: () => '/reports', target: [role('link', 'shell.menu.reports')] },
    { target: [role('button', 'shell.header.help')] },
    {
      go: () => '/profile',
      target: [role('button', 'shell.header.userMenu'), css('header [aria-haspopup]')],
    },
  ],
  'project-editor/default': [
    { go: editorOf((s) => s.examplePid), target: editorCanvas },
    { target: [...tool('addBlock', 'editor.page.addBlock')] },
    { before: selectQuestion, target: editorItemPanel },
    { target: [...tool('undo', 'editor.page.undo')] },
    { target: tool('connections') },
    { before: tool('preview'), target: [...previewPane, ...tool('preview')], after: tool('preview') },
    { target: [...tool('import', 'editor.import.title')] },
    { target: tool('projectSettings') },
    { target: [...tool('save', 'editor.page.save')] },
    { target: tool('sendModeration') },
  ],
  'project-editor/direct-link': [
    { go: editorOf((s) => s.directLinkPid), target: editorCanvas },
    { target: [...tool('addBlock', 'editor.page.addBlock')] },
    { before: selectQuestion, target: editorItemPanel },
    { target: [...tool('undo', 'editor.page.undo')] },
    { before: tool('preview'), target: [...previewPane, ...tool('preview')], after: tool('preview') },
    { target: [...tool('save', 'editor.page.save')] },
    { target: tool('surveyLink') },
    { target: tool('openReport') },
  ],
};

// ---------------------------------------------------------------------------------------------
// Seeding: what the guides show, made through the API as a user would.

interface Seed {
  email: string;
  exampleName: string;
  examplePid: number;
  directLinkPid: number;
}

async function seed(
  server: TestServer,
  sink: Awaited<ReturnType<typeof startMailSink>>,
  locale: Locales,
): Promise<Seed> {
  const t = translator(locale);
  const email = `demo-${locale}@example.org`;
  const fullname = locale === 'ru' ? 'Мария Иванова' : 'Mary Smith';
  const ok = <R extends { status: number; body: unknown }>(res: R, what: string): R => {
    if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
    return res;
  };
  ok(await server.call('POST', '/researcher', { body: { email, fullname }, locale }), 'register');
  const mail = await sink.waitFor(email);
  if (!mail.token) throw new Error('the registration mail has no link');
  ok(
    await server.call('POST', '/user/password-reset', {
      body: { token: mail.token, password: PASSWORD },
      locale,
    }),
    'set password',
  );
  const session: Session = await server.login(email, PASSWORD);
  const list = ok(await server.call('GET', '/projects', { session, locale }), 'projects');
  const example = (list.body as { id: number; name: string }[])[0];
  if (!example) throw new Error('the demo researcher has no example project');

  const created = ok(
    await server.call('POST', '/projects', {
      body: { name: t.guides.demo.example.ownAudienceName(), template: 'directLink' },
      session,
      locale,
    }),
    'create the direct-link project',
  );
  const pid = (created.body as { id: number }).id;
  const current = ok(await server.call('GET', `/project?pid=${pid}`, { session, locale }), 'open');
  ok(
    await server.call('POST', '/project', {
      body: { pid, content: exampleContent(t) },
      headers: { 'if-match': current.headers.get('etag') ?? '"0"' },
      session,
      locale,
    }),
    'save the direct-link questionnaire',
  );
  return { email, exampleName: example.name, examplePid: example.id, directLinkPid: pid };
}

// ---------------------------------------------------------------------------------------------
// Drawing and encoding a slide.

/** Outlines the element (when given) and draws the caption beside it, inside the page. */
async function decorate(page: Page, box: Box | null, caption: string, counter: string) {
  await page.evaluate(
    ({ box, caption, counter }) => {
      document.getElementById('guide-shot')?.remove();
      const root = document.createElement('div');
      root.id = 'guide-shot';
      root.style.cssText =
        'position:fixed;inset:0;z-index:2147483647;pointer-events:none;font-family:system-ui,sans-serif';
      const W = window.innerWidth;
      const H = window.innerHeight;
      const pad = 6;
      let ring: { x: number; y: number; w: number; h: number } | null = null;
      if (box) {
        const x = Math.max(2, box.x - pad);
        const y = Math.max(2, box.y - pad);
        ring = {
          x,
          y,
          w: Math.min(W - 2, box.x + box.width + pad) - x,
          h: Math.min(H - 2, box.y + box.height + pad) - y,
        };
        const r = document.createElement('div');
        r.style.cssText = `position:absolute;left:${ring.x}px;top:${ring.y}px;width:${ring.w}px;height:${ring.h}px;border-radius:10px;outline:4px solid #f59e0b;box-shadow:0 0 0 9999px rgba(15,23,42,.38)`;
        root.append(r);
      } else {
        root.style.background = 'rgba(15,23,42,.18)';
      }
      const note = document.createElement('div');
      note.style.cssText =
        'position:absolute;max-width:440px;box-sizing:border-box;padding:14px 16px;border-radius:12px;background:#fff;border:3px solid #f59e0b;box-shadow:0 10px 30px rgba(15,23,42,.35);color:#0f172a;font-size:19px;line-height:1.35';
      const step = document.createElement('div');
      step.textContent = counter;
      step.style.cssText = 'font-size:14px;font-weight:600;color:#b45309;margin-bottom:4px';
      const body = document.createElement('div');
      body.textContent = caption;
      note.append(step, body);
      root.append(note);
      document.body.append(root);
      const nw = note.offsetWidth;
      const nh = note.offsetHeight;
      const gap = 16;
      let left: number;
      let top: number;
      if (!ring) {
        left = (W - nw) / 2;
        top = H - nh - 32;
      } else if (ring.y + ring.h + gap + nh <= H) {
        left = ring.x + ring.w / 2 - nw / 2;
        top = ring.y + ring.h + gap;
      } else if (ring.y - gap - nh >= 0) {
        left = ring.x + ring.w / 2 - nw / 2;
        top = ring.y - gap - nh;
      } else if (ring.x - gap - nw >= 0) {
        left = ring.x - gap - nw;
        top = ring.y + ring.h / 2 - nh / 2;
      } else if (ring.x + ring.w + gap + nw <= W) {
        left = ring.x + ring.w + gap;
        top = ring.y + ring.h / 2 - nh / 2;
      } else {
        // The control fills the screen (the canvas): the caption goes inside it, at the bottom.
        left = (W - nw) / 2;
        top = H - nh - 32;
      }
      note.style.left = `${Math.round(Math.min(Math.max(12, left), W - nw - 12))}px`;
      note.style.top = `${Math.round(Math.min(Math.max(12, top), H - nh - 12))}px`;
    },
    { box, caption, counter },
  );
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** PNG → WebP with the browser's encoder, stepping the quality down until it fits the budget. */
async function toWebp(encoder: Page, png: Buffer): Promise<{ bytes: Buffer; quality: number }> {
  for (const quality of QUALITIES) {
    const dataUrl = await encoder.evaluate(
      async ({ b64, quality, w, h }) => {
        const img = new Image();
        img.src = `data:image/png;base64,${b64}`;
        await img.decode();
        const canvas = document.createElement('canvas');
        canvas.width = w;
        canvas.height = h;
        canvas.getContext('2d')!.drawImage(img, 0, 0, w, h);
        return canvas.toDataURL('image/webp', quality);
      },
      { b64: png.toString('base64'), quality, w: GUIDE_SLIDE_WIDTH, h: GUIDE_SLIDE_HEIGHT },
    );
    if (!dataUrl.startsWith('data:image/webp')) throw new Error('this Chromium cannot encode WebP');
    const bytes = Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
    if (bytes.length <= GUIDE_SLIDE_MAX_BYTES) return { bytes, quality };
  }
  throw new Error(`a slide stays above ${GUIDE_SLIDE_MAX_BYTES} bytes at the lowest quality`);
}

// ---------------------------------------------------------------------------------------------
// Driving the app.

async function first(ctx: Ctx, candidates: Candidate[], ms = FIND_MS): Promise<Locator | null> {
  for (const make of candidates) {
    const loc = make(ctx)?.first();
    if (!loc) continue;
    try {
      await loc.waitFor({ state: 'visible', timeout: ms });
      return loc;
    } catch {
      /* not there: the next candidate */
    }
  }
  return null;
}

async function settle(page: Page) {
  await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => {});
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForTimeout(400);
}

/** Waits (a few seconds at most) for the graph's loading note to go and its canvas to have pixels. */
async function graphDrawn(ctx: Ctx) {
  const loading = ctx.text('editor.frame.canvas.loading');
  if (loading)
    await ctx.page
      .getByText(loading)
      .waitFor({ state: 'hidden', timeout: 8000 })
      .catch(() => {});
  await ctx.page
    .waitForFunction(
      () =>
        [...document.querySelectorAll('canvas')].some((c) => {
          const g = c.getContext('2d');
          if (!g || c.width === 0 || c.height === 0) return false;
          const { data } = g.getImageData(0, 0, c.width, c.height);
          for (let i = 3; i < data.length; i += 4 * 97) if (data[i] !== 0) return true;
          return false;
        }),
      undefined,
      { timeout: 8000, polling: 500 },
    )
    .catch(() => console.warn('  (the graph has drawn nothing yet)'));
  await settle(ctx.page);
}

async function signIn(page: Page, base: string, ctx: Ctx) {
  await page.goto(`${base}/login`);
  await page.getByLabel(ctx.text('auth.login.email') ?? 'Email', { exact: true }).fill(ctx.seed.email);
  await page.getByLabel(ctx.text('auth.login.password') ?? 'Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: ctx.text('auth.login.submit') ?? 'Sign in', exact: true }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
}

async function shootGuide(
  guide: GuideId,
  ctx: Ctx,
  base: string,
  encoder: Page,
  outDir: string,
  warnings: string[],
) {
  const { page, locale } = ctx;
  const steps = STEPS[guide];
  const dir = path.join(outDir, guide, locale);
  fs.mkdirSync(dir, { recursive: true });
  for (const f of fs.readdirSync(dir)) fs.rmSync(path.join(dir, f));
  const captions = translator(locale).guides.captions[GUIDES[guide].title] as Record<string, () => string>;
  const drawn: string[] = [];
  for (const [i, step] of steps.entries()) {
    const n = i + 1;
    const where = `${guide} ${locale} slide ${n}`;
    if (step.go) {
      await page.goto(base + step.go(ctx.seed));
      await settle(page);
      // The editor's graph is laid out in a worker after the page has loaded.
      if (page.url().includes('/project?')) await graphDrawn(ctx);
    }
    for (const action of step.before ?? []) {
      const loc = await first(ctx, [action], 1500);
      if (loc) {
        await loc.click().catch(() => {});
        await settle(page);
        break;
      }
    }
    const target = await first(ctx, step.target);
    if (!target)
      warnings.push(`${where}: the control is not on the page yet; the slide shows the page as it is`);
    await target?.scrollIntoViewIfNeeded().catch(() => {});
    const box = (await target?.boundingBox()) ?? null;
    // No hover or focus tooltip of the last click in the picture.
    await page.mouse.move(GUIDE_SLIDE_WIDTH - 1, GUIDE_SLIDE_HEIGHT - 1);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur?.());
    await page.waitForTimeout(200);
    const caption = captions[captionKey(n)]();
    drawn.push(caption);
    await decorate(page, box, caption, translator(locale).shell.guide.slide({ n, total: steps.length }));
    const png = await page.screenshot({ animations: 'disabled', caret: 'hide' });
    await page.evaluate(() => document.getElementById('guide-shot')?.remove());
    const { bytes, quality } = await toWebp(encoder, png);
    fs.writeFileSync(path.join(dir, `${n}.webp`), bytes);
    console.log(
      `  ${where}: ${(bytes.length / 1024).toFixed(1)} KB (quality ${quality})${target ? '' : ' [no highlight]'}`,
    );
    for (const action of step.after ?? []) {
      const loc = await first(ctx, [action], 1000);
      if (loc) {
        await loc.click().catch(() => {});
        break;
      }
    }
  }
  // The captions drawn into the pictures, kept beside them in <out>/captions.json: the unit test of
  // the guides compares them with the i18n captions, so a caption changed without making its slides
  // again is caught (issue #26).
  const file = path.join(outDir, 'captions.json');
  const all = fs.existsSync(file)
    ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string[]>)
    : {};
  all[`${guide}/${locale}`] = drawn;
  const sorted = Object.fromEntries(Object.entries(all).sort(([a], [b]) => a.localeCompare(b)));
  fs.writeFileSync(file, `${JSON.stringify(sorted, null, 2)}\n`);
}

async function buildApp(): Promise<{ dir: string; cleanup: () => void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'guides-dist-'));
  process.env.NODE_ENV = 'production';
  console.log('Building the app…');
  await build({ logLevel: 'warn', mode: 'production', build: { outDir: dir, emptyOutDir: true } });
  return { dir, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

async function main() {
  const { values } = parseArgs({
    options: {
      dist: { type: 'string' },
      guide: { type: 'string', multiple: true },
      locale: { type: 'string', multiple: true },
      out: { type: 'string', default: 'public/guides' },
    },
  });
  const guides = (values.guide ?? GUIDE_IDS).filter((g): g is GuideId => {
    if (!isGuideId(g)) throw new Error(`unknown guide ${g}; one of ${GUIDE_IDS.join(', ')}`);
    return true;
  });
  const locales = (values.locale ?? GUIDE_LOCALES).filter((l): l is Locales => {
    if (!(GUIDE_LOCALES as string[]).includes(l)) throw new Error(`unknown locale ${l}`);
    return true;
  });
  const outDir = path.resolve(values.out!);

  const dist = values.dist ? { dir: path.resolve(values.dist), cleanup: () => {} } : await buildApp();
  const sink = await startMailSink();
  const server = await startServer((c) => {
    c.staticDir = dist.dir;
    c.smtpUrl = sink.url;
  });
  let browser: Browser | null = null;
  const warnings: string[] = [];
  try {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: CHROMIUM_FLAGS,
    });
    const encoder = await (await browser.newContext()).newPage();
    for (const locale of locales) {
      const seeded = await seed(server, sink, locale);
      const context = await browser.newContext({
        locale,
        viewport: { width: GUIDE_SLIDE_WIDTH, height: GUIDE_SLIDE_HEIGHT },
        deviceScaleFactor: 1,
        // The outline and caption are drawn by a script in the page, which the app's CSP would refuse.
        bypassCSP: true,
        reducedMotion: 'reduce',
      });
      // Every guide counts as seen (so the first-login guide does not cover the screens), the side
      // menu is open with its labels, and the app speaks the slide's language.
      await context.addInitScript(
        ({ locale, seen }) => {
          localStorage.setItem('app-helpers', JSON.stringify(seen));
          localStorage.setItem('app-settings', JSON.stringify({ locale, shrinkSideMenu: false }));
        },
        { locale, seen: Object.fromEntries(GUIDE_IDS.map((g) => [g, 1])) },
      );
      const page = await context.newPage();
      const ctx: Ctx = {
        page,
        locale,
        seed: seeded,
        text: (key, params) => {
          const s = translateKey(locale, key, params);
          return s === key ? null : s;
        },
      };
      await signIn(page, server.url, ctx);
      for (const guide of guides) {
        console.log(`${guide} (${locale})`);
        await shootGuide(guide, ctx, server.url, encoder, outDir, warnings);
      }
      await context.close();
    }
  } finally {
    await browser?.close();
    await server.close();
    await sink.close();
    dist.cleanup();
  }
  for (const w of warnings) console.warn(`warning: ${w}`);
  console.log(
    `Slides written to ${path.relative(process.cwd(), outDir)}; ${warnings.length} without a highlight.`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
