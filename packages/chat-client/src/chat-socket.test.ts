import type { ChatMessage } from '@parley/contracts';
import { SOCKET } from '@parley/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  backoffDelay,
  bindReconnectTriggers,
  ChatSocket,
  type ChatSocketEvent,
  chatSocketUrl,
  type SocketHandlers,
} from './chat-socket.js';

/** A socket the test opens, closes and speaks for. */
class FakeSocket {
  sent: unknown[] = [];
  closedWith: number | undefined | null = null;
  constructor(
    readonly url: string,
    readonly handlers: SocketHandlers,
  ) {}
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close(code?: number) {
    this.closedWith = code;
  }
  open() {
    this.handlers.onOpen();
  }
  drop(code = 1006) {
    this.handlers.onClose(code);
  }
  receive(frame: unknown) {
    this.handlers.onMessage(JSON.stringify(frame));
  }
}

function message(seq: number, conversationId = 7, overrides: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id: seq,
    chat_id: seq,
    conversation_id: conversationId,
    bot_id: 1,
    seq,
    message: `message ${seq}`,
    message_type: seq % 2 ? 'user' : 'bot',
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
    usage: null,
    ...overrides,
  };
}

function setup(options: { random?: () => number; openTimeoutMs?: number } = {}) {
  const sockets: FakeSocket[] = [];
  const events: ChatSocketEvent[] = [];
  const client = new ChatSocket({
    url: () => 'ws://host/api/chat/stream?visitor_token=t',
    createSocket: (url, handlers) => {
      const socket = new FakeSocket(url, handlers);
      sockets.push(socket);
      return socket;
    },
    userId: 'visitor-1',
    onEvent: (event) => events.push(event),
    random: options.random ?? (() => 0),
    openTimeoutMs: options.openTimeoutMs,
  });
  const last = () => sockets[sockets.length - 1]!;
  const messages = () =>
    events.flatMap((e) => (e.type === 'message' ? [`${e.message.conversation_id}:${e.message.seq}`] : []));
  return { client, sockets, events, last, messages };
}

/** The URL is asked for asynchronously: let the promise settle. */
async function settle() {
  await vi.advanceTimersByTimeAsync(0);
}

describe('backoffDelay', () => {
  it('starts at 1 s, doubles, adds up to 1 s of jitter and stops at 30 s', () => {
    expect(backoffDelay(0, () => 0)).toBe(1000);
    expect(backoffDelay(1, () => 0)).toBe(2000);
    expect(backoffDelay(3, () => 0)).toBe(8000);
    expect(backoffDelay(2, () => 0.5)).toBe(4500);
    expect(backoffDelay(4, () => 0.999)).toBeCloseTo(16_999, 0);
    expect(backoffDelay(5, () => 0)).toBe(SOCKET.backoffCapMs);
    expect(backoffDelay(9, () => 1)).toBe(SOCKET.backoffCapMs);
  });
});

describe('chatSocketUrl', () => {
  it('uses wss on https pages and ws otherwise', () => {
    expect(chatSocketUrl({ protocol: 'https:', host: 'a.example' }, { visitor_token: 'x y' })).toBe(
      'wss://a.example/api/chat/stream?visitor_token=x+y',
    );
    expect(chatSocketUrl({ protocol: 'http:', host: '127.0.0.1:3000' }, { token: 't' })).toBe(
      'ws://127.0.0.1:3000/api/chat/stream?token=t',
    );
  });
});

describe('ChatSocket', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('says hello on open, then sends messages and reports frames', async () => {
    const { client, last, events } = setup();
    client.connect();
    await settle();
    expect(client.getStatus()).toBe('connecting');
    last().open();
    expect(client.getStatus()).toBe('open');
    expect(last().sent[0]).toEqual({
      content: {
        bot_id: 0,
        user_id: 'visitor-1',
        tenant_id: null,
        conversation_id: 0,
        message: 'connection',
        message_type: 'user',
      },
      elements: [],
    });
    expect(client.send({ botId: 3, conversationId: 0, text: 'Hello' })).toBe('sent');
    expect(last().sent[1]).toEqual({
      content: {
        bot_id: 3,
        conversation_id: 0,
        message: 'Hello',
        message_type: 'user',
        user_id: 'visitor-1',
        tenant_id: null,
        client_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      },
      elements: [],
    });

    last().receive({ type: 'connected', message: 'Connected' });
    last().receive({ conversation_id: 7, data: 'Hel' });
    last().receive({ type: 'warning', message: 'Slow down', conversation_id: 7 });
    // A control change is told by its stored system message, not as a notice.
    last().receive({ type: 'helpdesk_control', message: 'An agent joined' });
    last().receive({ error: 'Bad thing', conversation_id: 7 });
    last().receive({ type: 'pong' });
    expect(events.filter((e) => e.type !== 'status')).toEqual([
      { type: 'connected', message: 'Connected' },
      { type: 'chunk', conversationId: 7, data: 'Hel' },
      { type: 'notice', kind: 'warning', message: 'Slow down', conversationId: 7 },
      { type: 'error', error: 'Bad thing', conversationId: 7 },
    ]);
  });

  it('holds a message sent while connecting or reconnecting and sends it once open, after the resume', async () => {
    const { client, last } = setup();
    const said = (socket: ReturnType<typeof last>) =>
      socket.sent.map((f) => {
        const frame = f as { type?: string; content?: { message: string }; after_seq?: number };
        return frame.type === 'resume' ? `resume ${frame.after_seq}` : (frame.content?.message ?? frame.type);
      });
    expect(client.send({ botId: 3, conversationId: 0, text: 'not started' })).toBe(false);
    client.connect();
    await settle();
    expect(client.send({ botId: 3, conversationId: 0, text: 'typed fast' })).toBe('held');
    last().open();
    expect(said(last())).toEqual(['connection', 'typed fast']);
    last().receive({ conversation_id: 7, final_result_object: message(1, 7, { message: 'typed fast' }) });

    // The phone changes network: what is typed meanwhile goes after the missed messages are asked for.
    last().drop(1006);
    expect(client.getStatus()).toBe('closed');
    expect(client.send({ botId: 3, conversationId: 7, text: 'still there?' })).toBe('held');
    expect(client.send({ botId: 3, conversationId: 7, text: 'hello?' })).toBe('held');
    vi.advanceTimersByTime(1000);
    await settle();
    last().open();
    expect(said(last())).toEqual(['connection', 'resume 1', 'still there?', 'hello?']);

    // A new chat started meanwhile forgets what was held for the old one.
    last().drop(1006);
    client.send({ botId: 3, conversationId: 7, text: 'for the old chat' });
    client.discardHeld();
    vi.advanceTimersByTime(1000);
    await settle();
    last().open();
    expect(said(last())).toEqual(['connection', 'resume 1']);

    // Closed for good: nothing is held, and what was held is not sent by a later connect.
    last().drop(1006);
    client.send({ botId: 3, conversationId: 7, text: 'before leaving' });
    client.close();
    expect(client.send({ botId: 3, conversationId: 7, text: 'after leaving' })).toBe(false);
    client.connect();
    await settle();
    last().open();
    expect(said(last())).toEqual(['connection', 'resume 1']);
  });

  it('sends again, with the same client id, a message whose stored copy did not come back', async () => {
    const { client, sockets, last } = setup();
    const messages = (socket: ReturnType<typeof last>) =>
      socket.sent.flatMap((f) => {
        const frame = f as { content?: { message: string; client_id?: string } };
        return frame.content && frame.content.message !== 'connection' ? [frame.content] : [];
      });
    client.connect();
    await settle();
    last().open();
    client.send({ botId: 3, conversationId: 0, text: 'Confirmed soon' });
    last().receive({ conversation_id: 7, final_result_object: message(1, 7, { message: 'Confirmed soon' }) });
    client.send({ botId: 3, conversationId: 7, text: 'Into the void' });
    const [, lost] = messages(last());

    // The socket still looks open, but no copy comes: it is taken for dead and opened again.
    const dead = last();
    vi.advanceTimersByTime(SOCKET.confirmTimeoutMs - 1);
    expect(dead.closedWith).toBeNull();
    vi.advanceTimersByTime(1);
    expect(dead.closedWith).toBe(4000);
    expect(client.getStatus()).toBe('closed');
    vi.advanceTimersByTime(SOCKET.backoffCapMs);
    await settle();
    expect(sockets).toHaveLength(2);
    last().open();
    expect(messages(last())).toEqual([lost]);
    expect(lost?.client_id).toMatch(/^[0-9a-f]{32}$/);

    // A drop before the copy comes: sent again on the next open too; once confirmed, never again.
    last().drop(1006);
    vi.advanceTimersByTime(SOCKET.backoffCapMs);
    await settle();
    last().open();
    expect(messages(last())).toEqual([lost]);
    last().receive({ conversation_id: 7, final_result_object: message(3, 7, { message: 'Into the void' }) });
    vi.advanceTimersByTime(SOCKET.confirmTimeoutMs * 3);
    expect(last().closedWith).toBeNull();
    expect(sockets).toHaveLength(3);
  });

  it('knows a copy by its client id when it carries one, whatever its text', async () => {
    const { client, sockets, last } = setup();
    client.connect();
    await settle();
    last().open();
    client.send({ botId: 3, conversationId: 7, text: 'Same words' });
    client.send({ botId: 3, conversationId: 7, text: 'Same words' });
    const [first, second] = last()
      .sent.slice(1)
      .map((f) => (f as { content: { client_id: string } }).content.client_id);
    // Another tab's message with the same words confirms nothing; each copy confirms its own.
    last().receive({
      conversation_id: 7,
      final_result_object: message(1, 7, { message: 'Same words', client_id: 'another-tab-0001' }),
    });
    last().receive({
      conversation_id: 7,
      final_result_object: message(3, 7, { message: 'Same words', client_id: second }),
    });
    vi.advanceTimersByTime(SOCKET.confirmTimeoutMs);
    expect(last().closedWith).toBe(4000);
    vi.advanceTimersByTime(SOCKET.backoffCapMs);
    await settle();
    last().open();
    // After the hello and the resume: only the copy that never came back.
    expect(last().sent.slice(2)).toEqual([
      expect.objectContaining({ content: expect.objectContaining({ client_id: first }) }),
    ]);
    last().receive({
      conversation_id: 7,
      final_result_object: message(5, 7, { message: 'Same  words', client_id: first }),
    });
    vi.advanceTimersByTime(SOCKET.confirmTimeoutMs * 2);
    expect(sockets).toHaveLength(2);
  });

  it('does not send again a message the server refused', async () => {
    const { client, last, sockets } = setup();
    client.connect();
    await settle();
    last().open();
    client.send({ botId: 3, conversationId: 0, text: 'one too many' });
    last().receive({ type: 'warning', code: 'too_fast', message: 'Slow down' });
    client.send({ botId: 3, conversationId: 0, text: 'for a deleted bot' });
    last().receive({ error: 'Bot not found', conversation_id: null });
    vi.advanceTimersByTime(SOCKET.confirmTimeoutMs * 2);
    expect(last().closedWith).toBeNull();
    last().drop(1006);
    vi.advanceTimersByTime(SOCKET.backoffCapMs);
    await settle();
    last().open();
    expect(sockets).toHaveLength(2);
    expect(last().sent).toHaveLength(1);
  });

  it.each([
    ['refused', 4401],
    ['gave up', 1006],
  ])(
    'drops what it held when the socket is %s, and sends nothing of it on a later connect',
    async (_, code) => {
      const { client, last } = setup();
      client.connect();
      await settle();
      expect(client.send({ botId: 3, conversationId: 0, text: 'lost cause' })).toBe('held');
      const drops = code === 1006 ? SOCKET.maxReconnectAttempts + 1 : 1;
      for (let attempt = 0; attempt < drops; attempt += 1) {
        last().drop(code);
        vi.advanceTimersByTime(SOCKET.backoffCapMs);
        await settle();
      }
      expect(client.getStatus()).toBe('failed');
      expect(client.send({ botId: 3, conversationId: 0, text: 'and again' })).toBe(false);
      client.online();
      await settle();
      last().open();
      expect(last().sent).toHaveLength(1);
    },
  );

  it('reports whether a human is available from presence frames', async () => {
    const { client, last, events } = setup();
    client.connect();
    await settle();
    last().open();
    last().receive({ type: 'presence', agents_online: true });
    last().receive({ type: 'presence', agents_online: false });
    last().receive({ type: 'presence' });
    expect(events.filter((e) => e.type === 'presence')).toEqual([
      { type: 'presence', agentsOnline: true },
      { type: 'presence', agentsOnline: false },
      { type: 'presence', agentsOnline: false },
    ]);
  });

  it('pings every 30 s while open and stops when closed', async () => {
    const { client, last } = setup();
    client.connect();
    await settle();
    last().open();
    const pings = () => last().sent.filter((f) => (f as { type?: string }).type === 'ping').length;
    vi.advanceTimersByTime(SOCKET.pingIntervalMs - 1);
    expect(pings()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(pings()).toBe(1);
    vi.advanceTimersByTime(SOCKET.pingIntervalMs * 2);
    expect(pings()).toBe(3);
    const socket = last();
    client.close();
    expect(socket.closedWith).toBe(1000);
    vi.advanceTimersByTime(SOCKET.pingIntervalMs * 3);
    expect(socket.sent.filter((f) => (f as { type?: string }).type === 'ping').length).toBe(3);
  });

  it('keeps each seq once and reports them in the order that fills the gaps', async () => {
    const { client, last, messages } = setup();
    client.connect();
    await settle();
    last().open();
    last().receive({ conversation_id: 7, final_result_object: message(1) });
    last().receive({ conversation_id: 7, final_result_object: message(2) });
    last().receive({ conversation_id: 7, final_result_object: message(2) });
    last().receive({ conversation_id: 7, final_result_object: message(4) });
    expect(client.lastSeq(7)).toBe(2);
    last().receive({ conversation_id: 7, final_result_object: message(3) });
    last().receive({ conversation_id: 7, final_result_object: message(4) });
    expect(client.lastSeq(7)).toBe(4);
    last().receive({ conversation_id: 9, final_result_object: message(1, 9) });
    expect(messages()).toEqual(['7:1', '7:2', '7:4', '7:3', '9:1']);
  });

  it('resumes after the last seq held without a gap on every reconnect', async () => {
    const { client, sockets, last, messages } = setup();
    client.watch(7, 0);
    client.connect();
    await settle();
    last().open();
    expect(last().sent[1]).toEqual({ type: 'resume', conversation_id: 7, after_seq: 0 });
    last().receive({ conversation_id: 7, final_result_object: message(1) });
    last().receive({ conversation_id: 7, final_result_object: message(2) });
    last().receive({ conversation_id: 7, final_result_object: message(3) });

    last().drop(1006);
    expect(client.getStatus()).toBe('closed');
    vi.advanceTimersByTime(1000);
    await settle();
    expect(sockets).toHaveLength(2);
    last().open();
    expect(last().sent).toEqual([
      expect.objectContaining({ content: expect.objectContaining({ message: 'connection' }) }),
      { type: 'resume', conversation_id: 7, after_seq: 3 },
    ]);
    // The server re-sends from its side of the story: overlaps are dropped, new ones kept.
    for (const seq of [2, 3, 4, 5]) last().receive({ conversation_id: 7, final_result_object: message(seq) });
    expect(messages()).toEqual(['7:1', '7:2', '7:3', '7:4', '7:5']);

    // A conversation watched from the middle (history already on screen) resumes from there.
    client.watch(11, 6);
    expect(last().sent[last().sent.length - 1]).toEqual({
      type: 'resume',
      conversation_id: 11,
      after_seq: 6,
    });
    last().receive({ conversation_id: 11, final_result_object: message(6, 11) });
    last().receive({ conversation_id: 11, final_result_object: message(7, 11) });
    expect(messages().slice(-1)).toEqual(['11:7']);
  });

  it('tracks conversations the server starts, so a reconnect resumes them too', async () => {
    const { client, last } = setup();
    client.connect();
    await settle();
    last().open();
    last().receive({ conversation_id: 42, final_result_object: message(1, 42) });
    last().receive({ conversation_id: 42, final_result_object: message(2, 42) });
    last().drop();
    vi.advanceTimersByTime(1000);
    await settle();
    last().open();
    expect(last().sent[1]).toEqual({ type: 'resume', conversation_id: 42, after_seq: 2 });
  });

  it.each([4401, 4403, 4429])(
    'does not reconnect after a refusing close %i, until the network returns',
    async (code) => {
      const { client, sockets, last, events } = setup();
      client.connect();
      await settle();
      last().open();
      last().drop(code);
      expect(client.getStatus()).toBe('failed');
      expect(events.at(-1)).toEqual({ type: 'refused', code });
      vi.advanceTimersByTime(120_000);
      await settle();
      expect(sockets).toHaveLength(1);
      client.online();
      await settle();
      expect(sockets).toHaveLength(2);
    },
  );

  it('backs off 1, 2, 4... s capped at 30 s and gives up after 10 attempts', async () => {
    const { client, sockets, last, events } = setup();
    client.connect();
    await settle();
    expect(sockets).toHaveLength(1);
    const waits: number[] = [];
    for (let attempt = 0; attempt < SOCKET.maxReconnectAttempts; attempt += 1) {
      const before = sockets.length;
      last().drop(1006);
      const expected = Math.min(SOCKET.backoffCapMs, 1000 * 2 ** attempt);
      vi.advanceTimersByTime(expected - 1);
      await settle();
      expect(sockets).toHaveLength(before);
      vi.advanceTimersByTime(1);
      await settle();
      expect(sockets).toHaveLength(before + 1);
      waits.push(expected);
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000, 30_000, 30_000]);
    last().drop(1006);
    expect(client.getStatus()).toBe('failed');
    expect(events.filter((e) => e.type === 'gave-up')).toHaveLength(1);
    vi.advanceTimersByTime(120_000);
    await settle();
    expect(sockets).toHaveLength(11);

    // The network returns: counters reset and the client connects at once.
    client.online();
    await settle();
    expect(sockets).toHaveLength(12);
    expect(client.getAttempts()).toBe(0);
    last().open();
    expect(client.getStatus()).toBe('open');
  });

  it('adds the random jitter to the wait', async () => {
    const { client, sockets, last } = setup({ random: () => 0.5 });
    client.connect();
    await settle();
    last().drop(1006);
    vi.advanceTimersByTime(1499);
    await settle();
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    await settle();
    expect(sockets).toHaveLength(2);
  });

  it('reconnects 3 s after a normal close, and an open resets the counter', async () => {
    const { client, sockets, last } = setup();
    client.connect();
    await settle();
    last().drop(1006);
    vi.advanceTimersByTime(1000);
    await settle();
    last().open();
    expect(client.getAttempts()).toBe(0);
    last().drop(1000);
    vi.advanceTimersByTime(SOCKET.userReconnectDelayMs - 1);
    await settle();
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(1);
    await settle();
    expect(sockets).toHaveLength(3);
  });

  it('reconnects at once when the tab becomes visible, and not at all after close()', async () => {
    const { client, sockets, last } = setup();
    client.connect();
    await settle();
    last().drop(1006);
    last().drop(1006); // a stale second close is ignored
    client.nudge();
    await settle();
    expect(sockets).toHaveLength(2);
    client.nudge(); // already connecting
    await settle();
    expect(sockets).toHaveLength(2);
    vi.advanceTimersByTime(5000);
    await settle();
    expect(sockets).toHaveLength(2);

    client.close();
    last().drop(1000);
    vi.advanceTimersByTime(60_000);
    client.nudge();
    client.online();
    await settle();
    expect(sockets).toHaveLength(2);
    expect(client.getStatus()).toBe('closed');
  });

  it('gives up on an attempt that does not open in time', async () => {
    const { client, sockets, events, last } = setup({ openTimeoutMs: 10_000 });
    client.connect();
    await settle();
    vi.advanceTimersByTime(10_000);
    expect(events.some((e) => e.type === 'timeout')).toBe(true);
    expect(last().closedWith).toBeUndefined();
    expect(client.getStatus()).toBe('closed');
    vi.advanceTimersByTime(1000);
    await settle();
    expect(sockets).toHaveLength(2);
  });

  it('binds visibility and network events', () => {
    const listeners = new Map<string, () => void>();
    const target = {
      addEventListener: (name: string, fn: () => void) => listeners.set(name, fn),
      removeEventListener: (name: string) => listeners.delete(name),
    };
    const doc = { ...target, visibilityState: 'hidden' };
    const socket = { nudge: vi.fn(), online: vi.fn() };
    const unbind = bindReconnectTriggers(socket, { document: doc as never, window: target as never });
    listeners.get('visibilitychange')?.();
    expect(socket.nudge).not.toHaveBeenCalled();
    doc.visibilityState = 'visible';
    listeners.get('visibilitychange')?.();
    listeners.get('online')?.();
    expect(socket.nudge).toHaveBeenCalledTimes(1);
    expect(socket.online).toHaveBeenCalledTimes(1);
    unbind();
    expect(listeners.size).toBe(0);
  });
});
