import { MESSAGES } from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiCall,
  createBotViaApi,
  type Harness,
  openChatPage,
  person,
  screenshot,
  screenshotOnFailure,
  signUp,
  startHarness,
} from './harness';

const CALENDLY = 'https://calendly.com/trattoria/table';

/**
 * A restaurant owner sets up "Book a table" on their bot's Calendar booking tab, and a visitor
 * asking to book on the bot's chat page gets a button to it; deleting it takes the button away.
 */
describe('calendar booking', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is set up by the owner with the spec’s checks and toasts, and offered to a visitor who asks to book', async () => {
    const { page } = await h.newPage();
    screenshotOnFailure(page, 'booking-owner');
    await signUp(page, person('trattoria'));
    const bot = await createBotViaApi(h, page, { bot_name: 'Trattoria', is_public: 'true' });

    // No configuration yet: a 404 on load is an empty form, not an error.
    await page.goto(`/bot/${bot.bot_id}?tab=calendar`);
    const form = page.getByRole('form', { name: 'Calendar booking configuration' });
    await form.getByText('No calendar booking is configured for this bot yet.').waitFor();
    expect(await page.getByText(MESSAGES.calendar.loadFailed).count()).toBe(0);

    // Saved empty: the spec's three texts, nothing sent.
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByText(MESSAGES.calendar.titleRequired).waitFor();
    await form.getByText(MESSAGES.calendar.urlInvalid).waitFor();
    await form.getByText(MESSAGES.calendar.messageRequired).waitFor();

    // A link that is no web page, or hides its host behind a user name, is refused.
    await form.getByLabel('Title').fill('Book a table');
    await form.getByLabel('Message').fill('Pick a time that suits you.');
    for (const bad of ['javascript:alert(1)', 'https://calendly.com@evil.example/x']) {
      await form.getByLabel('Booking URL').fill(bad);
      await form.getByRole('button', { name: 'Save' }).click();
      await form.getByText(MESSAGES.calendar.urlInvalid).waitFor();
    }

    // A Calendly link with Google Calendar chosen: a warning naming Calendly, the save still allowed.
    await form.getByLabel('Booking URL').fill(CALENDLY);
    const warning = form.getByText(
      'This looks like a Calendly link, but Google Calendar is chosen as the provider.',
    );
    await warning.waitFor();
    await form.getByLabel('Provider').click();
    await page.getByRole('option', { name: 'Calendly' }).click();
    await warning.waitFor({ state: 'detached' });
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText(MESSAGES.calendar.saved).first().waitFor();
    await screenshot(page, 'booking-saved');

    // Saved: it is there after a reload, and saving again keeps one configuration.
    await page.reload();
    await expect.poll(() => form.getByLabel('Booking URL').inputValue(), { timeout: 10_000 }).toBe(CALENDLY);
    expect(await form.getByLabel('Title').inputValue()).toBe('Book a table');

    // The visitor asks to book on the bot's chat page: the answer carries the button to Calendly.
    const visitor = await openChatPage(h, bot.uuid, 'booking-visitor');
    const box = visitor.getByRole('textbox', { name: 'Message' });
    await box.fill('Can I book a table for 4 on Saturday?');
    await box.press('Enter');
    const answer = visitor.getByTestId('bot-message').filter({ hasText: 'Pick a time that suits you.' });
    await answer.waitFor({ timeout: 30_000 });
    const button = answer.getByRole('link', { name: 'Book a table' });
    expect(await button.getAttribute('href')).toBe(CALENDLY);
    expect(await button.getAttribute('target')).toBe('_blank');
    expect(await button.getAttribute('rel')).toContain('noopener');
    await screenshot(visitor, 'booking-answer');
    // Opening it counts as a booking click in the bot's analytics, as from the website widget.
    await visitor.context().route('https://calendly.com/**', (route) => route.fulfill({ body: 'Calendly' }));
    const opened = visitor.context().waitForEvent('page');
    await button.click();
    await (await opened).close();
    const token = await page.evaluate(() => localStorage.getItem('accessToken'));
    await expect
      .poll(
        async () =>
          (
            await apiCall<{ booking_clicks: number }>(
              h,
              token,
              'GET',
              `/analytics/overview?bot_id=${bot.bot_id}`,
            )
          ).booking_clicks,
        { timeout: 10_000 },
      )
      .toBe(1);

    // Deleted after confirming: the toast, and the empty form again.
    await form.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText(MESSAGES.calendar.deleted).first().waitFor();
    await form.getByText('No calendar booking is configured for this bot yet.').waitFor();

    // The next visitor asking to book is offered a person, not a dead link.
    const later = await openChatPage(h, bot.uuid, 'booking-visitor-after');
    const laterBox = later.getByRole('textbox', { name: 'Message' });
    await laterBox.fill('Can I book a table for 4 on Saturday?');
    await laterBox.press('Enter');
    const reply = later.getByTestId('bot-message').last();
    await reply.getByRole('button', { name: 'Talk to a person' }).waitFor({ timeout: 30_000 });
    expect(await reply.getByRole('link').count()).toBe(0);
  });
});
