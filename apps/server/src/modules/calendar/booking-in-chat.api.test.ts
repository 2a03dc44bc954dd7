import { randomBytes } from 'node:crypto';
import type { ChatMessage, LeadFormConfig, MessageAction } from '@parley/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../core/db/schema.js';
import { createBotViaApi } from '../../test/bots.js';
import { signupOwner } from '../../test/factories.js';
import { type MetaGraphFake, messengerText, startMetaGraphFake } from '../../test/fakes/meta-graph.js';
import {
  type FakeNumber,
  inboundDelivery,
  startWhatsAppCloudFake,
  textMessage,
  type WhatsAppCloudFake,
} from '../../test/fakes/whatsapp-cloud.js';
import { attachDocument } from '../../test/knowledge.js';
import { type Account, startTestServer, type TestServer } from '../../test/server.js';
import { openVisitor } from '../../test/visitor.js';
import { bots, calendarBookings } from '../bots/bots.schema.js';
import { replyTexts } from '../chat/reply-texts.js';
import { bookingOfBot } from './calendar.module.js';

/**
 * What a visitor sees when they ask to book, on every channel: the booking link they can tap (in
 * the widget a button; on WhatsApp and Messenger, which show text only, the link itself), and,
 * where the bot has no booking, a next step that exists on their channel.
 */
const META = { appId: '2234567890', appSecret: 'meta-app-secret-for-booking-tests' };
let server: TestServer;
let whatsapp: WhatsAppCloudFake;
let meta: MetaGraphFake;
let owner: Account;
const as = (account: Account) => ({ token: account.access_token });
const unique = () => randomBytes(4).toString('hex');
const digits = (n: number) => String(Math.floor(Math.random() * 10 ** n)).padStart(n, '0');

const BOOKING = {
  provider: 'calendly',
  title: 'Book a table',
  url: 'https://calendly.com/trattoria/table',
  message: 'Pick a time that suits you.',
};
const BUTTON: MessageAction = {
  type: 'booking',
  title: BOOKING.title,
  url: BOOKING.url,
  provider: 'calendly',
};
const ASK_TO_BOOK = 'Can I book a table for 4 on Saturday?';
/** On the web, from the second visitor message (the first answer's offer must show it anyway). */
const FORM: LeadFormConfig = {
  enabled: true,
  show_when: 'after_messages',
  after_messages: 2,
  title: 'Leave your details',
  fields: [
    { name: 'name', label: 'Name', type: 'text', required: true },
    { name: 'email', label: 'Email', type: 'email', required: true },
  ],
};

beforeAll(async () => {
  whatsapp = await startWhatsAppCloudFake(META);
  meta = await startMetaGraphFake(META);
  server = await startTestServer({
    env: {
      META_APP_ID: META.appId,
      META_APP_SECRET: META.appSecret,
      META_VERIFY_TOKEN: 'verify-booking',
      // Both fakes speak Graph; WhatsApp's is the one the server sends through for its numbers.
      META_GRAPH_URL: whatsapp.url,
      WHATSAPP_CONFIG_ID: '998877',
      WHATSAPP_SEND_RATE: '400',
    },
  });
  whatsapp.webhookUrl = `${server.url}/api/social/whatsapp/webhook`;
  owner = await signupOwner(server);
});
afterAll(async () => {
  await server?.close();
  await whatsapp?.close();
  await meta?.close();
});

/** A trattoria's bot: its menu, and the booking and lead form asked for. */
async function trattoria(options: { booking?: boolean; form?: boolean } = {}) {
  const bot = await createBotViaApi(server, owner, { bot_name: `Trattoria ${unique()}` });
  await attachDocument(server, owner, bot.bot_id, {
    title: 'Menu',
    url: 'https://trattoria.example/menu',
    text: 'We serve fresh pasta and wood-fired pizza every day from noon. A margherita costs twelve dollars.',
  });
  if (options.booking) {
    const saved = await server.post(`/api/bots/${bot.bot_id}/calendar-booking`, BOOKING, as(owner));
    expect(saved.status).toBe(200);
  }
  if (options.form)
    await server.database.db.update(bots).set({ leadFormConfig: FORM }).where(eq(bots.id, bot.bot_id));
  return bot;
}

async function whatsappSettled() {
  await expect
    .poll(
      async () => {
        const [row] = await server.database.db
          .select({ n: sql<number>`count(*)::int` })
          .from(jobs)
          .where(and(sql`${jobs.name} like 'whatsapp.%'`, sql`${jobs.status} in ('queued', 'active')`));
        return row!.n;
      },
      { timeout: 20_000, interval: 50 },
    )
    .toBe(0);
}

/** A WhatsApp number linked to the bot: a customer's message in, the texts sent back to them out. */
async function whatsappCustomer(botId: number) {
  const number: FakeNumber = {
    wabaId: `1${digits(14)}`,
    phoneNumberId: `2${digits(14)}`,
    displayPhoneNumber: '+1 415 555 0100',
    verifiedName: `Trattoria ${unique()}`,
  };
  const code = `code-${unique()}`;
  whatsapp.addSignup(code, number);
  const onboarded = await server.post(
    '/api/social/whatsapp/embedded-signup/onboard',
    { code, waba_id: number.wabaId, phone_number_id: number.phoneNumberId, bot_id: botId },
    as(owner),
  );
  expect(onboarded.status, JSON.stringify(onboarded.body)).toBe(200);
  const from = `1555${digits(7)}`;
  return async (text: string) => {
    const before = whatsapp.texts(from).length;
    await whatsapp.postWebhook(
      inboundDelivery({ number, from, id: `wamid.${unique()}`, message: textMessage(text) }),
    );
    await whatsappSettled();
    return whatsapp.texts(from).slice(before).join('\n');
  };
}

const visitorAsks = async (bot: { uuid: string; bot_id: number }, question: string): Promise<ChatMessage> => {
  const visitor = await openVisitor(server, bot);
  try {
    return await visitor.ask(question);
  } finally {
    visitor.close();
  }
};

describe('asking to book on WhatsApp', () => {
  it('sends the booking link in the text, where the widget would show a button', async () => {
    const bot = await trattoria({ booking: true });
    const say = await whatsappCustomer(bot.bot_id);
    const sent = await say(ASK_TO_BOOK);
    expect(sent).toBe(`${BOOKING.message}\n\n${BOOKING.title}: ${BOOKING.url}`);
  });

  it('never tells the customer to fill in a form WhatsApp cannot show', async () => {
    const bot = await trattoria({ form: true });
    await updateHumanButton(bot.bot_id, 'never');
    const say = await whatsappCustomer(bot.bot_id);
    const sent = await say(ASK_TO_BOOK);
    const english = replyTexts('', ['english']);
    expect(sent).not.toContain(english.offerLead.trim());
    expect(sent).toBe(english.notFound + english.offerRephrase);
  });
});

describe('asking to book in the widget', () => {
  it('gives the booking button to a request in the visitor’s language, without a model', async () => {
    const bot = await trattoria({ booking: true });
    for (const question of [
      ASK_TO_BOOK,
      '¿Puedo reservar una mesa para el sábado?',
      'Je voudrais réserver une table pour ce soir',
      'Kann ich einen Tisch für Samstag reservieren?',
      'any free slots on friday?',
    ]) {
      const answer = await visitorAsks(bot, question);
      expect(answer, question).toMatchObject({
        answer_mode: 'booking',
        message: BOOKING.message,
        actions: [BUTTON],
      });
    }
  });

  it('shows the lead form with the offer to use it, whatever its usual moment', async () => {
    const bot = await trattoria({ form: true });
    const answer = await visitorAsks(bot, ASK_TO_BOOK);
    expect(answer.answer_mode).toBe('not_found');
    expect(answer.message).toContain(replyTexts('', ['english']).offerLead.trim());
    expect(answer.actions).toContainEqual({ type: 'lead_form', title: FORM.title });
  });

  it('offers a person, not the form, when the bot has no lead form', async () => {
    const bot = await trattoria();
    const answer = await visitorAsks(bot, ASK_TO_BOOK);
    expect(answer.actions.map((action) => action.type)).toEqual(['human']);
    expect(answer.message).not.toContain(replyTexts('', ['english']).offerLead.trim());
  });
});

describe('the booking link a visitor is given', () => {
  it('is refused when a user name hides the real host, with the spec’s text', async () => {
    const bot = await trattoria();
    for (const url of ['https://calendly.com@evil.example/book', 'https://user:pass@calendly.com/acme']) {
      const reply = await server.post(
        `/api/bots/${bot.bot_id}/calendar-booking`,
        { ...BOOKING, url },
        as(owner),
      );
      expect(reply.status, url).toBe(400);
      expect(reply.body).toEqual({ detail: 'Valid URL is required' });
    }
  });

  it('is never a javascript: or data: link, even one stored before the check', async () => {
    const bot = await trattoria({ booking: true });
    for (const url of ['javascript:alert(document.cookie)', 'data:text/html,<script>alert(1)</script>']) {
      await server.database.db
        .update(calendarBookings)
        .set({ url })
        .where(eq(calendarBookings.botId, bot.bot_id));
      expect(await bookingOfBot(server.database.db, bot.bot_id), url).toBeNull();
      // Nor does the widget's view of the bot carry it.
      const widget = await server.get<{ booking: unknown }>(`/api/auth/bot/uuid/${bot.uuid}`);
      expect(widget.body.booking, url).toBeNull();
      const answer = await visitorAsks(bot, ASK_TO_BOOK);
      expect(JSON.stringify(answer), url).not.toContain(url.slice(0, 10));
      expect(answer.answer_mode).not.toBe('booking');
    }
  });
});

describe('asking to book on Messenger', () => {
  // Messenger's Graph calls go to the Meta fake: a server of its own, pointed at it.
  let messenger: TestServer;
  let account: Account;
  beforeAll(async () => {
    messenger = await startTestServer({
      env: { META_APP_ID: META.appId, META_APP_SECRET: META.appSecret, META_GRAPH_URL: meta.url },
    });
    account = await signupOwner(messenger);
  });
  afterAll(() => messenger?.close());

  it('sends the booking link in the text', async () => {
    const bot = await createBotViaApi(messenger, account, { bot_name: `Trattoria ${unique()}` });
    const booked = await messenger.post(`/api/bots/${bot.bot_id}/calendar-booking`, BOOKING, as(account));
    expect(booked.status).toBe(200);
    const page = { id: `page-${unique()}`, name: `Trattoria ${unique()}` };
    const code = `code-${unique()}`;
    meta.addLogin({ code, pages: [page] });
    const authorize = await messenger.get<{ url: string }>('/api/social/messenger/authorize', as(account));
    const state = new URL(authorize.body.url).searchParams.get('state')!;
    const linked = await messenger.post(
      '/api/social/messenger/exchange-token',
      { code, state, bot_id: bot.bot_id },
      as(account),
    );
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    const user = `user-${unique()}`;
    const delivered = await meta.postWebhook(
      `${messenger.url}/api/social/messenger/webhook`,
      messengerText({ pageId: page.id, senderId: user, text: ASK_TO_BOOK }),
    );
    expect(delivered.status).toBe(200);
    await expect
      .poll(() => meta.texts(user).join('\n'), { timeout: 20_000 })
      .toBe(`${BOOKING.message}\n\n${BOOKING.title}: ${BOOKING.url}`);
  });
});

async function updateHumanButton(botId: number, mode: 'always' | 'after_miss' | 'never') {
  await server.database.db.update(bots).set({ humanButton: mode }).where(eq(bots.id, botId));
}
