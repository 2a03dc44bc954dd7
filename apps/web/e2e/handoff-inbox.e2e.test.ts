import { HANDOFF_TEXTS, HELPDESK_TEXTS, LEAD_TEXTS } from '@parley/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createBotViaApi,
  type Harness,
  openChatPage,
  person,
  screenshot,
  screenshotOnFailure,
  signUp,
  startHarness,
} from './harness';

/** The visitor's line in the full-page chat: typed, sent, shown. */
async function say(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await expect
    .poll(() => page.getByRole('button', { name: 'Send', exact: true }).isEnabled(), { timeout: 15_000 })
    .toBe(true);
  await box.press('Enter');
  await page.getByTestId('user-message').filter({ hasText: text }).first().waitFor();
}

/**
 * The inbox agents need (issue 15 item 3): a visitor of the public chat page asks for a person in
 * words; the owner finds the request under "Needs a person" with who is waiting and for how long,
 * takes over, replies, keeps an internal note, assigns it to themselves, closes it (it moves to
 * "Closed") and reopens it. The visitor sees each step; never the note.
 */
describe('hand-off inbox', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('needs a person → take over → reply → note → assign → close → closed → reopen', async () => {
    const { page: owner } = await h.newPage({ width: 1440, height: 1000 });
    screenshotOnFailure(owner, 'handoff-inbox-agent');
    const who = person('olga');
    const name = `${who.firstName} ${who.lastName}`;
    await signUp(owner, who);
    const bot = await createBotViaApi(h, owner, {
      bot_name: 'Desk helper',
      is_public: 'true',
      lead_form_config: JSON.stringify({
        enabled: true,
        title: 'Leave your details',
        // Once the conversation exists: a lead sent before the first message is tied to none.
        show_when: 'after_messages',
        after_messages: 1,
        fields: [
          { name: 'name', label: 'Name', type: 'text', required: true },
          { name: 'email', label: 'Email', type: 'email', required: true },
        ],
      }),
    });

    // The owner's inbox is open: an agent is online.
    await owner.goto('/inbox');
    const queue = owner.getByTestId('handoff-queue');
    await queue.getByRole('tab', { name: 'Needs a person (0)' }).waitFor();
    await owner.getByTestId('agent-indicator').filter({ hasText: 'Helpdesk Online' }).waitFor();

    // A visitor writes, leaves their name and email, then asks for a person in words.
    const visitor = await openChatPage(h, bot.uuid, 'handoff-inbox-visitor');
    await say(visitor, 'Hello, my order has not arrived');
    const leadForm = visitor.getByRole('form', { name: 'Leave your details' });
    await leadForm.getByRole('textbox', { name: 'Name' }).fill('Ana Visitor');
    await leadForm.getByRole('textbox', { name: 'Email' }).fill('ana@example.com');
    await leadForm.getByRole('button', { name: 'Send' }).click();
    await visitor.getByText(LEAD_TEXTS.received).waitFor();
    await say(visitor, 'I want to talk to a human');
    const notices = visitor.getByTestId('system-message');
    await notices.filter({ hasText: HANDOFF_TEXTS.requested(1) }).waitFor();

    // The request waits under "Needs a person": who, and for how long.
    await queue.getByRole('tab', { name: 'Needs a person (1)' }).waitFor();
    const item = queue.getByTestId('handoff-item').filter({ hasText: 'Ana Visitor' });
    await item.waitFor();
    expect(await item.textContent()).toMatch(/Waiting less than a minute/);
    const id = Number(await item.getAttribute('data-conversation-id'));
    await item.click();
    const thread = owner.getByTestId('inbox-thread');
    const details = thread.getByTestId('conversation-details');
    await details.getByTestId('visitor-name').filter({ hasText: 'Ana Visitor' }).waitFor();
    expect(await details.textContent()).toContain('ana@example.com');
    expect(await details.getByTestId('conversation-channel').textContent()).toBe('Web');
    expect(await details.getByTestId('handoff-state').textContent()).toBe('Needs a person');
    // The request is a notice in its place, not a bubble; every message has its time.
    await thread
      .getByTestId('system-message')
      .filter({ hasText: HANDOFF_TEXTS.requested(1) })
      .waitFor();
    expect(await thread.getByTestId('message-time').count()).toBeGreaterThanOrEqual(2);

    // Take over and reply.
    await thread.getByRole('button', { name: 'Take over' }).click();
    await notices.filter({ hasText: HELPDESK_TEXTS.agentJoined(name) }).waitFor();
    await details.getByTestId('handoff-state').filter({ hasText: 'With an agent' }).waitFor();
    const box = thread.getByRole('textbox', { name: 'Message' });
    await box.fill('Hello Ana, I can help.');
    await box.press('Enter');
    await visitor.getByTestId('agent-message').filter({ hasText: 'Hello Ana, I can help.' }).waitFor();

    // An internal note, never shown to the visitor.
    const notes = thread.getByRole('region', { name: 'Internal notes' });
    await notes.getByText('Internal notes — not visible to the visitor').waitFor();
    await notes.getByRole('textbox', { name: 'Note' }).fill('Wants a refund for order 42');
    await notes.getByRole('button', { name: 'Add note' }).click();
    const note = notes.getByTestId('internal-note').filter({ hasText: 'Wants a refund for order 42' });
    await note.waitFor();
    expect(await note.textContent()).toContain(name);

    // Assigned to the owner: shown in the select, and under "Mine".
    await thread.getByRole('combobox', { name: 'Assign to' }).click();
    await owner.getByRole('option', { name }).click();
    await expect.poll(() => thread.getByRole('combobox', { name: 'Assign to' }).textContent()).toBe(name);
    await queue.getByRole('tab', { name: /^Mine/ }).click();
    await queue.locator(`[data-testid="handoff-item"][data-conversation-id="${id}"]`).waitFor();
    await screenshot(owner, 'handoff-inbox-assigned');

    // History: who moved it and why.
    await details.getByRole('button', { name: 'History' }).click();
    const history = details.getByRole('list', { name: 'Hand-off history' });
    // The bot had no answer to the visitor's message before the request.
    await history.getByText('The bot did not know or was not sure; the visitor asked for a person').waitFor();
    await history.getByText(`${name} took over`).waitFor();

    // Closed: the visitor is told; it moves to "Closed".
    await details.getByRole('button', { name: 'Close', exact: true }).click();
    await notices.filter({ hasText: HANDOFF_TEXTS.closed }).waitFor();
    await details.getByTestId('handoff-state').filter({ hasText: 'Closed' }).waitFor();
    await queue.getByRole('tab', { name: /^Closed/ }).click();
    await queue.getByRole('tab', { name: 'Closed (1)' }).waitFor();
    await queue.locator(`[data-testid="handoff-item"][data-conversation-id="${id}"]`).waitFor();
    await history.getByText(`${name} closed the conversation`).waitFor();
    await screenshot(owner, 'handoff-inbox-closed');

    // Reopened: open again for both, and out of "Closed".
    await details.getByRole('button', { name: 'Reopen' }).click();
    await notices.filter({ hasText: HANDOFF_TEXTS.reopened }).waitFor();
    await details.getByTestId('handoff-state').filter({ hasText: 'With the bot' }).waitFor();
    await queue.getByRole('tab', { name: 'Closed (0)' }).waitFor();
    await queue.locator(`[data-testid="handoff-item"][data-conversation-id="${id}"]`).waitFor({
      state: 'detached',
    });

    // The visitor saw every step in order, and never the note.
    const steps = await visitor
      .locator('[data-testid="system-message"], [data-testid="agent-message"]')
      .evaluateAll((items) => items.map((item) => item.textContent?.replace(/^Agent/, '').trim()));
    expect(steps).toEqual([
      HANDOFF_TEXTS.requested(1),
      HELPDESK_TEXTS.agentJoined(name),
      'Hello Ana, I can help.',
      HANDOFF_TEXTS.closed,
      HANDOFF_TEXTS.reopened,
    ]);
    expect(await visitor.getByText('Wants a refund').count()).toBe(0);
  });
});
