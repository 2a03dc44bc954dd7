import type {
  Bot,
  ChatMessage,
  Conversation,
  PublicBot,
  SearchResult,
  VisitorIdentity,
} from '@parley/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { queryRows, sql } from '../../core/db/database.js';
import { addTrainedPairs, askBot, citedPaths, createBotViaApi, updateBotViaApi } from '../../test/bots.js';
import { crawlSite } from '../../test/crawl.js';
import { signupOwner } from '../../test/factories.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { BAKERY_QNA, serveBakery } from '../../test/sites/bakery.js';
import { PANADERIA_QNA, servePanaderia } from '../../test/sites/panaderia.js';
import { recordQuestion } from '../unanswered/unanswered.service.js';
import { TEXTS } from './reply-texts.js';
import { SMALL_TALK_REPLIES } from './small-talk.js';

/**
 * A business whose site is in Spanish gets answers as good as an English one's: its pages are
 * indexed in Spanish (stems, stop words), its visitors' questions read in Spanish (what they ask
 * for, the words that carry nothing), and the bot's own lines are Spanish. An English bot of the
 * same tenant is untouched.
 */
let server: TestServer;
let owner: Account;
let spanishBot: number;
let englishBot: number;
const sites: Array<{ close(): Promise<void> }> = [];

const as = (account: Account) => ({ token: account.access_token });
const ask = (bot: number, message: string, conversationId?: number) =>
  askBot(server, owner, bot, message, conversationId);

async function botOf(url: string, name: string, pairs: Array<{ question: string; answer: string }>) {
  const source = await crawlSite(server, owner, `${url}/`, name);
  const bot = await createBotViaApi(server, owner, {
    bot_name: name,
    web_source_ids: JSON.stringify([source]),
  });
  await addTrainedPairs(server, owner, bot.bot_id, pairs);
  return bot.bot_id;
}

beforeAll(async () => {
  const panaderia = await servePanaderia();
  const bakery = await serveBakery();
  sites.push(panaderia, bakery);
  server = await startTestServer({ env: { CRAWLER_ALLOW_PRIVATE: 'true' } });
  owner = await signupOwner(server);
  spanishBot = await botOf(panaderia.url, 'Helecho Azul', PANADERIA_QNA);
  englishBot = await botOf(bakery.url, 'Blue Fern', BAKERY_QNA);
});

afterAll(async () => {
  await server?.close();
  await Promise.all(sites.map((site) => site.close()));
});

describe('a bot whose sources are in Spanish', () => {
  it('stores each page and pair with the language it is written in, and indexes it in that language', async () => {
    const rows = await queryRows<{ source_type: string; language: string; chunk_languages: string[] }>(
      server.database.db,
      sql`SELECT d.source_type, d.language,
            array(SELECT DISTINCT c.language::text FROM chunks c WHERE c.document_id = d.id) AS chunk_languages
          FROM documents d WHERE d.tenant_id = ${owner.user.tenant_id}
          ORDER BY d.source_type, d.title`,
    );
    const spanish = rows.filter((r) => r.language === 'spanish');
    const english = rows.filter((r) => r.language === 'english');
    // Five pages and two pairs in Spanish; six pages and five pairs in English.
    expect(spanish).toHaveLength(7);
    expect(english).toHaveLength(11);
    for (const row of rows) expect(row.chunk_languages).toEqual([row.language]);
    // The owner's "What the bot finds" says which language questions are read in.
    const found = await server.post<SearchResult>(
      `/api/knowledge/search/${spanishBot}`,
      { query: '¿Cuánto cuesta el envío?' },
      as(owner),
    );
    expect(found.body.languages).toEqual(['spanish']);
    expect(found.body.decision).toMatchObject({
      answers: true,
      covered: expect.arrayContaining(['envío', 'price']),
    });
    // Spanish stems: "envíos" on the page is found by "envío" in a question, as the same stem.
    const [stem] = await queryRows<{ found: boolean }>(
      server.database.db,
      sql`SELECT EXISTS (SELECT 1 FROM chunks c WHERE c.tenant_id = ${owner.user.tenant_id}
            AND c.search @@ to_tsquery('spanish', 'envío')) AS found`,
    );
    expect(stem!.found).toBe(true);
  });

  it('answers a Spanish question from the page that holds the fact, and a follow-up from the conversation', async () => {
    const delivery = await ask(spanishBot, '¿Cuánto cuesta el envío a domicilio?');
    expect(delivery.body.bot_message).toMatchObject({ answer_mode: 'extractive' });
    expect(delivery.body.bot_message!.message).toContain('El envío a domicilio cuesta 3 €');
    expect(citedPaths(delivery)).toEqual(['/envios']);

    const saturday = await ask(spanishBot, '¿a qué hora abrís el sábado?');
    expect(saturday.body.bot_message!.message).toContain('8:00 – 14:00');
    const sunday = await ask(spanishBot, '¿y el domingo?', saturday.body.conversation_id);
    expect(sunday.body.bot_message!.message).toMatch(/^Domingo:[^.]*Cerrado/);
  });

  it('answers with a pair asked in other words, never with a pair that only shares a word', async () => {
    const cake = await ask(spanishBot, 'hola, ¿hacéis tartas para un cumpleaños?');
    expect(cake.body.bot_message).toMatchObject({ answer_mode: 'qna', message: PANADERIA_QNA[0]!.answer });
    const pizza = await ask(spanishBot, '¿Hacéis pizza?');
    expect(pizza.body.bot_message!.answer_mode).toBe('not_found');
  });

  it('says it does not know, greets and thanks in Spanish', async () => {
    const pizza = await ask(spanishBot, '¿Vendéis pizza?');
    expect(pizza.body.bot_message).toMatchObject({
      answer_mode: 'not_found',
      // No agent is online: the visitor is told they may ask for one.
      message: 'Lo siento, no sé la respuesta a eso. Puedes pedir hablar con una persona de nuestro equipo.',
    });
    expect(pizza.body.bot_message!.actions).toEqual([{ type: 'human', title: 'Hablar con una persona' }]);
    const hello = await ask(spanishBot, '¡Hola!');
    expect(hello.body.bot_message).toMatchObject({
      answer_mode: 'small_talk',
      message: '¡Hola! ¿En qué puedo ayudarte?',
    });
    const thanks = await ask(spanishBot, 'vale, muchas gracias', hello.body.conversation_id);
    expect(thanks.body.bot_message!.message).toBe('¡De nada! ¿Puedo ayudarte en algo más?');
  });

  it('says in Spanish when it is not sure of what it quotes', async () => {
    // The home page holds "harina" (flour), nothing holds "Valencia": under half of the question.
    const flour = await ask(spanishBot, '¿la harina es de Valencia?');
    expect(flour.body.bot_message).toMatchObject({ answer_mode: 'unsure' });
    expect(flour.body.bot_message!.message).toBe(
      'No estoy seguro de que esto responda a tu pregunta, pero esto es lo que he encontrado:\n\n' +
        'Hacemos pan de masa madre, cruasanes y tartas de temporada con harina ecológica desde 2012.\n\n' +
        'Puedes pedir hablar con una persona de nuestro equipo.',
    );
    expect(flour.body.bot_message!.actions).toEqual([{ type: 'human', title: 'Hablar con una persona' }]);
    expect(citedPaths(flour)).toEqual(['/']);
  });

  it('says what it is and what it can do, and takes a yes or a no to an offered person, in Spanish', async () => {
    const bot = await ask(spanishBot, '¿Eres un bot?');
    expect(bot.body.bot_message).toMatchObject({
      answer_mode: 'small_talk',
      message:
        'Soy Helecho Azul, un asistente automático, no una persona. Puedo responder a tus preguntas, o puedes pedir hablar con una persona de nuestro equipo.',
      actions: [{ type: 'human', title: 'Hablar con una persona' }],
    });
    const can = await ask(spanishBot, '¿qué puedes hacer?');
    expect(can.body.bot_message!.message).toMatch(
      /^Puedo responder a tus preguntas con la información que me ha dado nuestro equipo\./,
    );

    const declined = await ask(spanishBot, '¿Vendéis pizza?');
    const no = await ask(spanishBot, 'no, gracias', declined.body.conversation_id);
    expect(no.body.bot_message).toMatchObject({
      answer_mode: 'small_talk',
      message: 'De acuerdo. ¿Puedo ayudarte en algo más?',
    });
    const taken = await ask(spanishBot, '¿Vendéis pizza?');
    const yes = await ask(spanishBot, 'sí, por favor', taken.body.conversation_id);
    expect(yes.body.bot_message!.message).toMatch(/^Ahora mismo no hay nadie de nuestro equipo conectado/);
  });

  it("tells the widget the bot's visitor language: its sources' on auto, else the owner's choice", async () => {
    const publicOf = async (bot: number) => {
      const { body } = await server.get<Bot>(`/api/chat/bots/${bot}`, as(owner));
      return (await server.get<PublicBot>(`/api/auth/bot/uuid/${body.uuid}`)).body;
    };
    expect((await publicOf(spanishBot)).language).toBe('spanish');
    expect((await publicOf(englishBot)).language).toBe('english');
    const set = async (language: string) => {
      const reply = await updateBotViaApi(server, owner, spanishBot, { visitor_language: language });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
      return reply.body;
    };
    expect((await set('french')).visitor_language).toBe('french');
    expect((await publicOf(spanishBot)).language).toBe('french');
    // A question whose words do not tell its language gets the bot's own lines in the owner's choice.
    const pizza = await ask(spanishBot, 'pizza?');
    expect(pizza.body.bot_message!.message).toMatch(/^Désolé, je ne connais pas la réponse/);
    const refused = await updateBotViaApi(server, owner, spanishBot, { visitor_language: 'klingon' });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain(
      'Visitor language must be auto or one of english, spanish',
    );
    expect((await set('auto')).visitor_language).toBe('auto');
  });

  it("greets in the bot's visitor language while its welcome is the default one, and never rewrites the owner's own", async () => {
    const publicOf = async (bot: number) => {
      const { body } = await server.get<Bot>(`/api/chat/bots/${bot}`, as(owner));
      return (await server.get<PublicBot>(`/api/auth/bot/uuid/${body.uuid}`)).body;
    };
    const welcomeStored = async (conversationId: number) => {
      const [row] = await queryRows<{ message: string }>(
        server.database.db,
        sql`SELECT message FROM messages WHERE conversation_id = ${conversationId} AND seq = 1`,
      );
      return row!.message;
    };
    await updateBotViaApi(server, owner, spanishBot, { visitor_language: 'auto' });
    const spanish = /^¡Te damos la bienvenida a Acme \w+! ¿En qué puedo ayudarte hoy\?$/;
    expect((await publicOf(spanishBot)).welcome_message).toMatch(spanish);
    const chat = await ask(spanishBot, '¿Hacéis tartas?');
    expect(await welcomeStored(chat.body.conversation_id)).toMatch(spanish);
    // The English bot of the same tenant keeps its English default.
    expect((await publicOf(englishBot)).welcome_message).toMatch(
      /^Welcome to Acme \w+! How can I help you today\?$/,
    );

    await updateBotViaApi(server, owner, spanishBot, { welcome_message: '¡Hola! Pregúntame por el pan.' });
    expect((await publicOf(spanishBot)).welcome_message).toBe('¡Hola! Pregúntame por el pan.');
    const own = await ask(spanishBot, '¿Hacéis tartas?');
    expect(await welcomeStored(own.body.conversation_id)).toBe('¡Hola! Pregúntame por el pan.');
  });

  it("greets a bilingual bot's visitor in the language their browser prefers, and keeps it for the conversation", async () => {
    const sourcesOf = async (bot: number) =>
      (await server.get<Bot>(`/api/chat/bots/${bot}`, as(owner))).body.web_source_ids;
    const both = await createBotViaApi(server, owner, {
      bot_name: 'Helecho Fern',
      web_source_ids: JSON.stringify([...(await sourcesOf(spanishBot)), ...(await sourcesOf(englishBot))]),
    });
    const publicIn = async (acceptLanguage?: string) => {
      const reply = await fetch(`${server.url}/api/auth/bot/uuid/${both.uuid}`, {
        headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {},
      });
      expect(reply.headers.get('vary')).toMatch(/accept-language/i);
      return (await reply.json()) as PublicBot;
    };
    // English pages and pairs are the majority; a Spanish browser still meets a Spanish widget.
    expect((await publicIn()).language).toBe('english');
    expect((await publicIn('fr-FR,fr;q=0.9')).language).toBe('english');
    const spanish = await publicIn('es-ES,es;q=0.9,en;q=0.5');
    expect(spanish).toMatchObject({
      language: 'spanish',
      texts: { lang: 'es', person: 'Hablar con una persona' },
    });
    expect(spanish.welcome_message).toMatch(/^¡Te damos la bienvenida a /);

    // The widget tells the socket the language it speaks: the conversation keeps it.
    const identity = await server.post<VisitorIdentity>('/api/chat/visitor', { bot_uuid: both.uuid });
    const socket = new WebSocket(
      `${server.url.replace('http', 'ws')}/api/chat/stream?visitor_token=${identity.body.visitor_token}&language=spanish`,
    );
    const stored: ChatMessage[] = [];
    socket.on('message', (raw) => {
      const frame = JSON.parse(raw.toString()) as { final_result_object?: ChatMessage };
      if (frame.final_result_object) stored.push(frame.final_result_object);
    });
    await new Promise((resolve) => socket.once('open', resolve));
    const send = (frame: unknown) => socket.send(JSON.stringify(frame));
    send({
      content: { bot_id: 0, conversation_id: 0, message: 'connection', message_type: 'user' },
      elements: [],
    });
    send({
      content: { bot_id: both.bot_id, conversation_id: 0, message: 'pizza?', message_type: 'user' },
      elements: [],
    });
    await expect.poll(() => stored.length, { timeout: 15_000 }).toBe(3);
    const [welcome, , answer] = stored;
    expect(welcome!.message).toMatch(/^¡Te damos la bienvenida a /);
    // "pizza?" tells no language: the conversation's is used, not the bot's English majority.
    expect(answer!.message).toMatch(/^Lo siento, no sé la respuesta a eso\./);
    send({ type: 'request_human', bot_id: both.bot_id, conversation_id: welcome!.conversation_id });
    await expect.poll(() => stored.at(-1)?.message_type, { timeout: 15_000 }).toBe('system');
    expect(stored.at(-1)!.message).toMatch(/^Ahora mismo no hay nadie de nuestro equipo conectado/);
    const [row] = await queryRows<{ visitor_language: string | null }>(
      server.database.db,
      sql`SELECT visitor_language FROM conversations WHERE id = ${welcome!.conversation_id}`,
    );
    expect(row!.visitor_language).toBe('spanish');
    // The agent's inbox says which language the visitor is spoken to in.
    const thread = await server.get<Conversation>(
      `/api/chat/helpdesk/conversations/${welcome!.conversation_id}`,
      as(owner),
    );
    expect(thread.body.visitor_language).toBe('spanish');
    socket.close();
  });

  it('hands off in Spanish: the request for a person is understood and its notice is Spanish', async () => {
    const asked = await ask(spanishBot, 'quiero hablar con una persona');
    const notice = asked.body.bot_message!;
    expect(notice.message).toBe(
      'Ahora mismo no hay nadie de nuestro equipo conectado. Déjanos tu nombre, tu email y tu pregunta, y te responderemos lo antes posible.',
    );
  });

  it('groups a Spanish question the bot could not answer with its other wordings, by Spanish stems', async () => {
    const record = (question: string) =>
      recordQuestion(server.database.db, {
        tenantId: owner.user.tenant_id,
        botId: spanishBot,
        question,
        reason: 'not_found',
      });
    const first = await record('¿Tenéis cruasanes veganos?');
    // "tienen" and "tenéis" are forms of one verb PostgreSQL's Spanish drops; "cruasán" and "cruasanes", one stem.
    expect(await record('¿tienen cruasán vegano?')).toBe(first);
    expect(await record('¿Hacéis pizza?')).not.toBe(first);
  });

  it('leaves an English bot of the same tenant as it was', async () => {
    const delivery = await ask(englishBot, 'How much does delivery cost?');
    expect(delivery.body.bot_message!.message).toContain('Delivery costs $6');
    const pizza = await ask(englishBot, 'Do you sell pizza?');
    expect(pizza.body.bot_message!.message).toBe(TEXTS.notFound + TEXTS.offerHumanLater);
    const hello = await ask(englishBot, 'Hello!');
    expect(hello.body.bot_message!.message).toBe(SMALL_TALK_REPLIES.greeting);
  });
});
