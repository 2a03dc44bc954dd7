import { MESSAGES } from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fillSignup,
  type Harness,
  logIn,
  logOut,
  person,
  screenshot,
  screenshotOnFailure,
  signUp,
  startHarness,
} from './harness';

describe('sign-in and session', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('signs up to /home, logs out, and returns to the private page after logging in again', async () => {
    const { page } = await h.newPage();
    const ada = person('ada');
    await page.goto('/login');
    await page.getByRole('button', { name: 'Login' }).waitFor();
    await screenshot(page, 'login');
    await signUp(page, ada);
    await page.getByRole('heading', { name: new RegExp(`, ${ada.firstName}!`) }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeTruthy();
    await screenshot(page, 'home');

    await logOut(page);
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();

    await page.goto('/roles?tab=features');
    await page.waitForURL('**/login?returnUrl=*');
    expect(new URL(page.url()).searchParams.get('returnUrl')).toBe('/roles?tab=features');
    await logIn(page, ada.email, ada.password);
    await page.waitForURL('**/roles?tab=features');
    await page.getByRole('heading', { name: 'Features' }).waitFor();
  });

  it('edits the profile and changes the password, showing the server detail on failure', async () => {
    const { page } = await h.newPage();
    screenshotOnFailure(page, 'profile');
    const cleo = person('cleo');
    await signUp(page, cleo);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Profile' }).click();
    await page.waitForURL('**/profile');

    await page.getByLabel('First name').fill('Cleopatra');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('alert').filter({ hasText: MESSAGES.users.profileUpdated }).first().waitFor();
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menu').getByText(`Cleopatra ${cleo.lastName}`).waitFor();
    await page.keyboard.press('Escape');

    const form = page.getByRole('form', { name: 'Change password' });
    await form.getByLabel('Current password').fill('not-my-password');
    await form.getByLabel('New password', { exact: true }).fill('another-secret-9');
    await form.getByLabel('Confirm new password').fill('another-secret-9');
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByRole('alert').filter({ hasText: MESSAGES.auth.currentPasswordWrong }).waitFor();

    await form.getByLabel('Current password').fill(cleo.password);
    await form.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').filter({ hasText: MESSAGES.users.passwordChanged }).first().waitFor();
    await screenshot(page, 'profile');
  });

  it('keeps a plan from the URL, and returns to a Shopify callback visited while logged out', async () => {
    const { page } = await h.newPage();
    screenshotOnFailure(page, 'startup-rules');
    const dan = person('dan');
    await page.goto('/register?id=3&plan=monthly');
    await page.getByRole('button', { name: 'Sign up' }).waitFor();
    expect(new URL(page.url()).search).toBe('');
    expect(
      await page.evaluate(() => [localStorage.getItem('planId'), localStorage.getItem('planFrequency')]),
    ).toEqual(['3', 'monthly']);
    await fillSignup(page, dan);
    await page.waitForURL('**/home');
    await logOut(page);

    const callback = '/integrations/shopify/callback?code=abc&shop=demo.myshopify.com';
    await page.goto(callback);
    await page.waitForURL('**/login?returnUrl=*');
    expect(await page.evaluate(() => localStorage.getItem('redirectPath'))).toBe(callback);
    await logIn(page, dan.email, dan.password);
    await page.waitForURL(`**${callback}`);
    // The callback page finishes the connection: this query carries no Shopify signature, so it is
    // refused, with the way back.
    await page.getByRole('link', { name: 'Back to Integrations' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('redirectPath'))).toBeNull();
  });

  it('shows the server detail for wrong credentials and stays on /login', async () => {
    const { page } = await h.newPage();
    await page.goto('/login');
    // The form's schema is loaded at the first validation (useLazyZodForm): an empty submit still
    // gets the shared schema's messages, and nothing is sent.
    await page.getByRole('button', { name: 'Login' }).click();
    await page.getByText('Email or username is required').waitFor();
    await page.getByText('Password is required').waitFor();
    await logIn(page, 'nobody@example.com', 'wrong-password');
    await page.getByRole('alert').filter({ hasText: MESSAGES.auth.invalidCredentials }).first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
  });

  it('resets a forgotten password with the emailed code', async () => {
    const { page } = await h.newPage();
    screenshotOnFailure(page, 'password-reset');
    const bea = person('bea');
    await signUp(page, bea);
    await logOut(page);

    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByLabel('Email', { exact: true }).fill(bea.email);
    await page.getByRole('button', { name: 'Send code' }).click();
    await page.waitForURL('**/reset-password?email=*');
    await page.getByText(MESSAGES.otp.sent).waitFor();
    const mail = await h.mail.waitFor(bea.email, /password/i);
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
    expect(code).toMatch(/^\d{6}$/);

    await page.getByLabel('Code', { exact: true }).fill(code!);
    await page.getByRole('button', { name: 'Verify code' }).click();
    await page.getByLabel('New password', { exact: true }).fill('a-brand-new-secret');
    await page.getByLabel('Confirm new password').fill('a-brand-new-secret');
    await screenshot(page, 'reset-password');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.waitForURL('**/login');
    await page.getByRole('alert').filter({ hasText: MESSAGES.otp.passwordReset }).first().waitFor();

    await logIn(page, bea.email, 'a-brand-new-secret');
    await page.waitForURL('**/home');
  });
});
