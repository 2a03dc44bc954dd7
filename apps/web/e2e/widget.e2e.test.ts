import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BAD_ANSWER_OFFER } from '@parley/chat-client';
import { CONTACT_FORM, HANDOFF_TEXTS, HELPDESK_TEXTS, LEAD_TEXTS } from '@parley/contracts';
import type { BrowserContext, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
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
      const box = thread.getByRole('textbox', { name: 'Message' });
      await box.fill('Hello, I can help.');
      await box.press('Enter');
      await chat.getByTestId('agent-message').filter({ hasText: 'Hello, I can help.' }).waitFor();
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
});
