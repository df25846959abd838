import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  launchBrowser,
  newContext,
  signIn,
  startApp,
  watchErrors,
  axeFull,
  axeLines,
  newAuditPage,
} from './helpers';
import type { TestServer } from '../server/helpers';
import { startMailSink, type MailSink } from '../server/mail-sink';
import { Role } from '../../src/domain/roles';

// People end to end, in Chromium with a real SMTP sink: an administrator invites a researcher, the
// mail arrives, its link opens /invitations, the researcher sets a password and is signed in;
// deactivating them ends their session; /history shows these actions. Plus registration and the
// log's infinite scroll.

// The machine running the suite may be busy: wait for the page generously, never for a fixed time.
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 30_000 });

describe('people in Chromium', () => {
  let server: TestServer;
  let sink: MailSink;
  let browser: Browser;
  let adminEmail: string;

  beforeAll(async () => {
    sink = await startMailSink();
    server = await startApp((c) => {
      c.smtpUrl = sink.url;
    });
    // Links in mail point at this test server.
    server.config.publicUrl = server.url;
    browser = await launchBrowser();
    adminEmail = (
      await server.createUser({ role: Role.Administrator, email: 'boss@example.com', fullname: 'The Boss' })
    ).email;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await sink?.close();
  });

  const toast = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

  it('invites a researcher who sets a password from the mail; deactivation ends their session; the log shows it', async () => {
    const adminPage = await (await newContext(browser)).newPage();
    const adminErrors = watchErrors(adminPage);
    await signIn(adminPage, server, adminEmail);
    await adminPage.goto(`${server.url}/researchers`);
    await adminPage.getByRole('heading', { name: 'Researchers' }).waitFor();

    // Invite, creating the organization in place.
    await adminPage.getByRole('button', { name: 'Invite' }).click();
    const dialog = adminPage.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Invite a user' }).waitFor();
    // The form checks itself with the spec's messages before calling the server.
    await dialog.getByRole('button', { name: 'Invite' }).click();
    await poll(() => dialog.getByText('This field is required').count()).toBeGreaterThanOrEqual(2);
    const required = await dialog.getByText('This field is required').count();
    // Each message goes as its field is put right, before the next submit.
    await dialog.getByLabel('Email', { exact: true }).fill('Rita.Researcher@example.com');
    await poll(() => dialog.getByText('This field is required').count()).toBe(required - 1);
    await dialog.getByLabel('Full name').fill('Rita Researcher');
    await poll(() => dialog.getByText('This field is required').count()).toBe(required - 2);
    await dialog.getByRole('combobox', { name: 'Organization' }).fill('Rita Labs');
    await dialog.getByRole('option', { name: 'Create organization “Rita Labs”' }).click();
    await dialog.getByLabel('Organization name').waitFor();
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await expect
      .poll(() => dialog.getByRole('combobox', { name: 'Organization' }).inputValue())
      .toBe('Rita Labs');
    await dialog.getByLabel('Category').selectOption({ label: 'Retail and e-commerce' });
    await dialog.getByRole('button', { name: 'Invite' }).click();
    await toast(adminPage, 'Invitation sent to rita.researcher@example.com').waitFor();
    const row = adminPage.getByRole('row', { name: /rita\.researcher@example\.com/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('Rita Labs');
    expect(await row.textContent()).toContain('Retail and e-commerce');
    const statusSelect = adminPage.getByRole('combobox', { name: 'Status of rita.researcher@example.com' });
    expect(await statusSelect.locator('option:checked').textContent()).toBe('Invitation sent');

    // The mail arrives; its link opens /invitations in the researcher's own browser.
    const mail = await sink.waitFor('rita.researcher@example.com');
    expect(mail.subject).toBe('Invitation to the survey back-office');
    const link = new URL(mail.link!);
    expect(link.pathname).toBe('/invitations');
    const ritaPage = await (await newContext(browser)).newPage();
    const ritaErrors = watchErrors(ritaPage);
    await ritaPage.goto(`${server.url}${link.pathname}${link.search}`);
    await ritaPage
      .getByText('Account rita.researcher@example.com is confirmed. Set a password to sign in.')
      .waitFor();
    await ritaPage.getByLabel('Password', { exact: true }).fill('rita-secret-1');
    await ritaPage.getByLabel('Repeat the password').fill('rita-secret-2');
    await ritaPage.getByRole('button', { name: 'Set password' }).click();
    await ritaPage.getByText('Passwords must match').waitFor();
    await ritaPage.getByLabel('Repeat the password').fill('rita-secret-1');
    await ritaPage.getByRole('button', { name: 'Set password' }).click();
    // Signed straight in.
    await ritaPage.waitForURL((u) => u.pathname === '/profile');
    await poll(() => ritaPage.getByText('rita.researcher@example.com').count()).toBeGreaterThan(0);

    // The administrator sees her Activated, then deactivates her.
    await adminPage.reload();
    await poll(() => statusSelect.locator('option:checked').textContent()).toBe('Activated');
    await statusSelect.selectOption({ label: 'Deactivated' });
    const confirmDialog = adminPage.getByRole('dialog');
    await confirmDialog
      .getByText(
        'rita.researcher@example.com will not be able to sign in, and their open sessions end at once.',
      )
      .waitFor();
    await confirmDialog.getByRole('button', { name: 'Agree' }).click();
    await toast(adminPage, 'Status of rita.researcher@example.com: Deactivated').waitFor();
    await poll(() => statusSelect.locator('option:checked').textContent()).toBe('Deactivated');

    // Her open session ends at once: the next thing she does sends her to the login page.
    await ritaPage.reload();
    await ritaPage.waitForURL((u) => u.pathname === '/login');
    await ritaPage.getByLabel('Email').fill('rita.researcher@example.com');
    await ritaPage.getByLabel('Password').fill('rita-secret-1');
    await ritaPage.getByRole('button', { name: 'Sign in' }).click();
    await ritaPage.getByRole('alert').waitFor();
    expect(new URL(ritaPage.url()).pathname).toBe('/login');

    // The log shows what happened, newest first, and filters by email and chapter.
    await adminPage.goto(`${server.url}/history`);
    await adminPage.getByRole('heading', { name: 'Logs' }).waitFor();
    await adminPage.getByLabel('User email').fill('rita.researcher');
    await poll(() => adminPage.getByRole('row').count()).toBe(4); // header + 3 entries by her
    const messages = await adminPage.locator('tbody tr td:last-child').allTextContents();
    expect(messages).toEqual(['Signed in', 'Password set with the mailed link', 'Invitation confirmed']);
    await adminPage.getByLabel('User email').fill('');
    await adminPage.getByLabel('Chapter').selectOption({ label: 'Users' });
    await expect
      .poll(() => adminPage.locator('tbody tr td:last-child').allTextContents())
      .toEqual([
        'Status of rita.researcher@example.com: Activated → Deactivated',
        'Created user rita.researcher@example.com (Researcher)',
      ]);
    const adminRow = adminPage.locator('tbody tr').first();
    expect(await adminRow.textContent()).toContain('boss@example.com');
    expect(await adminRow.textContent()).toContain('PUT /user');

    expect(adminErrors).toEqual([]);
    expect(ritaErrors).toEqual([]);
  });

  it('searches, sorts, edits, resends, sets a password and deletes from the table', async () => {
    const orgId = await server.createOrganization('Table Org');
    // Created the way the product creates them (Ivan and Anna with a password, so no mail).
    const adminSession = await server.login(adminEmail);
    const create = async (email: string, fullname: string, password?: string) => {
      const body = {
        email,
        fullname,
        roles: [Role.Issuer],
        organizationId: orgId,
        ...(password ? { password } : {}),
      };
      expect((await server.call('POST', '/user', { body, session: adminSession })).status).toBe(201);
    };
    await create('ivan.issuer@example.com', 'Иван Издатель', 'ivan-pass-1');
    await create('anna.issuer@example.com', 'Anna Issuer', 'anna-pass-1');
    await create('pending.issuer@example.com', 'Pending Issuer');
    const firstMail = await sink.waitFor('pending.issuer@example.com');

    const page = await (await newContext(browser)).newPage();
    const errors = watchErrors(page);
    await signIn(page, server, adminEmail);
    await page.goto(`${server.url}/issuers`);
    const emails = () => page.locator('tbody tr td:first-child').allTextContents();
    await expect
      .poll(emails)
      .toEqual(['pending.issuer@example.com', 'anna.issuer@example.com', 'ivan.issuer@example.com']);

    // Sort by full name, then search case-insensitively in Cyrillic.
    await page.getByRole('button', { name: 'Full name' }).click();
    await expect
      .poll(emails)
      .toEqual(['anna.issuer@example.com', 'pending.issuer@example.com', 'ivan.issuer@example.com']);
    await page.getByLabel('Search by email or name').fill('ИВАН');
    await poll(emails).toEqual(['ivan.issuer@example.com']);
    await page.getByLabel('Search by email or name').fill('nobody-like-this');
    await page.getByText('Nobody matches “nobody-like-this”').waitFor();
    await page.getByLabel('Search by email or name').fill('');
    await poll(async () => (await emails()).length).toBe(3);

    // Edit: a taken email is refused under the field; a new name is saved.
    await page.getByRole('button', { name: 'Edit: anna.issuer@example.com' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Email', { exact: true }).fill('ivan.issuer@example.com');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('An account with this email address already exists').waitFor();
    await dialog.getByLabel('Email', { exact: true }).fill('anna.issuer@example.com');
    await dialog.getByLabel('Full name').fill('Anna Renamed');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Changes saved').waitFor();
    await page.getByRole('cell', { name: 'Anna Renamed' }).waitFor();

    // Resend: a new link arrives and the first one stops working.
    await page.getByRole('button', { name: 'Resend invitation: pending.issuer@example.com' }).click();
    await toast(
      page,
      'A new invitation was sent to pending.issuer@example.com; the previous link no longer works',
    ).waitFor();
    const secondMail = await sink.waitFor('pending.issuer@example.com', 2);
    expect(secondMail.token).not.toBe(firstMail.token);
    const old = await server.call('POST', '/invitations/confirm', { body: { token: firstMail.token } });
    expect(old.body.code).toBe('invalid-code');

    // Set a new password for Ivan: he signs in with it.
    await page.getByRole('button', { name: 'Set a new password: ivan.issuer@example.com' }).click();
    await dialog.getByLabel('New password').fill('ivan-new-pass1');
    await dialog.getByLabel('Repeat the password').fill('ivan-new-pass1');
    await dialog.getByRole('button', { name: 'Set password' }).click();
    await toast(
      page,
      'Password set for ivan.issuer@example.com; their previous sessions have ended',
    ).waitFor();
    await server.login('ivan.issuer@example.com', 'ivan-new-pass1');

    // Delete asks first; Cancel keeps the user, Agree removes them.
    await page.getByRole('button', { name: 'Delete: ivan.issuer@example.com' }).click();
    await dialog
      .getByText('User ivan.issuer@example.com will be deleted for good. Their sessions end at once.')
      .waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await emails()).toContain('ivan.issuer@example.com');
    await page.getByRole('button', { name: 'Delete: ivan.issuer@example.com' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'User ivan.issuer@example.com deleted').waitFor();
    await poll(emails).not.toContain('ivan.issuer@example.com');
    expect(errors).toEqual([]);
  });

  it('mails a reset link from "Forgot your password?" on the login page', async () => {
    await server.createUser({
      role: Role.Researcher,
      email: 'forgetful@example.com',
      organizationId: await server.createOrganization(),
    });
    const page = await (await newContext(browser)).newPage();
    await page.goto(`${server.url}/login`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL((u) => u.pathname === '/invitations');
    await page.getByLabel('Email').fill('forgetful@example.com');
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page
      .getByText(
        'If account forgetful@example.com exists and is active, an email with the link is on its way.',
      )
      .waitFor();
    const mail = await sink.waitFor('forgetful@example.com');
    const link = new URL(mail.link!);
    await page.goto(`${server.url}${link.pathname}${link.search}`);
    await page.getByRole('heading', { name: 'New password' }).waitFor();
    await page.getByLabel('Password', { exact: true }).fill('remembered-1');
    await page.getByLabel('Repeat the password').fill('remembered-1');
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.waitForURL((u) => u.pathname === '/profile');
  });

  it('shows a used or broken link the spec messages', async () => {
    const page = await (await newContext(browser)).newPage();
    await page.goto(`${server.url}/invitations?token=${'x'.repeat(43)}`);
    await page.getByRole('alert').getByText('Invalid code entered, please repeat').waitFor();
    await page.goto(`${server.url}/invitations?token=broken`);
    await page.getByRole('alert').getByText('Invalid confirmation link').waitFor();
  });

  it('registers a demo researcher and says an email with instructions was sent', async () => {
    const page = await (await newContext(browser)).newPage();
    await page.goto(`${server.url}/login`);
    await page.getByRole('link', { name: 'Register' }).click();
    await page.waitForURL((u) => u.pathname === '/register');
    await page.getByLabel('Email').fill('boss@example.com');
    await page.getByLabel('Full name').fill('Someone Else');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByText('An account with this email address already exists').waitFor();
    await page.getByLabel('Email').fill('dana.demo@example.com');
    await page.getByLabel('Full name').fill('Dana Demo');
    await page.getByRole('button', { name: 'Register' }).click();
    await page
      .getByText(
        'An email with instructions was sent to dana.demo@example.com. Open the link in it to set your password.',
      )
      .waitFor();
    const mail = await sink.waitFor('dana.demo@example.com');
    expect(mail.subject).toBe('Registration at the survey back-office');
  });

  it('loads more log entries as the list is scrolled to its end', async () => {
    const base = Date.now() - 3600_000;
    const rows = Array.from({ length: 230 }, (_, i) => ({
      user_id: null,
      email: 'scroll@example.com',
      organization: 'Scroll Org',
      chapter: 'games',
      service: 'POST /games',
      message_key: 'people.log.userDeleted',
      message_params: JSON.stringify({ email: `row${i}@example.com` }),
      created_at: base + i,
    }));
    for (let i = 0; i < rows.length; i += 50)
      await server.app.db
        .insertInto('history')
        .values(rows.slice(i, i + 50))
        .execute();
    const page = await (await newContext(browser)).newPage();
    await signIn(page, server, adminEmail);
    await page.goto(`${server.url}/history`);
    await page.getByLabel('User email').fill('scroll@');
    // The filtered first page has replaced the unfiltered one.
    const emails = () => page.locator('tbody tr td:nth-child(2)').allTextContents();
    await expect
      .poll(async () => (await emails()).filter((e) => e === 'scroll@example.com').length)
      .toBe(100);
    expect(await page.locator('tbody tr').count()).toBe(100);
    // Scrolling to the last row brings the end of the list into view: the next page comes.
    const toEnd = () =>
      page
        .locator('tbody tr')
        .last()
        .evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await toEnd();
    await poll(() => page.locator('tbody tr').count()).toBe(200);
    await toEnd();
    await poll(() => page.locator('tbody tr').count()).toBe(230);
    await page.getByText('That is all the entries').waitFor();
    const texts = await page.locator('tbody tr td:last-child').allTextContents();
    expect(new Set(texts).size).toBe(230);
    expect(texts[0]).toBe('Deleted user row229@example.com');
  });

  it('has no serious or critical axe findings (every rule) on the people pages and their dialogs', async () => {
    const page = await newAuditPage(browser);
    const audit = async () => axeLines(await axeFull(page));
    await page.goto(`${server.url}/register`);
    await page.getByRole('button', { name: 'Register' }).waitFor();
    expect(await audit()).toEqual([]);
    await page.goto(`${server.url}/invitations`);
    await page.getByRole('button', { name: 'Send the link' }).waitFor();
    expect(await audit()).toEqual([]);

    await signIn(page, server, adminEmail);
    await page.goto(`${server.url}/moderators`);
    await page.getByRole('heading', { name: 'Moderators' }).waitFor();
    await poll(() => page.getByRole('progressbar').count()).toBe(0);
    expect(await audit()).toEqual([]);
    await page.getByRole('button', { name: 'Invite' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('combobox', { name: 'Organization' }).fill('Axe Org');
    await dialog.getByRole('option', { name: 'Create organization “Axe Org”' }).click();
    await dialog.getByLabel('Organization name').waitFor();
    expect(await audit()).toEqual([]);
    await page.keyboard.press('Escape');
    await page.goto(`${server.url}/history`);
    await page
      .getByText('That is all the entries')
      .or(page.getByRole('button', { name: 'Load more' }))
      .first()
      .waitFor();
    expect(await audit()).toEqual([]);
  });

  it('speaks Russian to a Russian browser', async () => {
    const page = await (await newContext(browser, 'ru')).newPage();
    await signIn(page, server, adminEmail);
    await page.goto(`${server.url}/moderators`);
    await page.getByRole('heading', { name: 'Модераторы' }).waitFor();
    for (const header of [
      'Эл. почта',
      'ФИО',
      'Роль',
      'Организация',
      'Категория',
      'Статус',
      'Дата регистрации',
    ]) {
      await page.getByRole('columnheader', { name: header }).waitFor();
    }
    await page.getByRole('button', { name: 'Пригласить' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Пригласить пользователя' }).waitFor();
    await dialog.getByLabel('Эл. почта').fill('не-адрес');
    await dialog.getByRole('button', { name: 'Пригласить' }).click();
    await dialog.getByText('Пожалуйста, введите корректный email').waitFor();
    await dialog.getByText('Это поле обязательно').waitFor();
  });
});
