import type { SocketHandlers } from '@parley/chat-client';
import {
  type ChatMessage,
  type VisitorIdentity,
  type VisitorLanguage,
  WIDGET_TEXTS,
  type WidgetTexts,
} from '@parley/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api';
import { VisitorSession } from './session';
import type { BotStore, StoreKey } from './storage';

class FakeSocket {
  sent: Record<string, unknown>[] = [];
  constructor(
    readonly url: string,
    readonly handlers: SocketHandlers,
  ) {}
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {}
  receive(frame: unknown) {
    this.handlers.onMessage(JSON.stringify(frame));
  }
}

function memoryStore(
  initial: Partial<Record<StoreKey, string>> = {},
): BotStore & { data: Map<string, string> } {
  const data = new Map<string, string>(Object.entries(initial));
  return {
    data,
    get: (key) => data.get(key) ?? null,
    set: (key, value) => void data.set(key, value),
    remove: (key) => void data.delete(key),
  };
}

function message(seq: number, overrides: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id: seq,
    chat_id: seq,
    conversation_id: 42,
    bot_id: 5,
    seq,
    message: `message ${seq}`,
    message_type: seq === 2 ? 'user' : 'bot',
    message_source: 'bot',
    sender_id: null,
    recipient_id: null,
    user_id: null,
    timestamp: new Date(0).toISOString(),
    sources: [],
    qna_id: null,
    attachments: [],
    answer_mode: null,
    actions: [],
    handoff: null,
    usage: null,
    ...overrides,
  };
}

function setup(
  store = memoryStore(),
  identify?: () => Promise<VisitorIdentity>,
  texts?: WidgetTexts,
  language?: VisitorLanguage,
) {
  const sockets: FakeSocket[] = [];
  const calls: (string | null)[] = [];
  const session = new VisitorSession({
    apiBase: 'https://parley.example',
    uuid: 'b0b0b0b0-0000-4000-8000-000000000001',
    botId: 5,
    store,
    texts,
    language,
    createSocket: (url, handlers) => {
      const socket = new FakeSocket(url, handlers);
      sockets.push(socket);
      return socket;
    },
    identify: async (_base, _uuid, previous) => {
      calls.push(previous);
      return identify
        ? identify()
        : { visitor_id: 'v-1', visitor_token: 'token-1', expires_at: '2100-01-01T00:00:00Z' };
    },
  });
  const last = () => sockets[sockets.length - 1]!;
  return { session, sockets, calls, store, last };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('VisitorSession', () => {
  it('connects to the API host with a visitor identity it keeps, and adopts the conversation the server starts', async () => {
    const { session, last, store, calls } = setup();
    session.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(last().url).toBe('wss://parley.example/api/chat/stream?visitor_token=token-1');
    expect(calls).toEqual([null]);
    expect(JSON.parse(store.get('visitor')!)).toMatchObject({ visitor_id: 'v-1' });
    last().handlers.onOpen();
    expect(session.getState().status).toBe('open');

    expect(session.send('Do you ship abroad?')).toBe(true);
    expect(last().sent[1]).toMatchObject({ content: { bot_id: 5, conversation_id: 0, user_id: 'v-1' } });
    expect(session.getState().thinking).toBe(true);
    last().receive({ conversation_id: 42, final_result_object: message(1) });
    last().receive({ conversation_id: 42, final_result_object: message(2) });
    last().receive({ conversation_id: 42, data: 'Yes, ' });
    last().receive({ conversation_id: 42, data: 'we do.' });
    await vi.advanceTimersByTimeAsync(20);
    expect(session.getState().draft).toBe('Yes, we do.');
    last().receive({ conversation_id: 42, final_result_object: message(3, { message: 'Yes, we do.' }) });
    // A re-sent message is kept once.
    last().receive({ conversation_id: 42, final_result_object: message(3) });
    const state = session.getState();
    expect(state.conversationId).toBe(42);
    expect(store.get('conversation')).toBe('42');
    expect(state.messages.map((m) => m.seq)).toEqual([1, 2, 3]);
    expect(state.draft).toBeNull();
    expect(state.thinking).toBe(false);
    // The next message continues the conversation.
    session.send('And to Peru?');
    expect(last().sent.at(-1)).toMatchObject({ content: { conversation_id: 42 } });
  });

  it('after a reload resumes the kept conversation from seq 0 with the kept token', async () => {
    const store = memoryStore({
      conversation: '42',
      visitor: JSON.stringify({
        visitor_id: 'v-1',
        visitor_token: 'old',
        expires_at: '2100-01-01T00:00:00Z',
      }),
    });
    const { session, last, calls, sockets } = setup(store);
    session.start();
    expect(session.getState().conversationId).toBe(42);
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(['old']);
    last().handlers.onOpen();
    expect(last().sent[1]).toEqual({ type: 'resume', conversation_id: 42, after_seq: 0 });
    last().receive({ conversation_id: 42, final_result_object: message(1) });
    last().receive({ conversation_id: 42, final_result_object: message(2) });
    // A reconnect asks only for what came after the last seq held.
    const before = sockets.length;
    last().handlers.onClose(1006);
    // Back-off: 1 s plus up to 1 s of jitter.
    await vi.advanceTimersByTimeAsync(2000);
    expect(sockets).toHaveLength(before + 1);
    last().handlers.onOpen();
    expect(last().sent[1]).toEqual({ type: 'resume', conversation_id: 42, after_seq: 2 });
  });

  it("keeps the visitor's saved rating from the history, and a new one once the server saved it", async () => {
    const { session, last } = setup(memoryStore({ conversation: '42' }));
    session.start();
    await vi.advanceTimersByTimeAsync(0);
    last().handlers.onOpen();
    last().receive({
      conversation_id: 42,
      final_result_object: message(3, { answer_mode: 'qna', rating: 'up' }),
    });
    // The same answer again, live, says nothing of ratings: the saved one stays.
    last().receive({ conversation_id: 42, final_result_object: message(3, { answer_mode: 'qna' }) });
    expect(session.getState().messages[0]!.rating).toBe('up');

    const fetchMock = vi.fn(async (_url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as { message_id: number; rating: string | null };
      expect(body).toEqual({ message_id: 3, rating: 'down', visitor_token: 'token-1' });
      return new Response(JSON.stringify({ message_id: 3, rating: 'down' }), { status: 200 });
    });
    vi.stubGlobal('fetch', fetchMock);
    try {
      expect(await session.rate(3, 'down')).toBe('down');
    } finally {
      vi.unstubAllGlobals();
    }
    expect(fetchMock).toHaveBeenCalledOnce();
    expect(session.getState().messages[0]!.rating).toBe('down');
  });

  it('forgets a kept conversation the server no longer knows', async () => {
    const store = memoryStore({ conversation: '42' });
    const { session, last } = setup(store);
    session.start();
    await vi.advanceTimersByTimeAsync(0);
    last().handlers.onOpen();
    last().receive({ error: 'Conversation not found' });
    expect(session.getState().conversationId).toBeNull();
    expect(session.getState().frames).toEqual([]);
    expect(store.get('conversation')).toBeNull();
  });

  it('stops for good when this site may not embed the bot', async () => {
    const { session, sockets } = setup(memoryStore(), () =>
      Promise.reject(new ApiError(403, 'This site is not allowed to embed this bot')),
    );
    session.start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(session.getState().blocked).toBe('This site is not allowed to embed this bot');
    expect(sockets).toHaveLength(0);
  });

  it("says its own words in the bot's language", async () => {
    const { session } = setup(
      memoryStore(),
      () => Promise.reject(new ApiError(403, 'This site is not allowed to embed this bot')),
      WIDGET_TEXTS.spanish,
    );
    expect(await session.leaveContact({ name: 'Ada' })).toBe(
      'No se han podido enviar tus datos. Inténtalo de nuevo.',
    );
    session.start();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(session.getState().blocked).toBe('Este sitio no tiene permiso para insertar este bot');
  });

  it('holds a message typed while the chat connects, shows it as pending, and sends it once connected', async () => {
    const { session, last } = setup();
    session.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(session.getState().status).toBe('connecting');
    expect(session.send(' Do you deliver? ')).toBe(true);
    expect(session.getState()).toMatchObject({ pending: 'Do you deliver?', thinking: true });
    expect(last().sent).toHaveLength(0);

    last().handlers.onOpen();
    expect(last().sent[1]).toMatchObject({ content: { conversation_id: 0, message: 'Do you deliver?' } });
    expect(session.getState().pending).toBe('Do you deliver?');
    // Another visitor message of the conversation (a resume) is not this one: it stays pending.
    last().receive({ conversation_id: 42, final_result_object: message(2, { message: 'Hi' }) });
    expect(session.getState().pending).toBe('Do you deliver?');
    last().receive({
      conversation_id: 42,
      final_result_object: message(4, { message: 'Do you deliver?', message_type: 'user' }),
    });
    expect(session.getState().pending).toBeNull();
    expect(session.getState().thinking).toBe(true);
  });

  it('tells the visitor a held message did not go when the socket gives up', async () => {
    const { session, last } = setup();
    session.start();
    await vi.advanceTimersByTimeAsync(0);
    session.send('Anyone there?');
    last().handlers.onClose(4401);
    const state = session.getState();
    expect(state).toMatchObject({ pending: null, thinking: false, gaveUp: true });
    expect(state.frames.map((f) => [f.kind, f.message])).toEqual([
      ['error', WIDGET_TEXTS.english.sendFailed],
    ]);
  });

  it('shows frames, presence, and a failed send', async () => {
    const { session, last } = setup();
    expect(session.send('too early')).toBe(false);
    session.start();
    await vi.advanceTimersByTimeAsync(0);
    last().handlers.onOpen();
    last().receive({ type: 'warning', message: 'Slow down' });
    last().receive({ type: 'confirmation', message: 'Saved' });
    last().receive({ error: 'Bad thing' });
    last().receive({ type: 'presence', agents_online: true });
    const state = session.getState();
    expect(state.frames.map((f) => [f.kind, f.message])).toEqual([
      ['warning', 'Slow down'],
      ['confirmation', 'Saved'],
      ['error', 'Bad thing'],
    ]);
    expect(state.agentsOnline).toBe(true);
  });

  it('tells the socket the language the widget speaks, which a conversation it starts keeps', async () => {
    const { session, last } = setup(memoryStore(), undefined, WIDGET_TEXTS.spanish, 'spanish');
    session.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(new URL(last().url).searchParams.get('language')).toBe('spanish');
  });

  it("words the server's named refusals in the visitor's language", async () => {
    const { session, last } = setup(memoryStore(), undefined, WIDGET_TEXTS.german);
    session.start();
    await vi.advanceTimersByTimeAsync(0);
    last().handlers.onOpen();
    last().receive({ type: 'warning', code: 'too_fast', message: 'You are sending messages too quickly.' });
    last().receive({ error: 'Failed to send message. Please try again.', code: 'send_failed' });
    expect(session.getState().frames.map((f) => [f.kind, f.message])).toEqual([
      ['warning', 'Sie senden Nachrichten zu schnell. Bitte warten Sie einen Moment.'],
      ['error', WIDGET_TEXTS.german.sendFailed],
    ]);
  });

  it('new chat leaves the conversation, and its late messages stay out', async () => {
    const { session, last, store } = setup();
    session.start();
    await vi.advanceTimersByTimeAsync(0);
    last().handlers.onOpen();
    last().receive({ conversation_id: 42, final_result_object: message(1) });
    session.newChat();
    expect(store.get('conversation')).toBeNull();
    last().receive({ conversation_id: 42, final_result_object: message(2) });
    expect(session.getState()).toMatchObject({ conversationId: null, messages: [] });
    last().receive({ conversation_id: 43, final_result_object: message(1, { conversation_id: 43 }) });
    expect(session.getState().conversationId).toBe(43);
  });
});
