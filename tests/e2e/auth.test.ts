import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newContext, signIn, startApp, watchErrors } from './helpers';
import type { TestServer } from '../server/helpers';
import { Role } from '../../src/domain/roles';

describe('signing in and out in Chromium', () => {
  let server: TestServer;
  let browser: Browser;
  let email: string;

  beforeAll(async () => {
    server = await startApp();
    browser = await launchBrowser();
    email = (
      await server.createUser({ role: Role.Researcher, organizationId: await server.createOrganization() })
    ).email;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('sends a signed-out visitor to login with redirectedFrom, then back to the page after sign-in', async () => {
    const page = await (await newContext(browser)).newPage();
    const errors = watchErrors(page);
    await page.goto(`${server.url}/reports`);
    await page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(page.url()).search).toBe('?redirectedFrom=%2Freports');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('password1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((u) => u.pathname === '/reports');
    expect(errors).toEqual([]);
  });

  it('keeps the full path with its query in redirectedFrom', async () => {
    const page = await (await newContext(browser)).newPage();
    await page.goto(`${server.url}/project?pid=12`);
    await page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirectedFrom')).toBe('/project?pid=12');
  });

  it('shows the spec message for a wrong password and stays on login', async () => {
    const page = await (await newContext(browser)).newPage();
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not-the-password1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Wrong credentials');
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await page.evaluate(() => localStorage.getItem('auth'))).toBeNull();
  });

  it('validates the form before calling the server', async () => {
    const page = await (await newContext(browser)).newPage();
    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByText('This field is required').count()).toBe(2);
    await page.getByLabel('Email').fill('not-an-email');
    await expect.poll(() => page.getByText('Please enter a valid email').count()).toBe(1);
  });

  it('lands on /profile, survives a reload, and signs out to /login', async () => {
    const page = await (await newContext(browser)).newPage();
    await signIn(page, server, email);
    expect(new URL(page.url()).pathname).toBe('/profile');
    await page.reload();
    await page.waitForLoadState('networkidle');
    expect(new URL(page.url()).pathname).toBe('/profile');
    await expect.poll(() => page.getByText(email).count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Logout' }).first().click();
    await page.waitForURL((u) => u.pathname === '/login');
    expect(await page.evaluate(() => localStorage.getItem('auth'))).toBeNull();
    // The session is gone on the server too: the old page cannot come back.
    await page.goto(`${server.url}/profile`);
    await page.waitForURL((u) => u.pathname === '/login');
  });
});
