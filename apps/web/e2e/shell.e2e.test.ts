import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createBotViaApi,
  type Harness,
  logIn,
  type Person,
  person,
  screenshot,
  screenshotOnFailure,
  signUp,
  startHarness,
} from './harness';

async function openCustomizer(page: Page) {
  await page.getByRole('button', { name: 'Open theme customizer' }).click();
  const drawer = page.getByTestId('customizer');
  await drawer.getByText('Theme Customizer').waitFor();
  return drawer;
}

const layoutOf = (page: Page) => page.locator('[data-layout]').getAttribute('data-layout');

describe('app shell', () => {
  let h: Harness;
  let user: Person;
  beforeAll(async () => {
    h = await startHarness();
    user = person('sam');
    const { page, context } = await h.newPage();
    await signUp(page, user);
    await context.close();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('keeps a customizer change across reload, but not the excluded keys', async () => {
    const { page } = await h.newPage();
    screenshotOnFailure(page, 'customizer');
    await page.goto('/login');
    await logIn(page, user.email, user.password);
    await page.waitForURL('**/home');

    const drawer = await openCustomizer(page);
    await drawer.getByRole('radio', { name: 'Dark', exact: true }).check();
    await drawer.getByRole('radio', { name: 'Bordered' }).check();
    await drawer.getByRole('radio', { name: 'Horizontal' }).check();
    await drawer.getByRole('radiogroup', { name: 'Footer' }).getByRole('radio', { name: 'Hidden' }).check();
    await screenshot(page, 'customizer');
    await page.keyboard.press('Escape');
    expect(await layoutOf(page)).toBe('horizontal');
    await page.getByTestId('nav-horizontal').waitFor();
    expect(await page.locator('footer').count()).toBe(0);

    await page.reload();
    await page.getByRole('heading', { name: new RegExp(`, ${user.firstName}!`) }).waitFor();
    const stored = JSON.parse((await page.evaluate(() => localStorage.getItem('settings'))) ?? '{}');
    expect(stored).toMatchObject({ mode: 'dark', skin: 'bordered' });
    for (const key of ['layout', 'footer', 'appBar', 'navHidden', 'lastLayout', 'toastPosition']) {
      expect(stored).not.toHaveProperty(key);
    }
    // Dark mode survived; the horizontal layout and the hidden footer did not.
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe('rgb(30, 30, 42)');
    expect(await layoutOf(page)).toBe('vertical');
    await page.getByTestId('nav-permanent').waitFor();
    await page.locator('footer').waitFor();
    await screenshot(page, 'home-dark');
  });

  it('mirrors the whole layout when right-to-left is chosen', async () => {
    const { page } = await h.newPage();
    screenshotOnFailure(page, 'rtl');
    await page.goto('/login');
    await logIn(page, user.email, user.password);
    await page.waitForURL('**/home');
    const nav = page.getByTestId('nav-permanent');
    const leftToRight = await nav.boundingBox();
    expect(leftToRight!.x).toBeLessThan(50);

    const drawer = await openCustomizer(page);
    await drawer.getByRole('radio', { name: 'Right to left' }).check();
    await page.keyboard.press('Escape');
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    // MUI's styles are mirrored too (not only the dir attribute): the menu now sits on the right.
    await expect
      .poll(async () => (await nav.boundingBox())!.x)
      .toBeGreaterThan(page.viewportSize()!.width / 2);
    await screenshot(page, 'home-rtl');
  });

  it('turns the menu into a toggle drawer at 1000 px and forces the vertical layout', async () => {
    const { page } = await h.newPage({ width: 1000, height: 800 });
    screenshotOnFailure(page, 'drawer');
    await page.goto('/login');
    await logIn(page, user.email, user.password);
    await page.waitForURL('**/home');

    expect(await page.getByTestId('nav-permanent').count()).toBe(0);
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    expect(await menu.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByRole('link', { name: 'Users' }).waitFor();
    await page.waitForTimeout(400); // let the drawer finish sliding in before the picture
    await screenshot(page, 'drawer-open');
    await menu.getByRole('link', { name: 'Users' }).click();
    await page.waitForURL('**/roles');
    await menu.waitFor({ state: 'hidden' });

    // Horizontal is not offered below lg, and a horizontal layout chosen on a wide window is forced
    // to vertical when the window narrows, then restored when it widens again.
    const drawer = await openCustomizer(page);
    expect(await drawer.getByRole('radio', { name: 'Horizontal' }).isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1300, height: 800 });
    await (await openCustomizer(page)).getByRole('radio', { name: 'Horizontal' }).check();
    await page.keyboard.press('Escape');
    expect(await layoutOf(page)).toBe('horizontal');
    await page.setViewportSize({ width: 1000, height: 800 });
    await page.getByRole('button', { name: 'Open menu' }).waitFor();
    expect(await layoutOf(page)).toBe('vertical');
    expect(await page.getByTestId('nav-horizontal').count()).toBe(0);
    await page.setViewportSize({ width: 1300, height: 800 });
    await page.getByTestId('nav-horizontal').waitFor();
  });

  it('hides the top bar and menu in full-screen chat mode, shows the bell, agent indicator and scroll-to-top', async () => {
    const { page } = await h.newPage({ width: 1366, height: 500 });
    screenshotOnFailure(page, 'fullscreen');
    await page.goto('/login');
    await logIn(page, user.email, user.password);
    await page.waitForURL('**/home');

    // The owner answers in the inbox too: their own admin channel soon shows the help desk online.
    await page.getByTestId('agent-indicator').getByText('Helpdesk Online').waitFor({ timeout: 15_000 });
    await page.evaluate(() =>
      window.dispatchEvent(new CustomEvent('parley:chat-fullscreen', { detail: { enabled: true } })),
    );
    await page.getByRole('button', { name: 'Open theme customizer' }).waitFor({ state: 'detached' });
    expect(await page.getByTestId('nav-permanent').count()).toBe(0);
    await page.getByRole('button', { name: 'Exit full screen' }).click();
    await page.getByTestId('nav-permanent').waitFor();

    await page.evaluate(() => {
      document.body.style.minHeight = '3000px';
      window.scrollTo(0, 1000);
    });
    await page.getByRole('button', { name: 'Scroll to top' }).click();
    await page.waitForFunction(() => window.scrollY === 0);

    await page.getByRole('button', { name: /Notifications/ }).click();
    await page.waitForURL('**/inbox');
  });

  it('is usable at 375 px', async () => {
    const { page } = await h.newPage({ width: 375, height: 812 });
    await page.goto('/login');
    await screenshot(page, 'mobile-login');
    await logIn(page, user.email, user.password);
    await page.waitForURL('**/home');
    await page.getByRole('heading', { name: new RegExp(`, ${user.firstName}!`) }).waitFor();
    await screenshot(page, 'mobile-home');
    await page.goto('/roles');
    await page.getByRole('button', { name: 'Invite user' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'mobile-roles');
  });
  // Issue 36: a page's data starts with its route (its module's preload) and the page's own hooks
  // find it there. Asked with other arguments than the hooks use, the page would ask again.
  it('opens each main page cold asking for each piece of its data once', async () => {
    const { page, context } = await h.newPage();
    await page.goto('/login');
    await logIn(page, user.email, user.password);
    await page.waitForURL('**/home');
    const bot = await createBotViaApi(h, page, { bot_name: 'Preloaded' });
    const signedIn = await context.storageState();
    await context.close();
    // Each page, the call that brings its data, and its main control.
    const pages: Array<[string, string, Parameters<Page['getByRole']>[0], string]> = [
      ['/home', '/api/home/summary', 'list', 'Your bots'],
      ['/bot', '/api/chat/bots/user/', 'link', 'Create bot'],
      [`/bot/knowledge/qna?bot=${bot.bot_id}`, `/api/qna/?bot_id=${bot.bot_id}`, 'button', 'Add Q&A'],
      ['/inbox', '/api/chat/helpdesk/grouped/', 'searchbox', 'Search conversations'],
      ['/analytics', '/api/analytics/overview', 'button', 'Export CSV'],
      ['/subscriptions', '/api/pricing/subscriptions/', 'progressbar', 'Messages this month used'],
    ];
    for (const [path, data, role, name] of pages) {
      const cold = await h.browser.newContext({ baseURL: h.baseUrl, storageState: signedIn });
      const tab = await cold.newPage();
      screenshotOnFailure(tab, `preload${path.replace(/[^a-z]+/g, '-')}`);
      const asked: string[] = [];
      tab.on('request', (request) => {
        const url = new URL(request.url());
        if (request.method() === 'GET' && url.pathname.startsWith('/api/'))
          asked.push(url.pathname + url.search);
      });
      await tab.goto(path);
      await tab.getByRole(role, { name, exact: true }).first().waitFor();
      await tab.waitForLoadState('networkidle');
      // Asked with the route: before the shell rendered and asked for the agents' presence.
      const dataAt = asked.findIndex((url) => url.startsWith(data));
      const shellAt = asked.findIndex((url) => url.startsWith('/api/chat/helpdesk/presence/'));
      expect(dataAt, `${path} asked for ${data}`).toBeGreaterThanOrEqual(0);
      expect(dataAt, `${path} asked for ${data} before the shell rendered`).toBeLessThan(shellAt);
      const twice = asked.filter((url, i) => asked.indexOf(url) !== i);
      expect(twice, `${path} asked twice`).toEqual([]);
      await cold.close();
    }
  });
});
