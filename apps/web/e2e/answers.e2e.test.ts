import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OpenAiFake, startOpenAiFake } from '../../server/src/test/fakes/openai';
import { BAKERY_QNA, type BakerySite, serveBakery } from '../../server/src/test/sites/bakery';
import {
  addTrainedQna,
  apiCall,
  crawlViaApi,
  createBotViaApi,
  type Harness,
  person,
  screenshot,
  screenshotOnFailure,
  signUp,
  startHarness,
  tokenOf,
} from './harness';

/**
 * Issue 30, as a bakery's customer meets it: the bakery's site is crawled, its owner's Q&A pairs
 * added, and the widget on its site asked what customers ask, with no language model.
 */
describe("answers on a small business's own site", () => {
  let h: Harness;
  let site: BakerySite;
  let llm: OpenAiFake;
  beforeAll(async () => {
    site = await serveBakery();
    llm = await startOpenAiFake();
    h = await startHarness({ env: { CRAWLER_ALLOW_PRIVATE: 'true' } });
  });
  afterAll(async () => {
    await h?.close();
    await site?.close();
    await llm?.close();
  });

  it('answers with the right page cited, follows up, abstains and offers a person, and answers a paraphrase with the pair alone', async () => {
    const { page: owner } = await h.newPage();
    screenshotOnFailure(owner, 'answers-owner');
    await signUp(owner, person('maya'));
    const token = await owner.evaluate(() => localStorage.getItem('accessToken'));
    const sourceId = await crawlViaApi(h, token, `${site.url}/`, 'Blue Fern');
    const bot = await createBotViaApi(h, owner, {
      bot_name: 'Blue Fern',
      is_public: 'true',
      web_source_ids: JSON.stringify([sourceId]),
    });
    for (const pair of BAKERY_QNA) await addTrainedQna(h, token, bot.bot_id, pair);
    site.embed(bot.uuid, `${h.baseUrl}/widget.js`);

    const { page } = await h.newPage({ width: 1200, height: 900 });
    screenshotOnFailure(page, 'answers-widget');
    await page.goto(`${site.url}/visit`);
    await page.getByRole('button', { name: 'Open chat' }).click();
    const chat = page.getByRole('dialog', { name: 'Chat with Blue Fern' });
    // Enter sends only once the socket is open.
    await chat.locator('[data-testid="connection-status"][data-status="open"]').waitFor({ timeout: 20_000 });
    const box = chat.getByRole('textbox', { name: 'Message' });
    const ask = async (question: string, answer: string) => {
      await box.fill(question);
      await box.press('Enter');
      const reply = chat.getByTestId('bot-message').filter({ hasText: answer });
      await reply.waitFor({ timeout: 30_000 });
      return reply;
    };

    // A greeting is greeted back, with nothing to rate and no person offered.
    const hello = await ask('Hi there!', 'Hello! How can I help you today?');
    expect(await hello.getByRole('button', { name: 'Good answer' }).count()).toBe(0);
    expect(await hello.getByRole('button', { name: 'Talk to a person' }).count()).toBe(0);

    const delivery = await ask('How much does delivery cost?', 'Delivery costs $6');
    await delivery.getByRole('button', { name: 'Good answer' }).waitFor();
    await delivery
      .getByTestId('message-sources')
      .getByRole('link', { name: /^Delivery/ })
      .waitFor();

    const saturday = await ask('What time do you open on Saturday?', 'Saturday: 8 am – 4 pm');
    await saturday
      .getByTestId('message-sources')
      .getByRole('link', { name: /^Opening hours/ })
      .waitFor();
    await ask('and on Sunday?', 'Sunday: 9 am – 1 pm');

    const pizza = await ask('Do you sell pizza?', "Sorry, I don't know the answer to that.");
    expect(await pizza.textContent()).not.toContain('birthday');
    await chat.getByRole('button', { name: 'Talk to a person' }).first().waitFor();

    // Sources that hold only part of the question are quoted, said as not sure, with a person offered.
    const team = await ask('is the team friendly', "I'm not sure this answers your question");
    await team.getByText(/Today a team of eight bakes through the night/).waitFor();
    await team.getByRole('button', { name: 'Talk to a person' }).waitFor();
    await team
      .getByTestId('message-sources')
      .getByRole('link', { name: /^About us/ })
      .waitFor();
    // The quote helped this visitor: their thumbs up tells the owner.
    await team.getByRole('button', { name: 'Good answer' }).click();
    await team.getByRole('button', { name: 'Good answer', pressed: true }).waitFor();
    await screenshot(page, 'answers-widget-not-sure');

    const cake = await ask('can I get a cake for my birthday?', BAKERY_QNA[0]!.answer);
    // The pair's answer alone: its question shows only as the source it came from, after the answer.
    const text = (await cake.textContent())!;
    expect(text.slice(0, text.indexOf(BAKERY_QNA[0]!.answer))).not.toContain(BAKERY_QNA[0]!.question);
    expect(await cake.getByTestId('message-sources').textContent()).toContain(BAKERY_QNA[0]!.question);
    expect(text.split(BAKERY_QNA[0]!.question)).toHaveLength(2);
    await screenshot(page, 'answers-widget');

    // The owner sees the same decision in the playground, and why.
    await owner.goto(`/bot/${bot.bot_id}/playground`);
    await owner.getByRole('button', { name: 'What the bot finds' }).click();
    const finds = owner.getByRole('form', { name: "Search the bot's sources" });
    await finds.getByLabel('Question').fill('Do you sell pizza?');
    await finds.getByRole('button', { name: 'Search' }).click();
    const note = owner.getByLabel('What the bot would do');
    await note.getByText('Would not answer: nothing covers pizza').waitFor();
    await finds.getByLabel('Question').fill('How much does delivery cost?');
    await finds.getByRole('button', { name: 'Search' }).click();
    await note.getByText(/^Would answer from Delivery/).waitFor();
    await screenshot(owner, 'answers-what-the-bot-finds');
    await finds.getByLabel('Question').fill('is the team friendly');
    await finds.getByRole('button', { name: 'Search' }).click();
    await note.getByText(/but say it is not sure and offer a person: covers team, not friendly$/).waitFor();
    await note.getByText(/A page or a Q&A pair in your customers' words makes it sure/).waitFor();
    await screenshot(owner, 'answers-what-the-bot-finds-not-sure');

    // What the visitor asked and the bot was not sure of waits in the Q&A screen for an answer.
    await owner.goto(`/bot/knowledge/qna?bot=${bot.bot_id}`);
    await owner
      .getByRole('region', { name: 'Unanswered questions of Blue Fern' })
      .getByTestId('unanswered-question')
      .filter({ hasText: 'is the team friendly' })
      .getByText('answered, not sure')
      .waitFor({ timeout: 15_000 });
    await owner
      .getByTestId('unanswered-question')
      .filter({ hasText: 'is the team friendly' })
      .getByText('a visitor found the quote helpful')
      .waitFor();
    await owner
      .getByTestId('bot-answer')
      .getByText(/Today a team of eight bakes through the night/)
      .waitFor();
    // The owner answers it, starting from what the bot quoted, and the next visitor gets that answer.
    await owner
      .getByTestId('unanswered-question')
      .filter({ hasText: 'is the team friendly' })
      .getByRole('button', { name: 'Answer', exact: true })
      .click();
    const dialog = owner.getByRole('dialog', { name: "Answer a visitor's question" });
    await dialog.getByRole('button', { name: "Start from the bot's quote" }).click();
    const answerBox = dialog.getByLabel('Answer', { exact: true });
    expect(await answerBox.inputValue()).toContain('Today a team of eight bakes');
    await answerBox.fill('Very: our team of eight bakers loves a chat. Come and say hello!');
    await dialog.getByRole('button', { name: 'Add', exact: true }).click();
    await dialog.waitFor({ state: 'hidden' });
    await owner
      .getByRole('table', { name: 'Q&A pairs of Blue Fern' })
      .getByRole('row', { name: /is the team friendly/ })
      .getByText('Trained', { exact: true })
      .waitFor({ timeout: 15_000 });
    await ask('is the team friendly', 'Very: our team of eight bakers loves a chat.');
    await screenshot(owner, 'answers-unanswered-not-sure');
  });

  it("never shows a price the bot's model made up: the owner sees the sources' answer and which figure was held back", async () => {
    const { page } = await h.newPage({ width: 1200, height: 900 });
    screenshotOnFailure(page, 'answers-unverified');
    await signUp(page, person('noor'));
    const token = await tokenOf(page);
    const sourceId = await crawlViaApi(h, token, `${site.url}/`, 'Blue Fern');
    const model = await apiCall<{ id: number }>(h, token, 'POST', '/settings/llm', {
      name: 'Local',
      provider: 'openai-compatible',
      base_url: llm.url,
      model: 'tiny',
    });
    const bot = await createBotViaApi(h, page, {
      bot_name: 'Blue Fern',
      llm_model: String(model.id),
      web_source_ids: JSON.stringify([sourceId]),
    });
    llm.reply('Delivery is $17 [1], and free on orders over $50.');
    await page.goto(`/bot/${bot.bot_id}/playground`);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('How much does delivery cost?');
    await box.press('Enter');
    const answer = page.getByTestId('bot-message').filter({ hasText: 'Delivery costs $6' });
    await answer.waitFor({ timeout: 30_000 });
    // The figure shows only in the owner's note of why.
    const shown = (await answer.textContent())!;
    expect(shown.slice(0, shown.indexOf("The model's answer was not given"))).not.toContain('$17');
    await answer
      .getByTestId('unverified-note')
      .getByText(/it said “\$17”, which the sources do not back/)
      .waitFor();
    await screenshot(page, 'answers-unverified');
  });
});
