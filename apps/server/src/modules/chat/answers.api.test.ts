import {
  BOT,
  type Bot,
  type ChatExchange,
  type ConversationWithMessages,
  type SearchResult,
  type StreamEvent,
  type UnansweredGroup,
} from '@parley/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addModelSetting, addTrainedPairs, createBotViaApi } from '../../test/bots.js';
import { crawlSite } from '../../test/crawl.js';
import { signupOwner } from '../../test/factories.js';
import { type OpenAiFake, startOpenAiFake } from '../../test/fakes/openai.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { BAKERY_QNA, serveBakery } from '../../test/sites/bakery.js';
import { openVisitor, visitorConversation } from '../../test/visitor.js';
import { DECLINE } from './answer.service.js';
import { conversations } from './chat.schema.js';
import { TEXTS } from './reply-texts.js';
import { capabilitiesReply, identityReply, SMALL_TALK_REPLIES } from './small-talk.js';

/**
 * Answers a small business can put in front of its customers (issue 30): a bakery's six-page site
 * crawled on loopback and five Q&A pairs, asked what its customers ask, with no model and with one.
 */
let server: TestServer;
let site: { url: string; close(): Promise<void> };
let llm: OpenAiFake;
let owner: Account;
let botId: number;
let bot: Bot;
let sourceId: number;
const SUGGESTIONS = ['How much does delivery cost?', 'Do you make birthday cakes?'];
/** The About page's sentence holds "team", nothing holds "friendly": under half of the question. */
const PARTLY = 'is the team friendly';

const as = (account: Account) => ({ token: account.access_token });
const ask = (message: string, conversationId?: number, bot = botId) =>
  server.post<ChatExchange>(
    '/api/chat/chats',
    { bot_id: bot, message, ...(conversationId ? { conversation_id: conversationId } : {}) },
    as(owner),
  );
/** Asks on the stream route (the widget's and the playground's): its raw text, and its last (final) event. */
async function askStreamed(message: string, bot = botId) {
  const response = await fetch(`${server.url}/api/chat/chats/stream`, {
    method: 'POST',
    headers: { authorization: `Bearer ${owner.access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ bot_id: bot, message }),
  });
  const raw = await response.text();
  const events = raw
    .split('\n\n')
    .filter((block) => block.startsWith('data: '))
    .map((block) => JSON.parse(block.slice(6)) as StreamEvent);
  const streamed = events.flatMap((event) => (event.type === 'chunk' ? [event.data] : [])).join('');
  return { raw, streamed, final: events.at(-1) as Extract<StreamEvent, { type: 'final' }> };
}
const search = (query: string, bot = botId) =>
  server.post<SearchResult>(`/api/knowledge/search/${bot}`, { query }, as(owner));
const pathsOf = (reply: { body: ChatExchange }) =>
  reply.body.bot_message!.sources.map((s) => (s.page_url ? new URL(s.page_url).pathname : s.source_type));

beforeAll(async () => {
  site = await serveBakery();
  llm = await startOpenAiFake();
  server = await startTestServer({ env: { CRAWLER_ALLOW_PRIVATE: 'true', LLM_TIMEOUT_MS: '5000' } });
  owner = await signupOwner(server);
  sourceId = await crawlSite(server, owner, `${site.url}/`, 'Blue Fern');
  const created = await createBotViaApi(server, owner, {
    bot_name: 'Blue Fern',
    web_source_ids: JSON.stringify([sourceId]),
    suggestion_questions: JSON.stringify(SUGGESTIONS),
  });
  botId = created.bot_id;
  bot = created;
  await addTrainedPairs(server, owner, botId, BAKERY_QNA);
});
afterAll(async () => {
  await server?.close();
  await site?.close();
  await llm?.close();
});

describe('answers without a model', () => {
  it("quotes the page's sentence that answers, and cites that page alone", async () => {
    const reply = await ask('How much does delivery cost?');
    expect(reply.body.bot_message).toMatchObject({ answer_mode: 'extractive' });
    expect(reply.body.bot_message!.message).toContain('Delivery costs $6');
    expect(pathsOf(reply)).toEqual(['/delivery']);
  });

  it('quotes a line of a list under a matching heading (the hours are not sentences)', async () => {
    const reply = await ask('What time do you open on Saturday?');
    expect(reply.body.bot_message!.message).toContain('Saturday: 8 am – 4 pm');
    expect(reply.body.bot_message!.message).not.toContain('Sunday');
    expect(pathsOf(reply)).toEqual(['/hours']);
  });

  it('quotes the whole list when every line of it answers', async () => {
    const reply = await ask('What are your opening hours?');
    const text = reply.body.bot_message!.message;
    for (const day of ['Monday: closed', 'Saturday: 8 am – 4 pm', 'Sunday: 9 am – 1 pm'])
      expect(text).toContain(day);
    expect(pathsOf(reply)).toEqual(['/hours']);
  });

  it('abstains honestly on what the site never says, offers a person, and never quotes a pair', async () => {
    for (const question of ['Do you sell pizza?', 'Do you deliver on Christmas day?']) {
      const reply = await ask(question);
      const message = reply.body.bot_message!;
      expect(message, question).toMatchObject({ answer_mode: 'not_found', sources: [] });
      expect(message.message).toBe(TEXTS.notFound + TEXTS.offerHumanLater);
      expect(message.actions).toEqual([expect.objectContaining({ type: 'human' })]);
      for (const pair of BAKERY_QNA) expect(message.message).not.toContain(pair.question);
    }
  });

  it('says it is not sure when the sources hold only part of the question, quotes them with their page, and offers a person', async () => {
    const reply = await ask(PARTLY);
    const message = reply.body.bot_message!;
    expect(message.answer_mode).toBe('unsure');
    expect(message.message).toBe(
      `${TEXTS.unsure}\n\nToday a team of eight bakes through the night so the shelves are full when the doors open.\n\n${TEXTS.offerHumanLater.trim()}`,
    );
    expect(pathsOf(reply)).toEqual(['/about']);
    expect(message.actions).toEqual([expect.objectContaining({ type: 'human' })]);
    // A question the sources answer whole is said plainly.
    expect((await ask('Is the almond croissant vegan?')).body.bot_message!.answer_mode).toBe('extractive');
  });

  it("queues a visitor's question the bot was not sure of for the owner to answer", async () => {
    const { answer } = await visitorConversation(server, bot, PARTLY);
    expect(answer.startsWith(TEXTS.unsure)).toBe(true);
    const queue = await server.get<UnansweredGroup[]>(`/api/unanswered/bot/${botId}`, as(owner));
    // With what the bot quoted, without its lines around it: the owner sees what the visitor was given.
    expect(queue.body.find((group) => group.question === PARTLY)).toMatchObject({
      answered_unsure: true,
      bot_answer:
        'Today a team of eight bakes through the night so the shelves are full when the doors open.',
    });
    // A visitor whose thumbs up says the quote helped marks it for the owner; taken back, it is unmarked.
    const helped = await openVisitor(server, bot);
    const quoted = await helped.ask(PARTLY);
    const rate = (rating: 'up' | null) =>
      server.post('/api/analytics/ratings', { message_id: quoted.id, rating, visitor_token: helped.token });
    const helpfulOf = async () =>
      (await server.get<UnansweredGroup[]>(`/api/unanswered/bot/${botId}`, as(owner))).body.find(
        (group) => group.question === PARTLY,
      )?.rated_helpful;
    expect(await helpfulOf()).toBe(0);
    expect((await rate('up')).status).toBe(200);
    expect(await helpfulOf()).toBe(1);
    await rate(null);
    expect(await helpfulOf()).toBe(0);
    helped.close();
    // A question the bot could not answer at all is queued too, but not as answered.
    await visitorConversation(server, bot, 'Do you sell pizza?');
    const again = await server.get<UnansweredGroup[]>(`/api/unanswered/bot/${botId}`, as(owner));
    expect(again.body.find((group) => group.question === 'Do you sell pizza?')).toMatchObject({
      answered_unsure: false,
      bot_answer: null,
    });
  });

  it("answers a paraphrase of a pair with the pair's answer alone, and not a pair that only shares a word", async () => {
    const paraphrase = await ask('can I get a cake for my birthday?');
    expect(paraphrase.body.bot_message).toMatchObject({
      answer_mode: 'qna',
      message: BAKERY_QNA[0]!.answer,
    });
    // "sell" is the birthday pair's word too, but the visitor asks about bread.
    const bread = await ask('Do you sell rye bread?');
    expect(bread.body.bot_message!.answer_mode).not.toBe('qna');
    expect(bread.body.bot_message!.message).toContain('Seeded rye: $9');
    // In other everyday words ("payment" for "pay"), around chat words that say nothing ("hi guys").
    const card = await ask('hi guys, is payment by card ok?');
    expect(card.body.bot_message).toMatchObject({ answer_mode: 'qna', message: BAKERY_QNA[3]!.answer });
  });

  it('greets, thanks and says goodbye back without searching the sources, and answers a question with a greeting in it', async () => {
    const hello = await ask('Hello there!');
    expect(hello.body.bot_message).toMatchObject({
      answer_mode: 'small_talk',
      message: SMALL_TALK_REPLIES.greeting,
      sources: [],
      actions: [],
    });
    const thanks = await ask('thanks a lot 🙏', hello.body.conversation_id);
    expect(thanks.body.bot_message).toMatchObject({
      answer_mode: 'small_talk',
      message: SMALL_TALK_REPLIES.thanks,
    });
    const bye = await ask('ok thanks, bye!', hello.body.conversation_id);
    expect(bye.body.bot_message!.message).toBe(SMALL_TALK_REPLIES.goodbye);
    // The first question names the conversation (the inbox row, the most asked list), not "hello".
    const nameOf = async (id: number) =>
      (await server.database.db.select().from(conversations).where(eq(conversations.id, id)))[0]!.name;
    expect(await nameOf(hello.body.conversation_id)).toBe(BOT.newConversationName);
    await ask('Do you sell sourdough?', hello.body.conversation_id);
    expect(await nameOf(hello.body.conversation_id)).toBe('Do you sell sourdough?');
    const question = await ask('hi, how much does delivery cost?');
    expect(question.body.bot_message).toMatchObject({ answer_mode: 'extractive' });
    expect(question.body.bot_message!.message).toContain('Delivery costs $6');
  });

  it('says it is an automated assistant when asked, what it can do, and that it is still there', async () => {
    const bot = await ask('Hi, am I talking to a real person?');
    expect(bot.body.bot_message).toMatchObject({
      answer_mode: 'small_talk',
      message: identityReply('Blue Fern', true),
      sources: [],
      actions: [expect.objectContaining({ type: 'human' })],
    });
    const there = await ask('hello?? are you still there?', bot.body.conversation_id);
    expect(there.body.bot_message).toMatchObject({
      answer_mode: 'small_talk',
      message: SMALL_TALK_REPLIES.presence,
      actions: [],
    });
    const can = await ask('So what can you help me with?', bot.body.conversation_id);
    expect(can.body.bot_message).toMatchObject({
      answer_mode: 'small_talk',
      message: capabilitiesReply(SUGGESTIONS, true),
      actions: [expect.objectContaining({ type: 'human' })],
    });
    expect(can.body.bot_message!.message).toContain('“Do you make birthday cakes?”');
    // None is a question the owner should have answered.
    const unanswered = await server.get(`/api/unanswered/bot/${botId}`, as(owner));
    expect(unanswered.status).toBe(200);
    expect(JSON.stringify(unanswered.body)).not.toMatch(/real person|still there|help me with/);
  });

  it('never quotes a near-duplicate: the pair and the page saying the same thing give one sentence', async () => {
    const reply = await ask('Is there free parking near the bakery?');
    const text = reply.body.bot_message!.message;
    expect(text.match(/street parking/g)).toHaveLength(1);
    expect(text).not.toContain('Is there parking?');
  });

  it('reads a follow-up with the question before it', async () => {
    const first = await ask('When do you open on Saturday?');
    expect(first.body.bot_message!.message).toContain('8 am');
    const next = await ask('and on Sunday?', first.body.conversation_id);
    expect(next.body.bot_message!.message).toContain('Sunday: 9 am – 1 pm');
    expect(next.body.bot_message!.message).not.toContain('Saturday');
    // "Why this answer?" in the playground searches it as the bot read it: with the turn before.
    const why = await server.post<SearchResult>(
      `/api/knowledge/search/${botId}`,
      {
        query: 'and on Sunday?',
        previous_question: 'When do you open on Saturday?',
        previous_answer: first.body.bot_message!.message,
      },
      as(owner),
    );
    expect(why.status).toBe(200);
    expect(why.body.decision).toMatchObject({ answers: true, follows_up: 'When do you open on Saturday?' });
    expect(why.body.decision.covered).toEqual(expect.arrayContaining(['sunday']));
    // A question that does not lean on the one before is read alone, whatever came before it.
    const alone = await server.post<SearchResult>(
      `/api/knowledge/search/${botId}`,
      { query: 'Do you sell birthday cakes?', previous_question: 'When do you open on Saturday?' },
      as(owner),
    );
    expect(alone.body.decision.follows_up).toBeNull();
    expect((await search('and on Sunday?')).body.decision.follows_up).toBeNull();
  });

  it('cites at most two pages, each once, and only the pages it quotes', async () => {
    for (const question of [
      'Is the almond croissant vegan?',
      'How much is the gluten-free loaf?',
      'Can I pay by card?',
    ]) {
      const reply = await ask(question);
      const message = reply.body.bot_message!;
      expect(message.sources.length, question).toBeLessThanOrEqual(2);
      expect(new Set(pathsOf(reply)).size).toBe(message.sources.length);
    }
  });
});

describe('what the bot finds (the playground)', () => {
  it('shows the decision the bot makes and why', async () => {
    const delivery = await search('How much does delivery cost?');
    expect(delivery.body.decision).toMatchObject({ answers: true, source: 'Delivery | Blue Fern Bakery' });
    expect(delivery.body.decision.summary).toMatch(
      /^Would answer from Delivery \| Blue Fern Bakery: covers /,
    );
    expect(delivery.body.decision.covered).toContain('delivery');

    expect(delivery.body.decision.sure).toBe(true);

    const partly = await search(PARTLY);
    expect(partly.body.decision).toMatchObject({ answers: true, sure: false, missing: ['friendly'] });
    expect(partly.body.decision.summary).toBe(
      'Would answer from About us | Blue Fern Bakery, but say it is not sure and offer a person: covers team, not friendly',
    );

    const pizza = await search('Do you sell pizza?');
    expect(pizza.body.decision).toMatchObject({ answers: false, sure: false });
    expect(pizza.body.decision.missing).toContain('pizza');
    expect(pizza.body.decision.summary).toContain('pizza');

    const pair = await search('do you make birthday cakes');
    expect(pair.body.decision.summary).toBe('Would answer with the Q&A pair “Do you sell birthday cakes?”');
  });

  it('decides as the chat answers, whatever the number of passages shown', async () => {
    const few = await server.post<SearchResult>(
      `/api/knowledge/search/${botId}`,
      { query: 'What time do you open on Saturday?', limit: 1 },
      as(owner),
    );
    expect(few.body.hits).toHaveLength(1);
    expect(few.body.decision).toMatchObject({ answers: true, source: 'Opening hours | Blue Fern Bakery' });
  });
});

describe('answers with a model', () => {
  let modelBot: number;
  let modelBotRow: Bot;
  let settingId: number;
  beforeAll(async () => {
    settingId = await addModelSetting(server, owner, llm.url);
    const bot = await createBotViaApi(server, owner, {
      bot_name: 'Blue Fern model',
      llm_model: String(settingId),
      web_source_ids: JSON.stringify([sourceId]),
    });
    modelBot = bot.bot_id;
    modelBotRow = bot;
  });

  it('condenses a follow-up into a standalone question before searching', async () => {
    llm.reply((body) =>
      body.stream ? 'We open at 9 am on Sundays [1].' : 'What are your opening hours on Sunday?',
    );
    const first = await ask('What time do you open on Saturday?', undefined, modelBot);
    const seen = llm.requests.length;
    await ask('and on Sunday?', first.body.conversation_id, modelBot);
    const [condense, answer] = llm.requests.slice(seen);
    expect(condense!.body.stream).toBeFalsy();
    expect(JSON.stringify(condense!.body.messages)).toContain('Saturday');
    expect(String(answer!.body.messages![0]!.content)).toContain('Sunday: 9 am – 1 pm');
  });

  it('searches the question as it is when condensing fails', async () => {
    llm.reply('Delivery is $6 [1].');
    const first = await ask('Do you deliver?', undefined, modelBot);
    llm.failNext(500, 'overloaded');
    const next = await ask('how much is it?', first.body.conversation_id, modelBot);
    expect(next.status).toBe(200);
    expect(next.body.bot_message).toBeTruthy();
  });

  it('cites the pages near the best when the model marks none, never more than three', async () => {
    llm.reply('Delivery is $6, free over $50.');
    const reply = await ask('How much does delivery cost?', undefined, modelBot);
    expect(reply.body.bot_message).toMatchObject({ answer_mode: 'llm' });
    expect(pathsOf(reply)[0]).toBe('/delivery');
    expect(reply.body.bot_message!.sources.length).toBeLessThanOrEqual(3);
  });

  it('greets back without asking the model', async () => {
    const seen = llm.requests.length;
    const reply = await ask('hi!', undefined, modelBot);
    expect(reply.body.bot_message).toMatchObject({
      answer_mode: 'small_talk',
      message: SMALL_TALK_REPLIES.greeting,
      usage: null,
    });
    expect(llm.requests.length).toBe(seen);
  });

  // A paraphrase whose words the pages do not hold: without a model the bot cannot tell it answers.
  const PARAPHRASE = 'can my order be brought to my flat?';
  const system = (index: number) => String(llm.requests[index]!.body.messages![0]!.content);

  it('lets the model judge passages whose words do not show an answer, and answers when they do', async () => {
    expect((await ask(PARAPHRASE)).body.bot_message).toMatchObject({ answer_mode: 'not_found' });
    llm.reply((body) =>
      String(body.messages![0]!.content).includes('We deliver within 5 miles')
        ? 'Yes, we deliver within 5 miles, Tuesday to Saturday [1].'
        : DECLINE,
    );
    const seen = llm.requests.length;
    const reply = await ask(PARAPHRASE, undefined, modelBot);
    expect(system(seen)).toContain(`reply with exactly ${DECLINE}`);
    expect(reply.body.bot_message).toMatchObject({
      answer_mode: 'llm',
      message: 'Yes, we deliver within 5 miles, Tuesday to Saturday [1].',
    });
    expect(pathsOf(reply)).toEqual(['/delivery']);
  });

  it("shows the owner that the bot's active model judges what the words fall short of, and not once it is off", async () => {
    const judged = await search(PARAPHRASE, modelBot);
    expect(judged.body.decision).toMatchObject({ answers: false, model_judges: true });
    expect(judged.body.decision.summary).toMatch(/^The words fall short: /);
    expect((await search(PARAPHRASE)).body.decision).toMatchObject({ answers: false, model_judges: false });

    const toggle = (on: boolean) =>
      server.patch(`/api/settings/llm/${settingId}/toggle/${on}`, undefined, as(owner));
    expect((await toggle(false)).status).toBe(200);
    try {
      const off = await search(PARAPHRASE, modelBot);
      expect(off.body.decision).toMatchObject({ answers: false, model_judges: false });
      expect(off.body.decision.summary).toMatch(/^Would not answer: /);
      // The chat agrees: with its model off, the bot says it does not know.
      const seen = llm.requests.length;
      expect((await ask(PARAPHRASE, undefined, modelBot)).body.bot_message).toMatchObject({
        answer_mode: 'not_found',
      });
      expect(llm.requests.length).toBe(seen);
    } finally {
      await toggle(true);
    }
  });

  it('says it does not know when the judging model declines, and the visitor never sees its word', async () => {
    llm.reply(DECLINE);
    const seen = llm.requests.length;
    const { raw, final } = await askStreamed(PARAPHRASE, modelBot);
    expect(system(seen)).toContain('We deliver within 5 miles');
    expect(raw).not.toContain(DECLINE);
    expect(final.final_result_object).toMatchObject({
      message: TEXTS.notFound + TEXTS.offerHumanLater,
      answer_mode: 'not_found',
      sources: [],
    });
  });

  it('says it does not know, not a quote, when the judging model fails', async () => {
    llm.reply('Yes, we deliver within 5 miles [1].');
    llm.failNext(500, 'overloaded');
    llm.failNext(500, 'overloaded');
    const seen = llm.requests.length;
    const reply = await ask(PARAPHRASE, undefined, modelBot);
    expect(llm.requests.length - seen).toBe(2);
    expect(reply.body.bot_message).toMatchObject({ answer_mode: 'not_found', sources: [] });
  });

  it('lets the model judge passages that hold only part of the question, and quotes them as not sure when it fails', async () => {
    const judged = await search(PARTLY, modelBot);
    expect(judged.body.decision).toMatchObject({ answers: true, sure: false, model_judges: true });
    expect(judged.body.decision.summary).toBe(
      'The words fall short: About us | Blue Fern Bakery covers team but nothing covers friendly',
    );
    llm.reply(DECLINE);
    const seen = llm.requests.length;
    const declined = await ask(PARTLY, undefined, modelBot);
    expect(system(seen)).toContain(`reply with exactly ${DECLINE}`);
    expect(declined.body.bot_message).toMatchObject({
      answer_mode: 'not_found',
      message: TEXTS.notFound + TEXTS.offerHumanLater,
    });
    // With no model to read them, the passages are quoted as the bot without one quotes them.
    llm.failNext(500, 'overloaded');
    llm.failNext(500, 'overloaded');
    const failed = await ask(PARTLY, undefined, modelBot);
    expect(failed.body.bot_message!.answer_mode).toBe('unsure');
    expect(failed.body.bot_message!.message.startsWith(TEXTS.unsure)).toBe(true);
  });

  it('answers from the words, without the judging instruction, when they show an answer', async () => {
    llm.reply('Delivery is $6 [1].');
    const seen = llm.requests.length;
    await ask('How much does delivery cost?', undefined, modelBot);
    expect(system(seen)).not.toContain(DECLINE);
  });

  // A bot that invents a price is the end of a business's trust (grounding.ts).
  it('never gives a price the sources do not hold: the sources answer instead, and the visitor never sees it', async () => {
    llm.reply('Sure! Delivery is $17, and free over $50 [1].');
    const { streamed, final } = await askStreamed('How much does delivery cost?', modelBot);
    expect(streamed).toBe('Sure! Delivery is ');
    const answer = final.final_result_object!;
    expect(answer).toMatchObject({ answer_mode: 'extractive', unverified: ['$17'] });
    expect(answer.message).toContain('Delivery costs $6');
    expect(answer.sources.map((s) => new URL(s.page_url!).pathname)).toEqual(['/delivery']);
    // Read back, the message still tells the owner why the model's answer was not given.
    const stored = await server.get<ConversationWithMessages>(
      `/api/chat/chats/${answer.conversation_id}`,
      as(owner),
    );
    expect(stored.body.messages.at(-1)).toMatchObject({ answer_mode: 'extractive', unverified: ['$17'] });
    // Asked by a visitor, the question waits in the owner's queue with the answer not given.
    const { answer: visitorAnswer } = await visitorConversation(
      server,
      modelBotRow,
      'What does delivery cost?',
    );
    expect(visitorAnswer).toContain('Delivery costs $6');
    const queue = await server.get<UnansweredGroup[]>(`/api/unanswered/bot/${modelBot}`, as(owner));
    expect(queue.body.find((group) => group.question === 'What does delivery cost?')).toMatchObject({
      unverified: ['$17'],
      bot_answer: 'Sure! Delivery is $17, and free over $50.',
      answered_unsure: false,
    });
  });

  /** The model says `said` to `question`, and the visitor gets it as said: every figure in it stood. */
  async function expectModelAnswerGiven(said: string, question: string) {
    llm.reply(said);
    const reply = await ask(question, undefined, modelBot);
    expect(reply.body.bot_message).toMatchObject({ answer_mode: 'llm', message: said });
    expect(reply.body.bot_message).not.toHaveProperty('unverified');
  }

  it("keeps the model's answer when the sources hold its figures, however it writes them", async () => {
    await expectModelAnswerGiven(
      'Delivery is 6 dollars [1], and free on orders over $50.00.',
      'How much does delivery cost?',
    );
  });

  it('never agrees to a price the visitor suggests and the sources do not hold', async () => {
    llm.reply('Yes, delivery is $2 [1].');
    const reply = await ask('Is delivery $2?', undefined, modelBot);
    expect(reply.body.bot_message).toMatchObject({ unverified: ['$2'] });
    expect(reply.body.bot_message!.message).toContain('Delivery costs $6');
  });

  // A model mixes up the figures it was given as readily as it makes them up.
  it('never gives a price said of something other than what the sources say it of', async () => {
    llm.reply('Delivery is $9 [1], and a seeded rye is $6 [2].');
    const seen = llm.requests.length;
    const reply = await ask('How much is delivery, and a loaf of seeded rye?', undefined, modelBot);
    // Both prices were given to the model, each of something else.
    expect(system(seen)).toContain('Seeded rye: $9');
    expect(system(seen)).toContain('Delivery costs $6');
    expect(reply.body.bot_message).toMatchObject({ answer_mode: 'extractive', unverified: ['$9', '$6'] });
    expect(reply.body.bot_message!.message).not.toContain('Delivery is $9');
    // Said of what the sources say them of, the same prices stand.
    await expectModelAnswerGiven(
      'Delivery is $6 [1], and a seeded rye is $9 [2].',
      'How much is delivery, and a loaf of seeded rye?',
    );
  });

  it('never says it is open on a day the sources give as closed', async () => {
    llm.reply('Yes! On Mondays we are open from 7 am [1].');
    const reply = await ask('Are you open on Mondays?', undefined, modelBot);
    expect(reply.body.bot_message!.unverified).toContain('Mondays');
    expect(reply.body.bot_message!.message).not.toContain('On Mondays we are open');
    // Said as the sources say it, it stands.
    await expectModelAnswerGiven(
      'No, we are closed on Mondays [1]; from Tuesday to Friday we open at 7 am.',
      'Are you open on Mondays?',
    );
  });

  it("keeps a model's link to a page it was given", async () => {
    await expectModelAnswerGiven(
      `Delivery costs $6 [1]; see ${site.url}/delivery for the details.`,
      'How much does delivery cost?',
    );
  });

  it('lets a model work out a total in view of the visitor, and holds back one it does not show', async () => {
    await expectModelAnswerGiven(
      'A seeded rye is $9 [1], so 3 loaves come to $27.',
      'How much for 3 loaves of seeded rye?',
    );
    llm.reply('Three loaves of seeded rye come to $30 [1].');
    const unshown = await ask('How much for 3 loaves of seeded rye?', undefined, modelBot);
    expect(unshown.body.bot_message).toMatchObject({ unverified: ['$30'] });
  });

  it("says it does not know when a judging model's answer states a figure no source holds", async () => {
    llm.reply('Yes, we deliver within 15 miles [1].');
    const reply = await ask(PARAPHRASE, undefined, modelBot);
    expect(reply.body.bot_message).toMatchObject({
      answer_mode: 'not_found',
      message: TEXTS.notFound + TEXTS.offerHumanLater,
      unverified: ['15'],
    });
  });

  it('lets a bot allowed general knowledge state figures beyond its sources, but not a phone number', async () => {
    const open = await createBotViaApi(server, owner, {
      bot_name: 'Blue Fern open',
      llm_model: String(settingId),
      internet: 'true',
      prompt: 'Orders by phone: (503) 555-0142.',
      web_source_ids: JSON.stringify([sourceId]),
    });
    llm.reply('Delivery is $6 [1]; a loaf travels fine for 20 minutes.');
    const reply = await ask('How much does delivery cost?', undefined, open.bot_id);
    expect(reply.body.bot_message).toMatchObject({ answer_mode: 'llm' });
    expect(reply.body.bot_message).not.toHaveProperty('unverified');
    // The business's own contact details are never general knowledge.
    llm.reply('Delivery is $6 [1]. Call us on (503) 555-0199 to order.');
    const called = await ask('How much does delivery cost?', undefined, open.bot_id);
    expect(called.body.bot_message).toMatchObject({
      answer_mode: 'extractive',
      unverified: ['(503) 555-0199'],
    });
    // One the business gave in its instructions stands.
    llm.reply('Delivery is $6 [1]. Call us on (503) 555-0142 to order.');
    const right = await ask('How much does delivery cost?', undefined, open.bot_id);
    expect(right.body.bot_message).toMatchObject({ answer_mode: 'llm' });
  });

  it('sends the passage that holds the fact to the model', async () => {
    llm.reply('It is $6.');
    const seen = llm.requests.length;
    await ask('How much does delivery cost?', undefined, modelBot);
    const system = String(llm.requests.slice(seen).at(-1)!.body.messages![0]!.content);
    expect(system).toContain('Delivery costs $6');
  });
});

// The stream route answers as the chat route does (the widget and the playground use both).
describe('the same answer everywhere', () => {
  it('gives the streamed and the plain request the same answer', async () => {
    const plain = await ask('How much does delivery cost?');
    const { final } = await askStreamed('How much does delivery cost?');
    expect(final.final_result_object!.message).toBe(plain.body.bot_message!.message);
  });
});
