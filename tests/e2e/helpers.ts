import { createRequire } from 'node:module';
import { inject } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startServer, TEST_PASSWORD, type TestServer } from '../server/helpers';
import type { Config } from '../../server/config';
import { CHROMIUM_FLAGS } from '../chromium-flags';

// Drivers shared by every end-to-end test: the real server serving the built SPA, Debian's Chromium,
// and the steps a person takes (sign in as a role, open a page).

export { CHROMIUM_FLAGS };

export async function startApp(overrides: (c: Config) => void = () => {}): Promise<TestServer> {
  return startServer((c) => {
    c.staticDir = inject('distDir');
    overrides(c);
  });
}

function startChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: CHROMIUM_FLAGS,
  });
}

/**
 * Debian's Chromium, started once per test file. If the browser process itself goes away (it did
 * once on a loaded CI machine, between two tests, taking every later test of the file with it), the
 * next context or page starts a new one and says so on stderr. A page that crashes only loses its
 * tab, so this hides nothing the app does.
 */
export async function launchBrowser(): Promise<Browser> {
  let current = await startChromium();
  let restarting: Promise<Browser> | null = null;
  const watch = (b: Browser) =>
    b.on('disconnected', () => {
      if (!closing) console.warn(`e2e: Chromium went away at ${new Date().toISOString()}`);
    });
  let closing = false;
  watch(current);
  const live = async () => {
    if (current.isConnected()) return current;
    restarting ??= startChromium().then((b) => {
      console.warn('e2e: started a new Chromium');
      watch(b);
      current = b;
      restarting = null;
      return b;
    });
    return restarting;
  };
  return new Proxy(current, {
    get(_target, prop) {
      if (prop === 'newContext' || prop === 'newPage') {
        return async (...args: unknown[]) => {
          const b = await live();
          return (b[prop] as (...a: unknown[]) => unknown)(...args);
        };
      }
      if (prop === 'close') closing = true;
      const value = Reflect.get(current, prop, current) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(current) : value;
    },
  });
}

/** A fresh browser profile (no storage) with English or Russian as the browser's language. */
export async function newContext(browser: Browser, locale: 'en' | 'ru' = 'en'): Promise<BrowserContext> {
  return browser.newContext({ locale, viewport: { width: 1280, height: 800 } });
}

export async function signIn(page: Page, server: TestServer, email: string, password = TEST_PASSWORD) {
  await page.goto(`${server.url}/login`);
  await page.getByLabel(/email|почта/i).fill(email);
  await page.getByLabel(/password|пароль/i).fill(password);
  await page.getByRole('button', { name: /sign in|войти/i }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
}

/** Collects uncaught page errors so a test can assert there were none. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(process.env.E2E_STACKS ? `${e.message}\n${e.stack}` : e.message));
  return errors;
}

/** A page for accessibility audits: axe-core comes in as a script tag, which the app's CSP rightly blocks. */
export async function newAuditPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({
    locale: 'en',
    viewport: { width: 1280, height: 800 },
    bypassCSP: true,
  });
  return context.newPage();
}

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Every axe-core rule, experimental ones included (label-in-name is one of them), over the page as
 * it is now (or the part of it that `include`, a CSS selector, picks). Returns the findings of the
 * given impacts (serious and critical unless told).
 */
export async function axeFull(
  page: Page,
  impacts: string[] = ['serious', 'critical'],
  include?: string,
): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: axePath });
  const found = await page.evaluate(async (include) => {
    type Axe = {
      getRules: () => { ruleId: string }[];
      run: (
        ctx: unknown,
        opts: unknown,
      ) => Promise<{
        violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[];
      }>;
    };
    const axe = (window as unknown as { axe: Axe }).axe;
    const rules = axe.getRules().map((r) => r.ruleId);
    const result = await axe.run(include ? { include: [include] } : document, {
      runOnly: { type: 'rule', values: rules },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  }, include);
  return found.filter((f) => impacts.includes(f.impact));
}

/** One line per finding, for an assertion message that says what is wrong and where. */
export const axeLines = (findings: AxeFinding[]) =>
  findings.map((f) => `${f.impact} ${f.id}: ${f.targets.join(', ')}`);

// ---------------------------------------------------------------------------------------------
// The respondents page (/responses, issue 31).

/** The number of respondents the list says it has (after the first page answered). */
export async function responsesTotal(page: Page): Promise<number> {
  const el = page.locator('[data-total]');
  await el.and(page.locator(':not([data-total=""])')).waitFor();
  return Number(await el.getAttribute('data-total'));
}

/** Picks a choice of one of the list's filters by its label (the filters fold away on a phone). */
export async function filterResponses(page: Page, label: string, choice: string) {
  const control = page.getByLabel(label, { exact: true });
  if (!(await control.isVisible())) await page.getByRole('button', { name: /^Show filters/ }).click();
  await control.selectOption({ label: choice });
}

/** Selects everyone the list's filter matches and excludes them (or restores them) with a reason. */
export async function setEveryoneExcluded(page: Page, excluded: boolean, reason: string) {
  await page.getByRole('button', { name: /^Select everyone matching/ }).click();
  await page
    .getByRole('button', { name: excluded ? 'Exclude…' : 'Restore…' })
    .first()
    .click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(excluded ? 'Reason' : 'Reason (optional)', { exact: true }).fill(reason);
  await dialog.getByRole('button', { name: excluded ? /^Exclude \(/ : /^Restore \(/ }).click();
  await dialog.waitFor({ state: 'detached' });
}
