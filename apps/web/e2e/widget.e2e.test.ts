import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { BAD_ANSWER_OFFER } from '@parley/chat-client';
import { CONTACT_FORM, HANDOFF_TEXTS, HELPDESK_TEXTS, LEAD_TEXTS } from '@parley/contracts';
import type { BrowserContext, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ARTIFACTS,
  addTrainedQna,
  apiCall,
  crawlViaApi,
  createBotViaApi,
  customerSite,
  type Harness,
  person,
  screenshot,
  screenshotOnFailure,
  signUp,
  startHarness,
} from './harness';

const QUESTION = 'Do you ship abroad?';
const ANSWER = 'Yes, we ship to 40 countries.';
const WELCOME = 'Hi! Ask me anything about Acme.';
const BOOKING_URL = 'https://cal.com/acme/demo';
const BRAND = '#1a56db';
/** A 1×1 PNG, for the bot's profile image. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * A public bot with a suggested question, a trained Q&A pair, a lead form shown when it cannot
 * answer, and a calendar booking, made through the API as its owner.
 */
async function seedBot(h: Harness, owner: Page, token: string): Promise<{ bot_id: number; uuid: string }> {
  const bot = await createBotViaApi(h, owner, {
    bot_name: 'Acme helper',
    is_public: 'true',
    brand_color: BRAND,
    welcome_message: WELCOME,
    suggestion_questions: JSON.stringify([QUESTION]),
  });
  await addTrainedQna(h, token, bot.bot_id, { question: QUESTION, answer: ANSWER });
  const update = new FormData();
  update.set(
    'lead_form_config',
    JSON.stringify({
      enabled: true,
      title: 'Leave your details',
      show_when: 'no_answer',
      after_messages: 3,
      fields: [
        { name: 'name', label: 'Name', type: 'text', required: true },
        { name: 'email', label: 'Email', type: 'email', required: true },
      ],
    }),
  );
  update.set('profile_image', new Blob([PNG], { type: 'image/png' }), 'logo.png');
  await apiCall(h, token, 'PUT', `/chat/bots/${bot.bot_id}`, update);
  await apiCall(h, token, 'POST', `/bots/${bot.bot_id}/calendar-booking`, {
    provider: 'cal',
    title: 'Book a demo',
    url: BOOKING_URL,
    message: 'Pick a time that suits you.',
  });
  return bot;
}

/**
 * A customer's static page on another loopback port (so another origin), embedding the widget
 * from Parley's host. Its CSS is hostile on purpose: the widget lives in a shadow root and must
 * not be touched by it.
 */
/**
 * A printer manual on loopback: one long page of three sections with ids, so a citation can link
 * to the last one; `/` is the customer's page embedding the widget once `embed` is called.
 */
async function manualSite(): Promise<{
  origin: string;
  embed: (uuid: string, scriptSrc: string) => void;
  close: () => Promise<void>;
}> {
  const filler = (topic: string) =>
    `<p>${`This part of the manual covers ${topic} step by step for every model we sell. `.repeat(40)}</p>`;
  const manual = `<!doctype html><html><head><title>Printer manual</title></head><body>
<nav><a href="/">Home</a></nav><main><h1>Printer manual</h1>
<h2 id="installing">Installing the driver</h2>${filler('installation')}
<h2 id="printing">Printing a test page</h2>${filler('test pages')}
<h2 id="removing">Removing the driver</h2><p>To remove the printer driver, open the uninstaller from the Start menu and restart the computer.</p>${filler('removal')}${filler('cleaning up')}
</main><footer>Printer Co.</footer></body></html>`;
  let home = '<!doctype html><html><body><p>Loading</p></body></html>';
  const site = http.createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(req.url === '/manual' ? manual : home);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(site.address() as AddressInfo).port}`,
    embed: (uuid, scriptSrc) => {
      home = `<!doctype html><html><head><title>Printer Co.</title></head><body><h1>Printer Co.</h1>
<script src="${scriptSrc}" data-bot="${uuid}" defer></script></body></html>`;
    },
    close: () => new Promise<void>((resolve) => site.close(() => resolve())),
  };
}

/** The widget's socket is open (its header then says whether the team is online). */
async function connected(chat: ReturnType<Page['getByRole']>): Promise<void> {
  await chat.locator('[data-testid="connection-status"][data-status="open"]').waitFor({ timeout: 20_000 });
}

async function ask(chat: ReturnType<Page['getByRole']>, text: string): Promise<void> {
  const box = chat.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

/**
 * Cuts a visitor's chat off the network, as a phone between networks is: new sockets and calls
 * fail, and the open chat socket is closed. `restore` brings the network back.
 */
async function chatSocketsCuttable(context: BrowserContext): Promise<{
  cut: () => Promise<void>;
  restore: () => Promise<void>;
}> {
  const open: WebSocketRoute[] = [];
  await context.routeWebSocket(/\/api\/chat\/stream/, (ws) => {
    ws.connectToServer();
    open.push(ws);
  });
  return {
    cut: async () => {
      await context.setOffline(true);
      for (const ws of open.splice(0)) await ws.close({ code: 4000, reason: 'offline' });
    },
    restore: () => context.setOffline(false),
  };
}

/** An owner, signed up, with a public bot that answers QUESTION from a trained pair: their token and the bot. */
async function ownerWithBot(h: Harness, screenshotName: string, who: string, botName: string) {
  const { page: owner } = await h.newPage();
  screenshotOnFailure(owner, `${screenshotName}-owner`);
  await signUp(owner, person(who));
  const token = await owner.evaluate(() => localStorage.getItem('accessToken'));
  const bot = await createBotViaApi(h, owner, { bot_name: botName, is_public: 'true' });
  await addTrainedQna(h, token, bot.bot_id, { question: QUESTION, answer: ANSWER });
  return { token, bot };
}

/**
 * A small business's site on loopback, a page per path, each with the headers given (a
 * Content-Security-Policy...): pages that embed `tag`, the widget's script tag, as they please.
 */
async function businessSite(
  pages: Record<string, { html: string; headers?: Record<string, string> }>,
): Promise<{ origin: string; close: () => Promise<void> }> {
  const site = http.createServer((req, res) => {
    const page = pages[req.url ?? '/'];
    res.writeHead(page ? 200 : 404, { 'content-type': 'text/html; charset=utf-8', ...page?.headers });
    res.end(page?.html ?? 'Not found');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(site.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => site.close(() => resolve())),
  };
}

describe('website widget', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ env: { CRAWLER_ALLOW_PRIVATE: 'true' } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('embedded on another origin: answers with sources, shows the lead form and the booking button, keeps the chat across reloads', async () => {
    const { page: owner } = await h.newPage();
    screenshotOnFailure(owner, 'widget-owner');
    await signUp(owner, person('embedder'));
    const token = await owner.evaluate(() => localStorage.getItem('accessToken'));
    const bot = await seedBot(h, owner, token!);

    const site = await customerSite(`${h.baseUrl}/widget.js`, bot.uuid);
    try {
      const { page } = await h.newPage({ width: 1200, height: 850 });
      screenshotOnFailure(page, 'widget');
      const failedRequests: string[] = [];
      page.on('requestfailed', (request) => failedRequests.push(request.url()));
      await page.goto(`${site.origin}/`);
      expect(new URL(page.url()).origin).not.toBe(new URL(h.baseUrl).origin);

      // The launcher, in the brand colour with white on it, untouched by the site's `button { display: none }`.
      const launcher = page.getByRole('button', { name: 'Open chat' });
      await launcher.waitFor();
      const look = await launcher.evaluate((el) => {
        const style = getComputedStyle(el);
        return { background: style.backgroundColor, color: style.color };
      });
      expect(look).toEqual({ background: 'rgb(26, 86, 219)', color: 'rgb(255, 255, 255)' });
      expect(await page.locator('parley-widget').count()).toBe(1);

      // Open: a dialog with the bot's name, the composer focused, the welcome message, online.
      await launcher.click();
      const chat = page.getByRole('dialog', { name: 'Chat with Acme helper' });
      await chat.waitFor();
      await expect
        .poll(() =>
          page.evaluate(() => document.querySelector('parley-widget')?.shadowRoot?.activeElement?.ariaLabel),
        )
        .toBe('Message');
      await chat.getByRole('heading', { name: 'Acme helper' }).waitFor();
      // The bot's image, from the API host, loads on the customer's origin.
      const avatar = chat.locator('img.avatar');
      await expect
        .poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), {
          timeout: 10_000,
        })
        .toBe(1);
      await chat.getByTestId('welcome-message').getByText(WELCOME).waitFor();
      await connected(chat);
      // The booking card, before the chat starts.
      const card = chat.getByRole('region', { name: 'Book a meeting' });
      await card.getByText('Book a demo').waitFor();
      await screenshot(page, 'widget-open');
      // Bot text in the widget is not in the site's red.
      expect(await chat.getByTestId('welcome-message').evaluate((el) => getComputedStyle(el).color)).not.toBe(
        'rgb(255, 0, 0)',
      );

      // A suggested question: the Q&A answer with its source.
      await chat
        .getByRole('group', { name: 'Suggested questions' })
        .getByRole('button', { name: QUESTION })
        .click();
      const answers = chat.getByTestId('bot-message');
      const shipping = answers.filter({ hasText: ANSWER });
      await shipping.waitFor({ timeout: 30_000 });
      const sources = shipping.getByTestId('message-sources');
      await sources.getByText(QUESTION).waitFor();
      await sources.getByText('Q&A', { exact: true }).waitFor();
      expect(await chat.getByTestId('user-message').filter({ hasText: QUESTION }).count()).toBe(1);
      await chat.getByRole('group', { name: 'Suggested questions' }).waitFor({ state: 'detached' });

      // Something it does not know: the not-found answer, then the lead form (show_when no_answer).
      const leadForm = chat.getByRole('form', { name: 'Leave your details' });
      expect(await leadForm.count()).toBe(0);
      await ask(chat, 'What is the capital of Peru?');
      await expect.poll(() => answers.count(), { timeout: 30_000 }).toBe(2);
      expect(await answers.nth(1).getAttribute('data-answer-mode')).toBe('not_found');
      await leadForm.waitFor();
      await leadForm.getByRole('button', { name: 'Send', exact: true }).click();
      await leadForm.getByText('Name is required').waitFor();
      await leadForm.getByRole('textbox', { name: 'Name' }).fill('Ana Visitor');
      await leadForm.getByRole('textbox', { name: 'Email' }).fill('ana@example.com');
      await leadForm.getByRole('button', { name: 'Send', exact: true }).click();
      await chat.getByText(LEAD_TEXTS.received).waitFor();
      await leadForm.waitFor({ state: 'detached' });
      await screenshot(page, 'widget-lead-sent');
      // The lead is linked to the visitor's conversation (the widget proves it theirs).
      const leads = await apiCall<{ items: Array<{ email: string | null; conversation_id: number | null }> }>(
        h,
        token,
        'GET',
        `/chat/bots/${bot.bot_id}/leads`,
      );
      expect(leads.items).toEqual([
        expect.objectContaining({ email: 'ana@example.com', conversation_id: expect.any(Number) }),
      ]);

      // Asking to book: the answer carries the booking button to the calendar.
      await ask(chat, 'Can I book a demo?');
      await expect.poll(() => answers.count(), { timeout: 30_000 }).toBe(3);
      const booking = answers.nth(2).getByRole('link', { name: 'Book a demo' });
      await booking.waitFor();
      expect(await booking.getAttribute('href')).toBe(BOOKING_URL);
      expect(await booking.getAttribute('target')).toBe('_blank');
      expect(await booking.getAttribute('rel')).toContain('noopener');
      await screenshot(page, 'widget-booking');

      // The site's storage holds only the widget's keys, under its prefix.
      const keys = await page.evaluate(() => Object.keys(localStorage));
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.every((key) => key.startsWith('parley:'))).toBe(true);

      // A reload: the chat is open again with its history, each message once, and no lead form.
      await page.reload();
      await chat.waitFor();
      await connected(chat);
      await answers.nth(2).getByRole('link', { name: 'Book a demo' }).waitFor({ timeout: 15_000 });
      await page.waitForTimeout(1000);
      expect(await answers.count()).toBe(3);
      expect(await chat.getByTestId('user-message').count()).toBe(3);
      expect(await chat.getByTestId('welcome-message').count()).toBe(1);
      expect(await chat.getByTestId('welcome-message').innerText()).toContain(WELCOME);
      expect(await leadForm.count()).toBe(0);

      // Escape closes it and gives the focus back to the launcher.
      await chat.getByRole('textbox', { name: 'Message' }).press('Escape');
      await chat.waitFor({ state: 'hidden' });
      await page.getByRole('button', { name: 'Open chat' }).waitFor();
      expect(failedRequests).toEqual([]);

      // A bot that lists the sites allowed to embed it: this one is not, and the widget says so.
      const restrict = new FormData();
      restrict.set('allowed_origins', JSON.stringify(['https://shop.example']));
      await apiCall(h, token, 'PUT', `/chat/bots/${bot.bot_id}`, restrict);
      const { page: elsewhere } = await h.newPage({ width: 1200, height: 850 });
      screenshotOnFailure(elsewhere, 'widget-not-allowed');
      await elsewhere.goto(`${site.origin}/`);
      await elsewhere.getByRole('button', { name: 'Open chat' }).click();
      await elsewhere
        .getByRole('dialog', { name: 'Chat with Acme helper' })
        .getByRole('alert')
        .getByText('This site is not allowed to embed this bot')
        .waitFor({ timeout: 20_000 });
    } finally {
      await site.close();
    }
  });
  it('follows a cited source to the section of the crawled page it came from', async () => {
    const { page: owner } = await h.newPage();
    screenshotOnFailure(owner, 'widget-citation-owner');
    await signUp(owner, person('citer'));
    const token = await owner.evaluate(() => localStorage.getItem('accessToken'));
    const docs = await manualSite();
    try {
      const sourceId = await crawlViaApi(h, token, `${docs.origin}/manual`, 'Printer manual');
      const bot = await createBotViaApi(h, owner, {
        bot_name: 'Printer help',
        is_public: 'true',
        web_source_ids: JSON.stringify([sourceId]),
      });
      docs.embed(bot.uuid, `${h.baseUrl}/widget.js`);

      const { context, page } = await h.newPage({ width: 1200, height: 850 });
      screenshotOnFailure(page, 'widget-citation');
      await page.goto(`${docs.origin}/`);
      await page.getByRole('button', { name: 'Open chat' }).click();
      const chat = page.getByRole('dialog', { name: 'Chat with Printer help' });
      await connected(chat);
      await ask(chat, 'How do I remove the printer driver?');
      const answer = chat.getByTestId('bot-message').filter({ hasText: 'uninstaller' });
      await answer.waitFor({ timeout: 30_000 });
      const link = answer
        .getByTestId('message-sources')
        .getByRole('link', { name: 'Printer manual › Removing the driver' });
      expect(await link.getAttribute('href')).toBe(`${docs.origin}/manual#removing`);
      await screenshot(page, 'widget-citation');

      const [opened] = await Promise.all([context.waitForEvent('page'), link.click()]);
      await opened.waitForLoadState();
      expect(opened.url()).toBe(`${docs.origin}/manual#removing`);
      // The browser scrolled the manual to that section, far below its first screen.
      const top = await opened.locator('#removing').evaluate((el) => el.getBoundingClientRect().top);
      expect(top).toBeGreaterThanOrEqual(-1); // sub-pixel rounding
      expect(top).toBeLessThan(200);
    } finally {
      await docs.close();
    }
  });
  it('hands a visitor to a person: the contact form while nobody is online (the header says so), then an agent joins, replies and hands back, every step in order after a reload too', async () => {
    const { page: owner } = await h.newPage();
    screenshotOnFailure(owner, 'widget-handoff-owner');
    const agentPerson = person('nadia');
    await signUp(owner, agentPerson);
    const token = await owner.evaluate(() => localStorage.getItem('accessToken'));
    const bot = await createBotViaApi(h, owner, {
      bot_name: 'Handoff helper',
      human_button: 'always',
      lead_form_config: JSON.stringify({
        enabled: true,
        title: 'Leave your details',
        show_when: 'after_messages',
        after_messages: 10,
        fields: [{ name: 'email', label: 'Email', type: 'email', required: true }],
      }),
    });
    // The owner is not on a console page yet: nobody is online.
    await owner.goto('about:blank');
    const site = await customerSite(`${h.baseUrl}/widget.js`, bot.uuid);
    try {
      const { page } = await h.newPage({ width: 1200, height: 850 });
      screenshotOnFailure(page, 'widget-handoff');
      await page.goto(`${site.origin}/`);
      await page.getByRole('button', { name: 'Open chat' }).click();
      const chat = page.getByRole('dialog', { name: 'Chat with Handoff helper' });
      await connected(chat);
      // Nobody from the team is online, and the header says so (the bot answers either way).
      const status = chat.getByTestId('connection-status');
      expect(await status.textContent()).toBe('Our team is away');
      const notices = chat.getByTestId('system-message');

      await ask(chat, 'Do you resole boots?');
      await chat.getByTestId('bot-message').first().waitFor();
      await chat.getByRole('button', { name: HANDOFF_TEXTS.button }).first().click();
      await notices.filter({ hasText: HANDOFF_TEXTS.nobodyOnline }).waitFor();
      // Waiting for a person: the button is gone; the contact form asks for name and email, with
      // the visitor's question already in it (the bot's own lead form is not shown beside it).
      await expect.poll(() => chat.getByRole('button', { name: HANDOFF_TEXTS.button }).count()).toBe(0);
      const contactForm = chat.getByRole('form', { name: CONTACT_FORM.title });
      expect(await contactForm.getByRole('textbox', { name: 'Your question' }).inputValue()).toBe(
        'Do you resole boots?',
      );
      expect(await chat.getByRole('form', { name: 'Leave your details' }).count()).toBe(0);
      await screenshot(page, 'widget-handoff-contact-form');
      await contactForm.getByRole('button', { name: 'Send', exact: true }).click();
      await contactForm.getByText('Name is required').waitFor();
      await contactForm.getByRole('textbox', { name: 'Name' }).fill('Wanda Waiting');
      await contactForm.getByRole('textbox', { name: 'Email' }).fill('waiting@example.com');
      await contactForm.getByRole('button', { name: 'Send', exact: true }).click();
      const thanks = HANDOFF_TEXTS.contactLeft('Wanda Waiting', 'waiting@example.com');
      await notices.filter({ hasText: thanks }).waitFor();
      await contactForm.waitFor({ state: 'detached' });
      const tenant = (await apiCall<{ tenant_id: number }>(h, token, 'GET', '/auth/user')).tenant_id;
      const inbox = await apiCall<{
        conversations: Array<{ conversation_id: number; visitor_email: string | null }>;
      }>(h, token, 'GET', `/chat/helpdesk/inbox/${tenant}?filter=needs_human`);
      const [waiting] = inbox.conversations;
      expect(waiting).toMatchObject({ visitor_email: 'waiting@example.com' });
      const id = waiting!.conversation_id;
      await screenshot(page, 'widget-handoff-contact-sent');

      // The agent opens the inbox (and is online): the request waits under "Needs a person".
      const name = `${agentPerson.firstName} ${agentPerson.lastName}`;
      await owner.goto('/inbox');
      const queue = owner.getByTestId('handoff-queue');
      const item = queue.locator(`[data-testid="handoff-item"][data-conversation-id="${id}"]`);
      await item.waitFor();
      expect(await item.textContent()).toContain('Waiting');
      await item.getByTestId('contact-left').filter({ hasText: 'left contact details' }).waitFor();
      // The agent is online now: the visitor's header says so.
      await expect.poll(() => status.textContent(), { timeout: 15_000 }).toBe('Online');
      expect(await queue.getByRole('tab', { name: /Needs a person/ }).getAttribute('aria-label')).toBe(
        'Needs a person (1)',
      );
      await item.click();
      const thread = owner.getByTestId('inbox-thread');
      // It takes over, replies, keeps a note the visitor never sees, and hands back.
      await thread.getByRole('button', { name: 'Take over' }).click();
      await notices.filter({ hasText: HELPDESK_TEXTS.agentJoined(name) }).waitFor();
      // The visitor closed the chat to wait: the launcher counts the reply that comes meanwhile.
      await chat.getByRole('button', { name: 'Close chat' }).click();
      await chat.waitFor({ state: 'hidden' });
      const box = thread.getByRole('textbox', { name: 'Message' });
      await box.fill('Hello, I can help.');
      await box.press('Enter');
      const launcher = page.getByRole('button', { name: 'Open chat, unread messages: 1' });
      await launcher.getByTestId('unread').filter({ hasText: '1' }).waitFor({ timeout: 15_000 });
      await screenshot(page, 'widget-unread');
      await launcher.click();
      await chat.getByTestId('agent-message').filter({ hasText: 'Hello, I can help.' }).waitFor();
      await page.getByRole('button', { name: 'Close chat', exact: true }).last().waitFor();
      expect(await page.getByTestId('unread').count()).toBe(0);
      const notes = thread.getByRole('region', { name: 'Internal notes' });
      await notes.getByRole('textbox', { name: 'Note' }).fill('VIP customer');
      await notes.getByRole('button', { name: 'Add note' }).click();
      await notes.getByTestId('internal-note').filter({ hasText: 'VIP customer' }).waitFor();
      // Who the visitor is, and when each message came.
      expect(await thread.getByTestId('conversation-details').textContent()).toContain('waiting@example.com');
      expect(await thread.getByTestId('message-time').count()).toBeGreaterThanOrEqual(1);
      await screenshot(owner, 'inbox-handoff');
      await thread.getByRole('button', { name: 'Hand back' }).click();
      await notices.filter({ hasText: HELPDESK_TEXTS.botBack }).waitFor();
      await chat.getByRole('button', { name: HANDOFF_TEXTS.button }).first().waitFor();

      const steps = async () =>
        chat
          .locator('[data-testid="system-message"], [data-testid="agent-message"]')
          .evaluateAll((items) => items.map((item) => item.textContent?.replace(/^Agent/, '').trim()));
      const expected = [
        HANDOFF_TEXTS.nobodyOnline,
        thanks,
        HELPDESK_TEXTS.agentJoined(name),
        'Hello, I can help.',
        HELPDESK_TEXTS.botBack,
      ];
      expect(await steps()).toEqual(expected);
      // A reload: the widget opens again with the conversation, every step in its place.
      await page.reload();
      await connected(chat);
      await expect.poll(steps, { timeout: 15_000 }).toEqual(expected);
      expect(await chat.getByText('VIP customer').count()).toBe(0);
      await screenshot(page, 'widget-handoff-back');
    } finally {
      await site.close();
    }
  });
  it('sends what a visitor typed while the network was gone once it is back, shown faded until then', async () => {
    const { bot } = await ownerWithBot(h, 'widget-held', 'held', 'Held helper');
    const site = await customerSite(`${h.baseUrl}/widget.js`, bot.uuid);
    try {
      const { page, context } = await h.newPage({ width: 1200, height: 850 });
      screenshotOnFailure(page, 'widget-held');
      const network = await chatSocketsCuttable(context);
      await page.goto(`${site.origin}/`);
      await page.getByRole('button', { name: 'Open chat' }).click();
      const chat = page.getByRole('dialog', { name: 'Chat with Held helper' });
      await connected(chat);
      await ask(chat, QUESTION);
      const answers = chat.getByTestId('bot-message').filter({ hasText: ANSWER });
      await answers.first().waitFor({ timeout: 30_000 });

      await network.cut();
      const status = chat.getByTestId('connection-status');
      await expect.poll(() => status.getAttribute('data-status')).not.toBe('open');
      await ask(chat, 'And to Canada?');
      const held = chat.getByTestId('pending-message').filter({ hasText: 'And to Canada?' });
      await held.getByText('Sending…').waitFor();
      expect(await chat.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('');
      await screenshot(page, 'widget-held-message');

      await network.restore();
      await chat
        .getByTestId('user-message')
        .filter({ hasText: 'And to Canada?' })
        .waitFor({ timeout: 30_000 });
      await held.waitFor({ state: 'detached' });
      // Answered once it went: the visitor's two questions, each once, and two replies.
      await expect.poll(() => chat.getByTestId('bot-message').count(), { timeout: 30_000 }).toBe(2);
      expect(await chat.getByTestId('user-message').count()).toBe(2);
    } finally {
      await site.close();
    }
  });

  it('sends again a message whose copy never came back (the socket only looked open), and it is answered once', async () => {
    const { token, bot } = await ownerWithBot(h, 'widget-deaf', 'deaf', 'Deaf helper');
    const site = await customerSite(`${h.baseUrl}/widget.js`, bot.uuid);
    try {
      const { page, context } = await h.newPage({ width: 1200, height: 850 });
      screenshotOnFailure(page, 'widget-deaf');
      // A socket that stops hearing the server, as one does on a phone that changed network.
      let current: WebSocketRoute | null = null;
      let deaf: WebSocketRoute | null = null;
      await context.routeWebSocket(/\/api\/chat\/stream/, (ws) => {
        const server = ws.connectToServer();
        server.onMessage((message) => {
          if (deaf !== ws) ws.send(message);
        });
        current = ws;
      });
      await page.goto(`${site.origin}/`);
      await page.getByRole('button', { name: 'Open chat' }).click();
      const chat = page.getByRole('dialog', { name: 'Chat with Deaf helper' });
      await connected(chat);
      await ask(chat, 'Hello there');
      await chat.getByTestId('bot-message').first().waitFor({ timeout: 30_000 });

      deaf = current;
      await ask(chat, QUESTION);
      // The server stored and answered it; the visitor saw neither. The client gives the socket up,
      // reconnects, and sends it again: the server gives back the stored question and its answer.
      const answer = chat.getByTestId('bot-message').filter({ hasText: ANSWER });
      await answer.waitFor({ timeout: 40_000 });
      expect(await chat.getByTestId('user-message').filter({ hasText: QUESTION }).count()).toBe(1);
      expect(await answer.count()).toBe(1);
      // Stored once too, as the owner reads the conversation.
      const [conversation] = await apiCall<Array<{ id: number }>>(
        h,
        token,
        'GET',
        `/chat/chats?bot_id=${bot.bot_id}`,
      );
      const stored = await apiCall<{ messages: Array<{ message: string }> }>(
        h,
        token,
        'GET',
        `/chat/chats/${conversation!.id}`,
      );
      expect(stored.messages.filter((m) => m.message === QUESTION)).toHaveLength(1);
    } finally {
      await site.close();
    }
  });

  it("holds what a visitor types on the bot's full-page chat while offline, and sends it once back", async () => {
    const { bot } = await ownerWithBot(h, 'fullpage-held', 'heldpage', 'Page helper');
    const { page, context } = await h.newPage({ width: 480, height: 800 });
    screenshotOnFailure(page, 'fullpage-held');
    const network = await chatSocketsCuttable(context);
    await page.goto(`/chat/${bot.uuid}`);
    const status = page.getByTestId('connection-status').first();
    await expect.poll(() => status.getAttribute('data-status'), { timeout: 20_000 }).toBe('open');
    await network.cut();
    await expect.poll(() => status.getAttribute('data-status')).not.toBe('open');
    await ask(page.locator('body'), QUESTION);
    const held = page.getByTestId('pending-message').filter({ hasText: QUESTION });
    await held.getByText('Sending…').waitFor();
    await screenshot(page, 'fullpage-held-message');
    await network.restore();
    await page.getByTestId('bot-message').filter({ hasText: ANSWER }).waitFor({ timeout: 30_000 });
    await held.waitFor({ state: 'detached' });
    expect(await page.getByTestId('user-message').filter({ hasText: QUESTION }).count()).toBe(1);
  });

  it('offers a person under an answer the visitor rated down', async () => {
    const { bot } = await ownerWithBot(h, 'widget-bad-answer', 'rhea', 'Rated helper');
    const site = await customerSite(`${h.baseUrl}/widget.js`, bot.uuid);
    try {
      const { page } = await h.newPage({ width: 1200, height: 850 });
      screenshotOnFailure(page, 'widget-bad-answer');
      await page.goto(`${site.origin}/`);
      await page.getByRole('button', { name: 'Open chat' }).click();
      const chat = page.getByRole('dialog', { name: 'Chat with Rated helper' });
      await connected(chat);
      await ask(chat, QUESTION);
      const answer = chat.getByTestId('bot-message').filter({ hasText: ANSWER });
      await answer.waitFor({ timeout: 30_000 });
      // The answer itself offers nobody: the bot answered.
      expect(await chat.getByRole('button', { name: HANDOFF_TEXTS.button }).count()).toBe(0);
      await answer.getByRole('button', { name: 'Bad answer' }).click();
      const offer = answer.getByTestId('bad-answer-offer');
      await offer.getByText(BAD_ANSWER_OFFER).waitFor();
      await screenshot(page, 'widget-bad-answer-offer');
      await offer.getByRole('button', { name: HANDOFF_TEXTS.button }).click();
      await chat.getByTestId('system-message').first().waitFor({ timeout: 15_000 });
      await offer.waitFor({ state: 'detached' });
    } finally {
      await site.close();
    }
  });

  it('on a phone: fills the screen, keeps the message box above the keyboard and the page still behind it', async () => {
    const { bot } = await ownerWithBot(h, 'widget-phone', 'pia', 'Phone helper');
    const tag = `<script src="${h.baseUrl}/widget.js" data-bot="${bot.uuid}" defer></script>`;
    const site = await businessSite({
      '/': {
        html: `<!doctype html><html><head><meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover"></head>
<body><h1>Acme on the go</h1>${'<p>Our long page of products.</p>'.repeat(150)}${tag}</body></html>`,
      },
    });
    const context = await h.browser.newContext({
      viewport: { width: 360, height: 640 },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
    });
    try {
      // The on-screen keyboard shrinks the visual viewport only: a stand-in the test can shrink.
      await context.addInitScript(() => {
        let shrunk: number | null = null;
        const viewport = Object.assign(new EventTarget(), { offsetTop: 0 });
        Object.defineProperty(viewport, 'height', { get: () => shrunk ?? innerHeight });
        Object.defineProperty(window, 'visualViewport', { get: () => viewport });
        Object.assign(window, {
          keyboard: (height: number | null) => {
            shrunk = height;
            viewport.dispatchEvent(new Event('resize'));
          },
        });
      });
      const page = await context.newPage();
      screenshotOnFailure(page, 'widget-phone');
      await page.goto(`${site.origin}/`);
      await page.evaluate(() => window.scrollTo(0, 500));
      await page.getByRole('button', { name: 'Open chat' }).tap();
      const chat = page.getByRole('dialog', { name: 'Chat with Phone helper' });
      await connected(chat);
      expect(await chat.boundingBox()).toEqual({ x: 0, y: 0, width: 360, height: 640 });
      // The chat has the focus, not the message box: the keyboard does not rise over the welcome.
      const focused = () =>
        page.evaluate(() => {
          const active = document.querySelector('parley-widget')?.shadowRoot?.activeElement;
          return active?.getAttribute('aria-label') ?? active?.tagName ?? null;
        });
      await expect.poll(focused).toBe('Chat with Phone helper');

      // A finger (here a wheel) on the chat does not scroll the page behind it.
      const scrolled = await page.evaluate(() => window.scrollY);
      expect(scrolled).toBeGreaterThanOrEqual(500);
      await page.mouse.move(180, 40);
      await page.mouse.wheel(0, 600);
      await page.waitForTimeout(300);
      expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);

      // The keyboard takes the lower half: the message box stays above it.
      const box = chat.getByRole('textbox', { name: 'Message' });
      await box.tap();
      await page.evaluate(() => (window as unknown as { keyboard: (h: number) => void }).keyboard(330));
      await expect.poll(async () => (await chat.boundingBox())?.height).toBe(330);
      const composer = await box.boundingBox();
      expect(composer!.y + composer!.height).toBeLessThanOrEqual(330);
      await box.fill(QUESTION);
      await box.press('Enter');
      await chat.getByTestId('bot-message').filter({ hasText: ANSWER }).waitFor({ timeout: 30_000 });
      await page.screenshot({ path: path.join(ARTIFACTS, 'widget-phone-keyboard.png') });

      // Closed: the page scrolls again, where the visitor left it, and the launcher has the focus.
      await page.evaluate(() => (window as unknown as { keyboard: (h: null) => void }).keyboard(null));
      await chat.getByRole('button', { name: 'Close chat' }).tap();
      await chat.waitFor({ state: 'hidden' });
      await expect.poll(focused).toBe('Open chat');
      expect(await page.evaluate(() => window.scrollY)).toBe(500);
      await page.mouse.wheel(0, 300);
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(800);
      await screenshot(page, 'widget-phone-closed');
    } finally {
      await context.close();
      await site.close();
    }
  });

  it('with the keyboard alone: opens, sends, reads the answer aloud, closes with Escape', async () => {
    const { bot } = await ownerWithBot(h, 'widget-keyboard', 'kai', 'Keyboard helper');
    const site = await businessSite({
      '/': {
        html: `<!doctype html><html><body><a href="/about">About us</a>
<script src="${h.baseUrl}/widget.js" data-bot="${bot.uuid}" defer></script></body></html>`,
      },
    });
    try {
      const { page } = await h.newPage({ width: 1200, height: 850 });
      screenshotOnFailure(page, 'widget-keyboard');
      await page.goto(`${site.origin}/`);
      await page.getByRole('button', { name: 'Open chat' }).waitFor();
      const focused = () =>
        page.evaluate(
          () =>
            document.querySelector('parley-widget')?.shadowRoot?.activeElement?.getAttribute('aria-label') ??
            null,
        );
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      expect(await focused()).toBe('Open chat');
      await page.keyboard.press('Enter');
      const chat = page.getByRole('dialog', { name: 'Chat with Keyboard helper' });
      await connected(chat);
      await expect.poll(focused).toBe('Message');
      // Every button says what it does.
      const unnamed = await page.evaluate(() =>
        [...(document.querySelector('parley-widget')?.shadowRoot?.querySelectorAll('button') ?? [])]
          .filter((b) => !(b.getAttribute('aria-label') || b.textContent?.trim()))
          .map((b) => b.outerHTML),
      );
      expect(unnamed).toEqual([]);

      // Shift+Enter adds a line, and the box grows to show what the visitor wrote.
      const box = chat.getByRole('textbox', { name: 'Message' });
      const height = (await box.boundingBox())!.height;
      await page.keyboard.type('Hello,');
      await page.keyboard.press('Shift+Enter');
      await page.keyboard.type('one more line');
      await page.keyboard.press('Shift+Enter');
      await page.keyboard.type('and another');
      await expect.poll(async () => (await box.boundingBox())!.height).toBeGreaterThan(height + 30);
      await screenshot(page, 'widget-keyboard-lines');
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type(QUESTION);
      await page.keyboard.press('Enter');
      // A screen reader is told the answer once it is whole.
      const announcer = chat.getByTestId('announcer');
      await expect.poll(() => announcer.textContent(), { timeout: 30_000 }).toContain(ANSWER);
      expect(await announcer.getAttribute('role')).toBe('status');
      await page.keyboard.press('Escape');
      await chat.waitFor({ state: 'hidden' });
      await expect.poll(focused).toBe('Open chat');
    } finally {
      await site.close();
    }
  });

  it("lives beside any site: pasted twice, on a right-to-left page, under a strict CSP; answers' links and long words stay in the bubble", async () => {
    const { token, bot } = await ownerWithBot(h, 'widget-any-site', 'ria', 'Any helper');
    const call = 'Can I call you?';
    await addTrainedQna(h, token, bot.bot_id, {
      question: call,
      answer: `Call [+34 911 234 567](tel:+34911234567), write to [us](mailto:hi@acme.example), not [this](javascript:alert(1)); order no. ${'7'.repeat(120)}.`,
    });
    const arabic = 'هل تشحنون إلى الخارج؟';
    await addTrainedQna(h, token, bot.bot_id, { question: arabic, answer: 'نعم، نشحن إلى ٤٠ دولة.' });
    const tag = `<script src="${h.baseUrl}/widget.js" data-bot="${bot.uuid}" defer></script>`;
    const api = new URL(h.baseUrl);
    const site = await businessSite({
      '/twice': { html: `<!doctype html><html><body><h1>Twice</h1>${tag}${tag}</body></html>` },
      '/rtl': { html: `<!doctype html><html dir="rtl" lang="ar"><body><h1>متجرنا</h1>${tag}</body></html>` },
      // What README.md tells a site with a strict policy to allow; no inline style at all.
      '/csp': {
        html: `<!doctype html><html><body><h1>Strict</h1>${tag}</body></html>`,
        headers: {
          'content-security-policy': `default-src 'none'; script-src ${api.origin}; connect-src ${api.origin} ws://${api.host}; img-src ${api.origin}; style-src 'none'`,
        },
      },
    });
    try {
      // Pasted twice: one launcher, which either copy's ParleyWidget.open() opens.
      const { page } = await h.newPage({ width: 1200, height: 850 });
      screenshotOnFailure(page, 'widget-any-site');
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${site.origin}/twice`);
      await page.getByRole('button', { name: 'Open chat' }).waitFor();
      await page.waitForTimeout(1500);
      expect(await page.locator('parley-widget').count()).toBe(1);
      await page.evaluate(() =>
        (window as unknown as { ParleyWidget: { open: () => void } }).ParleyWidget.open(),
      );
      await connected(page.getByRole('dialog', { name: 'Chat with Any helper' }));
      expect(errors).toEqual([]);

      // A right-to-left page: the widget's English stays left to right, an Arabic answer reads right to left.
      await page.goto(`${site.origin}/rtl`);
      const chat = page.getByRole('dialog', { name: 'Chat with Any helper' });
      await connected(chat);
      const box = chat.getByRole('textbox', { name: 'Message' });
      expect(await box.evaluate((el) => getComputedStyle(el).direction)).toBe('ltr');
      expect(
        await chat
          .getByRole('heading', { name: 'Any helper' })
          .evaluate((el) => getComputedStyle(el).direction),
      ).toBe('ltr');
      await ask(chat, arabic);
      const answers = chat.getByTestId('bot-message');
      await answers.filter({ hasText: '٤٠' }).waitFor({ timeout: 30_000 });
      expect(
        await answers
          .last()
          .locator('.md')
          .evaluate((el) => getComputedStyle(el).direction),
      ).toBe('rtl');
      expect(
        await chat
          .getByTestId('user-message')
          .last()
          .locator('.bubble')
          .evaluate((el) => getComputedStyle(el).direction),
      ).toBe('rtl');

      // Links: tel and mailto kept, opening apart from the site; javascript: only text. A long number wraps.
      await ask(chat, call);
      const links = answers.filter({ hasText: 'order no.' });
      await links.waitFor({ timeout: 30_000 });
      const phone = links.getByRole('link', { name: '+34 911 234 567' });
      expect(await phone.getAttribute('href')).toBe('tel:+34911234567');
      expect(await phone.getAttribute('target')).toBe('_blank');
      expect(await phone.getAttribute('rel')).toContain('noopener');
      expect(await links.getByRole('link', { name: 'us' }).getAttribute('href')).toBe(
        'mailto:hi@acme.example',
      );
      expect(await links.getByRole('link', { name: 'this' }).count()).toBe(0);
      const bubble = links.locator('.bubble');
      expect(await bubble.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      expect((await bubble.boundingBox())!.width).toBeLessThan(380);
      await screenshot(page, 'widget-rtl-page');

      // A strict Content-Security-Policy (no inline styles): styled all the same, and it answers.
      const { page: strict } = await h.newPage({ width: 1200, height: 850 });
      screenshotOnFailure(strict, 'widget-csp');
      const refused: string[] = [];
      strict.on('console', (m) => {
        if (m.type() === 'error') refused.push(m.text());
      });
      await strict.goto(`${site.origin}/csp`);
      const launcher = strict.getByRole('button', { name: 'Open chat' });
      expect(await launcher.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
      await launcher.click();
      const strictChat = strict.getByRole('dialog', { name: 'Chat with Any helper' });
      await connected(strictChat);
      await ask(strictChat, QUESTION);
      await strictChat.getByTestId('bot-message').filter({ hasText: ANSWER }).waitFor({ timeout: 30_000 });
      expect(await strictChat.evaluate((el) => getComputedStyle(el).borderRadius)).toBe('14px');
      expect(refused.filter((text) => /Content Security Policy/i.test(text))).toEqual([]);
      await screenshot(strict, 'widget-strict-csp');
    } finally {
      await site.close();
    }
  });
});
