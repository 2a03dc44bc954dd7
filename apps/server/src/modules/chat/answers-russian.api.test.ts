import type { Bot, PublicBot, SearchResult } from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askBot, citedPaths, createBotViaApi } from '../../test/bots.js';
import { crawlSite } from '../../test/crawl.js';
import { signupOwner } from '../../test/factories.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { servePekarnya } from '../../test/sites/pekarnya.js';

/**
 * A business whose site is in one of the languages whose words are kept one file each
 * (knowledge/words), here Russian, in Cyrillic: its visitors' questions are read in Russian, and
 * the widget, the bot's own lines and the hand-off speak Russian.
 */
let server: TestServer;
let owner: Account;
let bot: number;
let site: { url: string; close(): Promise<void> };

const as = (account: Account) => ({ token: account.access_token });
const ask = (message: string, conversationId?: number) => askBot(server, owner, bot, message, conversationId);

beforeAll(async () => {
  site = await servePekarnya();
  server = await startTestServer({ env: { CRAWLER_ALLOW_PRIVATE: 'true' } });
  owner = await signupOwner(server);
  const source = await crawlSite(server, owner, `${site.url}/`, 'Пекарня');
  bot = (
    await createBotViaApi(server, owner, { bot_name: 'Пекарня', web_source_ids: JSON.stringify([source]) })
  ).bot_id;
});

afterAll(async () => {
  await server?.close();
  await site?.close();
});

describe('a bot whose sources are in Russian', () => {
  it('reads a Russian question for what it asks, and answers from the page that holds it', async () => {
    const found = await server.post<SearchResult>(
      `/api/knowledge/search/${bot}`,
      { query: 'здравствуйте, сколько стоит доставка?' },
      as(owner),
    );
    expect(found.body.languages).toEqual(['russian']);
    // "здравствуйте" and "сколько" carry nothing; "сколько стоит" asks for a price.
    expect(found.body.decision).toMatchObject({ answers: true, missing: [] });
    expect(found.body.decision.covered).toEqual(expect.arrayContaining(['доставка', 'price']));

    const delivery = await ask('здравствуйте, сколько стоит доставка?');
    expect(delivery.body.bot_message).toMatchObject({ answer_mode: 'extractive' });
    expect(delivery.body.bot_message!.message).toContain('Доставка по Казани стоит 300 ₽');
    expect(citedPaths(delivery)).toEqual(['/dostavka']);
  });

  it('answers a follow-up from the conversation, and a new short question on its own', async () => {
    const saturday = await ask('во сколько вы открываетесь в субботу?');
    expect(saturday.body.bot_message!.message).toContain('Суббота: с 9:00 до 18:00');
    const sunday = await ask('а в воскресенье?', saturday.body.conversation_id);
    expect(sunday.body.bot_message!.message).toContain('Воскресенье: выходной');
    // A new short question is not answered from the turn before it: "wifi" is on no page.
    const delivery = await ask('сколько стоит доставка?');
    const wifi = await ask('есть ли у вас вайфай?', delivery.body.conversation_id);
    expect(wifi.body.bot_message!.answer_mode).toBe('not_found');
  });

  it('says it does not know, greets, thanks and hands off in Russian', async () => {
    const wifi = await ask('у вас есть вайфай для гостей?');
    expect(wifi.body.bot_message).toMatchObject({ answer_mode: 'not_found' });
    expect(wifi.body.bot_message!.message).toMatch(/^К сожалению, я не знаю ответа на этот вопрос\./);
    expect(wifi.body.bot_message!.actions).toEqual([
      { type: 'human', title: expect.stringMatching(/[а-я]/) },
    ]);
    const hello = await ask('Привет!');
    expect(hello.body.bot_message!.answer_mode).toBe('small_talk');
    expect(hello.body.bot_message!.message).toMatch(/^Здравствуйте!/);
    const thanks = await ask('спасибо большое', hello.body.conversation_id);
    expect(thanks.body.bot_message!.message).toMatch(/^Пожалуйста!/);
    const person = await ask('можно поговорить с оператором?');
    expect(person.body.bot_message!.message).toMatch(/^Сейчас никого из нашей команды нет в сети\./);
  });

  it("tells the widget to speak Russian, in the bot's default welcome too, under a name in Cyrillic", async () => {
    const { body } = await server.get<Bot>(`/api/chat/bots/${bot}`, as(owner));
    expect(body.bot_name).toBe('Пекарня');
    const shown = (await server.get<PublicBot>(`/api/auth/bot/uuid/${body.uuid}`)).body;
    expect(shown.language).toBe('russian');
    expect(shown.texts).toMatchObject({ lang: 'ru', send: 'Отправить' });
    // The default welcome, in Russian, naming the business (the workspace's name).
    expect(shown.welcome_message).toMatch(/^Здравствуйте! Вас приветствует .+\. Чем я могу вам помочь\?$/);
  });
});
