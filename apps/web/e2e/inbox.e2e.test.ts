import type { Bot, UnreadConversations, User } from '@parley/contracts';
import type { BrowserContext, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addTrainedQna,
  apiCall,
  type Harness,
  type Person,
  person,
  screenshot,
  screenshotOnFailure,
  signUp,
  startHarness,
} from './harness';

const QUESTION = 'Do you ship abroad?';
const ANSWER = 'Yes, we ship to 40 countries.';

/** A visitor's line in the full-page chat: typed and sent. */
async function say(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  // The composer waits while the bot is thinking about the previous message.
  await expect
    .poll(() => page.getByRole('button', { name: 'Send', exact: true }).isEnabled(), { timeout: 30_000 })
    .toBe(true);
  await box.press('Enter');
  await page.getByTestId('user-message').filter({ hasText: text }).first().waitFor();
}

/**
 * The support inbox end to end (issue "Support inbox", item 8): a visitor on the public full-page
 * chat and the bot's owner, an agent, in the inbox, each in their own browser context.
 */
describe('support inbox', () => {
  let h: Harness;
  let agent: Page;
  let agentContext: BrowserContext;
  let visitor: Page;
  let token: string;
  let owner: Person;
  let bot: Bot;
  let conversationId: number;
  let tenantId: number;
  /** The agent's help-desk sockets, passed through to the server, so the test can cut them. */
  const agentSockets: { page: WebSocketRoute; server: WebSocketRoute }[] = [];
  let networkDown = false;

  const thread = () => agent.getByTestId('inbox-thread');
  const conversationItem = () => agent.getByTestId('inbox-conversation').first();
  const unread = () =>
    apiCall<UnreadConversations>(h, token, 'GET', `/chat/helpdesk/unread-conversations/${tenantId}`);

  beforeAll(async () => {
    h = await startHarness();
    const a = await h.newPage({ width: 1440, height: 900 });
    agent = a.page;
    agentContext = a.context;
    // The browser keeps open sockets through an emulated offline spell: the test cuts them itself,
    // and refuses new ones until the network is back.
    await agentContext.routeWebSocket(/\/api\/chat\/helpdesk/, (ws) => {
      if (networkDown) {
        void ws.close({ code: 4000, reason: 'offline' });
        return;
      }
      agentSockets.push({ page: ws, server: ws.connectToServer() });
    });
    owner = person('agent');
    await signUp(agent, owner);
    token = (await agent.evaluate(() => localStorage.getItem('accessToken')))!;
    tenantId = (await apiCall<User>(h, token, 'GET', '/auth/user')).tenant_id;
    const form = new FormData();
    form.set('bot_name', 'Support helper');
    form.set('is_public', 'true');
    bot = await apiCall<Bot>(h, token, 'POST', '/chat/bots', form);
    await addTrainedQna(h, token, bot.bot_id, { question: QUESTION, answer: ANSWER });
    visitor = (await h.newPage({ width: 480, height: 800 })).page;
  });
  afterAll(async () => {
    await h?.close();
  });

  it('unread → read → take over → the bot is silent → the agent answers → hand back → the bot answers', async () => {
    screenshotOnFailure(agent, 'inbox-agent');
    screenshotOnFailure(visitor, 'inbox-visitor');
    await agent.goto('/inbox');
    await agent.getByRole('heading', { name: 'Support Inbox', level: 1 }).waitFor();
    await agent.getByTestId('inbox-bot').filter({ hasText: 'Support helper' }).waitFor();
    // The agent's open inbox makes the help desk online for everyone in the workspace.
    await agent
      .getByTestId('agent-indicator')
      .filter({ hasText: 'Helpdesk Online' })
      .waitFor({ timeout: 15_000 });

    // The visitor writes; the bot answers; the agent sees a new, unread conversation live.
    await visitor.goto(`/chat/${bot.uuid}`);
    await visitor
      .locator('[data-testid="connection-status"][data-status="open"]')
      .first()
      .waitFor({ timeout: 20_000 });
    await say(visitor, 'Hello, I have a question about my order');
    await visitor.getByTestId('bot-message').first().waitFor({ timeout: 30_000 });
    const item = conversationItem();
    await item.getByTestId('unread-count').waitFor({ timeout: 15_000 });
    expect(await item.textContent()).toContain('Hello, I have a question about my order');
    expect(Number(await item.getAttribute('data-unread'))).toBeGreaterThanOrEqual(1);
    conversationId = Number(await item.getAttribute('data-conversation-id'));
    await screenshot(agent, 'inbox-unread');

    // Opening it reads it, here and on the server.
    await item.click();
    await thread().getByTestId('user-message').filter({ hasText: 'question about my order' }).waitFor();
    await item.getByTestId('unread-count').waitFor({ state: 'detached' });
    await expect
      .poll(
        async () =>
          (await unread()).conversations.find((c) => c.conversation_id === conversationId)?.unread_count ?? 0,
      )
      .toBe(0);
    // The reply box waits for a take-over.
    await thread().getByTestId('reply-locked').waitFor();
    expect(await thread().getByRole('textbox', { name: 'Message' }).count()).toBe(0);

    // Take over: the visitor sees the notice, stored in its place in the conversation.
    await thread().getByRole('button', { name: 'Take over' }).click();
    await thread().getByRole('button', { name: 'Hand back' }).waitFor();
    expect(await thread().getByTestId('thread-holder').textContent()).toBe('You');
    const notices = visitor.getByTestId('system-message');
    await notices.first().waitFor({ timeout: 15_000 });
    expect(await notices.first().textContent()).toContain('joined the conversation');
    // The conversations list says who holds it.
    await expect
      .poll(() => conversationItem().getByTestId('conversation-holder').textContent())
      .toBe(`${owner.firstName} ${owner.lastName}`);

    // The bot stays silent on the visitor's next message (even one it could answer); the agent sees it.
    const botAnswers = visitor.getByTestId('bot-message');
    const before = await botAnswers.count();
    await say(visitor, QUESTION);
    await thread().getByTestId('user-message').filter({ hasText: QUESTION }).waitFor({ timeout: 15_000 });
    await visitor.waitForTimeout(3000);
    expect(await botAnswers.count()).toBe(before);
    expect(await visitor.getByText(ANSWER).count()).toBe(0);

    // The agent's reply reaches the visitor, labelled as an agent's.
    const reply = 'Hi, this is a person. We ship almost everywhere.';
    const box = thread().getByRole('textbox', { name: 'Message' });
    await box.fill(reply);
    await box.press('Enter');
    await thread().getByTestId('agent-message').filter({ hasText: reply }).waitFor();
    const delivered = visitor.getByTestId('agent-message').filter({ hasText: reply });
    await delivered.waitFor({ timeout: 15_000 });
    expect(await delivered.count()).toBe(1);
    await screenshot(visitor, 'inbox-visitor-agent-reply');

    // Hand back: a second notice, and the bot answers again.
    await thread().getByRole('button', { name: 'Hand back' }).click();
    await thread().getByRole('button', { name: 'Take over' }).waitFor();
    await expect.poll(() => notices.count(), { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    await say(visitor, QUESTION);
    await expect
      .poll(() => visitor.getByTestId('bot-message').filter({ hasText: ANSWER }).count(), { timeout: 30_000 })
      .toBeGreaterThanOrEqual(1);
    await thread()
      .getByTestId('bot-message')
      .filter({ hasText: ANSWER })
      .first()
      .waitFor({ timeout: 15_000 });
    await screenshot(agent, 'inbox-thread');
  });

  it('counts new messages on the bell while the agent is on another page; the bell goes to /inbox', async () => {
    screenshotOnFailure(agent, 'inbox-bell');
    screenshotOnFailure(visitor, 'inbox-bell-visitor');
    // Another page of the console, reached inside the app (the channel stays open).
    await agent.getByRole('link', { name: 'Manage Bots' }).first().click();
    await agent.waitForURL('**/bot');
    // The address changes first; the inbox stays on screen (and reads what arrives) until the new
    // page is ready to replace it, a few hundred milliseconds on a loaded machine.
    await agent.getByRole('heading', { name: 'Manage Bots', level: 1 }).waitFor();
    await thread().waitFor({ state: 'detached' });
    expect(await agent.getByTestId('agent-indicator').textContent()).toBe('Helpdesk Online');
    const bell = agent.getByRole('button', { name: /^Notifications/ });
    const count = async () => Number((await bell.getAttribute('aria-label'))?.match(/\((\d+)\)/)?.[1] ?? 0);
    const start = await count();
    await say(visitor, 'Are you still there?');
    // Stored on the server first (a failure here is the visitor's send, not the bell).
    await expect
      .poll(
        async () =>
          (
            await apiCall<{ messages: { message: string }[] }>(
              h,
              token,
              'GET',
              `/chat/helpdesk/conversations/${conversationId}`,
            )
          ).messages.some((m) => m.message === 'Are you still there?'),
        { timeout: 30_000 },
      )
      .toBe(true);
    await expect.poll(count, { timeout: 30_000 }).toBeGreaterThan(start);
    await bell.click();
    await agent.waitForURL('**/inbox');
    expect(await count()).toBe(0);
    await agent.getByTestId('inbox-bot').first().waitFor();
  });

  it('after the agent loses the network, each message the visitor sent meanwhile appears once', async () => {
    screenshotOnFailure(agent, 'inbox-reconnect');
    await agent.getByTestId('inbox-bot').first().waitFor();
    const item = agent.locator(
      `[data-testid="inbox-conversation"][data-conversation-id="${conversationId}"]`,
    );
    await item.click();
    await thread().getByTestId('user-message').filter({ hasText: 'Are you still there?' }).waitFor();

    const panes = agent.getByTestId('inbox-panes');
    expect(await panes.getAttribute('data-connection')).toBe('open');
    networkDown = true;
    await agentContext.setOffline(true);
    for (const socket of agentSockets.splice(0)) {
      await socket.page.close({ code: 4000, reason: 'offline' });
      await socket.server.close();
    }
    await expect.poll(() => panes.getAttribute('data-connection')).not.toBe('open');
    await say(visitor, 'First message while you were away');
    await say(visitor, 'Second message while you were away');
    await visitor.getByTestId('bot-message').last().waitFor();
    await agent.waitForTimeout(1500);
    expect(
      await thread().getByTestId('user-message').filter({ hasText: 'while you were away' }).count(),
    ).toBe(0);
    // The network returns: the channel reconnects at once and asks for what it missed.
    networkDown = false;
    await agentContext.setOffline(false);
    await agent.locator('[data-testid="inbox-panes"][data-connection="open"]').waitFor({ timeout: 30_000 });

    for (const text of ['First message while you were away', 'Second message while you were away']) {
      const copies = thread().getByTestId('user-message').filter({ hasText: text });
      await copies.first().waitFor({ timeout: 30_000 });
      await agent.waitForTimeout(500);
      expect(await copies.count()).toBe(1);
    }
    // Nothing doubled either in what came before.
    expect(
      await thread().getByTestId('user-message').filter({ hasText: 'Are you still there?' }).count(),
    ).toBe(1);
    expect(await thread().getByTestId('agent-message').count()).toBe(1);
  });

  it('starts a New Chat, filters by holder, deletes a conversation; the panes stack on a phone', async () => {
    screenshotOnFailure(agent, 'inbox-new-chat');
    const conversations = agent.getByTestId('inbox-conversation');
    const before = await conversations.count();
    await agent.getByRole('button', { name: 'New Chat' }).click();
    // Named 'New Chat', seeded with the welcome, selected.
    await thread()
      .getByRole('heading', { name: /New Chat$/ })
      .waitFor();
    await thread().getByTestId('welcome-message').waitFor();
    await expect.poll(() => conversations.count()).toBe(before + 1);

    // Filters: nobody holds a conversation now, so "Human" lists none; "Bot" lists them all.
    await agent.getByRole('combobox', { name: 'Handled by' }).click();
    await agent.getByRole('option', { name: 'Human' }).click();
    await expect.poll(() => conversations.count()).toBe(0);
    await agent.getByRole('combobox', { name: 'Handled by' }).click();
    await agent.getByRole('option', { name: 'Bot' }).click();
    await expect.poll(() => conversations.count()).toBe(before + 1);

    // Delete the new one, after a confirmation.
    await thread().getByRole('button', { name: 'Delete this conversation' }).click();
    await agent
      .getByRole('dialog', { name: 'Delete conversation' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await agent.getByRole('alert').filter({ hasText: 'Conversation deleted' }).first().waitFor();
    await expect.poll(() => conversations.count()).toBe(before);

    // A phone: bots above conversations above the thread.
    await agent.setViewportSize({ width: 390, height: 844 });
    const bots = await agent.getByRole('list', { name: 'Bots' }).boundingBox();
    const list = await agent.getByRole('list', { name: 'Conversations' }).boundingBox();
    expect(bots && list && bots.y + bots.height <= list.y).toBe(true);
    const overflow = await agent.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(agent, 'inbox-mobile');
  });

  it('opens a long thread on its newest 50 and loads older ones on scrolling up, keeping the place', async () => {
    screenshotOnFailure(agent, 'inbox-long-thread');
    await agent.setViewportSize({ width: 1440, height: 900 });
    // A conversation of 80 messages: the welcome (seq 1), then "Reply 2" … "Reply 80" by the agent.
    const made = await apiCall<{ id: number }>(h, token, 'POST', '/chat/helpdesk/new-chat', {
      bot_id: bot.bot_id,
    });
    await apiCall(h, token, 'PATCH', `/chat/conversations/${made.id}/helpdesk-control`, {
      tenant_id: tenantId,
      is_helpdesk_in_control: true,
    });
    for (let seq = 2; seq <= 80; seq++)
      await apiCall(h, token, 'POST', `/chat/helpdesk/conversations/${made.id}/reply`, {
        message: `Reply ${seq}`,
      });

    // A notification's link opens it: the newest page, the welcome not loaded.
    await agent.goto(`/inbox?conversation=${made.id}&bot=${bot.bot_id}`);
    const replies = thread().getByTestId('agent-message');
    await replies.filter({ hasText: 'Reply 80' }).waitFor();
    await thread().getByTestId('thread-earlier').waitFor();
    expect(await replies.count()).toBe(50);
    expect(await thread().getByTestId('welcome-message').count()).toBe(0);

    // Scrolled to the top, the 29 older ones come in above; "Reply 31" stays where it was.
    const anchor = replies.filter({ has: agent.getByText('Reply 31', { exact: true }) });
    const topBefore = await agent.evaluate(() => {
      const scroller = document.querySelector('[data-testid="thread-scroll"]')!.firstElementChild!;
      scroller.scrollTop = 0;
      return [...scroller.querySelectorAll('[data-testid="agent-message"]')][0]!.getBoundingClientRect().top;
    });
    await thread().getByTestId('welcome-message').waitFor();
    await expect.poll(() => replies.count()).toBe(79);
    expect(await thread().getByTestId('thread-earlier').count()).toBe(0);
    const topAfter = (await anchor.boundingBox())!.y;
    expect(Math.abs(topAfter - topBefore)).toBeLessThan(40);
    await screenshot(agent, 'inbox-thread-earlier');

    // A live message still lands at the bottom, once.
    await apiCall(h, token, 'POST', `/chat/helpdesk/conversations/${made.id}/reply`, { message: 'Reply 81' });
    await replies.filter({ hasText: 'Reply 81' }).waitFor();
    expect(await replies.count()).toBe(80);
    await apiCall(h, token, 'PATCH', `/chat/conversations/${made.id}/helpdesk-control`, {
      tenant_id: tenantId,
      is_helpdesk_in_control: false,
    });
  });
});
