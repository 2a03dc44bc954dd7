import type { ChatMessage } from '@parley/contracts';
import { SOCKET } from '@parley/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SocketHandlers } from './chat-socket.js';
import { HelpdeskSocket, type HelpdeskSocketEvent, helpdeskSocketUrl } from './helpdesk-socket.js';

class FakeSocket {
  sent: Record<string, unknown>[] = [];
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

function message(seq: number, conversationId = 7, botId = 3): ChatMessage {
  return {
    id: seq,
    chat_id: seq,
    conversation_id: conversationId,
    bot_id: botId,
    seq,
    message: `message ${seq}`,
    message_type: 'user',
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
  };
}

function setup(ids: { tenantId?: number | null; userId?: number | null } = {}) {
  const sockets: FakeSocket[] = [];
  const events: HelpdeskSocketEvent[] = [];
  const client = new HelpdeskSocket({
    location: { protocol: 'https:', host: 'console.example' },
    token: () => 'tok',
    tenantId: ids.tenantId === undefined ? 4 : ids.tenantId,
    userId: ids.userId === undefined ? 9 : ids.userId,
    createSocket: (url, handlers) => {
      const socket = new FakeSocket(url, handlers);
      sockets.push(socket);
      return socket;
    },
    onEvent: (event) => events.push(event),
    random: () => 0,
  });
  const last = () => sockets[sockets.length - 1]!;
  const seqs = () =>
    events.flatMap((e) => (e.type === 'message' ? [`${e.message.conversation_id}:${e.message.seq}`] : []));
  return { client, sockets, events, last, seqs };
}

const settle = () => vi.advanceTimersByTimeAsync(0);

describe('helpdeskSocketUrl', () => {
  it('puts the token, tenant id and user id in the query of the helpdesk path', () => {
    expect(
      helpdeskSocketUrl({ protocol: 'http:', host: 'h:3000' }, { token: 't', tenantId: 4, userId: 9 }),
    ).toBe('ws://h:3000/api/chat/helpdesk?token=t&tenant_id=4&user_id=9');
  });
});

describe('HelpdeskSocket', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('does nothing without both a tenant id and a user id', async () => {
    for (const ids of [{ tenantId: null }, { userId: null }, { tenantId: null, userId: null }]) {
      const { client, sockets } = setup(ids);
      expect(client.connect()).toBe(false);
      client.online();
      client.nudge();
      await settle();
      expect(sockets).toHaveLength(0);
      expect(client.getStatus()).toBe('idle');
    }
  });

  it('opens wss with the ids, says hello as helpdesk and pings every 30 s', async () => {
    const { client, last, events } = setup();
    expect(client.connect()).toBe(true);
    await settle();
    expect(last().url).toBe('wss://console.example/api/chat/helpdesk?token=tok&tenant_id=4&user_id=9');
    expect(client.getStatus()).toBe('connecting');
    last().open();
    expect(client.getStatus()).toBe('open');
    expect(last().sent[0]).toEqual({
      content: {
        bot_id: 0,
        user_id: 9,
        tenant_id: 4,
        conversation_id: 0,
        message: 'connection',
        message_type: 'helpdesk',
      },
      elements: [],
    });
    vi.advanceTimersByTime(SOCKET.pingIntervalMs);
    expect(last().sent.at(-1)).toEqual({ type: 'ping' });
    last().receive({ type: 'pong' });
    expect(events.map((e) => e.type)).toEqual(['status', 'status']);
  });

  it('gives up on an attempt that has not opened within 10 s and backs off', async () => {
    const { client, sockets, events } = setup();
    client.connect();
    await settle();
    vi.advanceTimersByTime(SOCKET.adminOpenTimeoutMs - 1);
    expect(events.some((e) => e.type === 'timeout')).toBe(false);
    vi.advanceTimersByTime(1);
    expect(events.some((e) => e.type === 'timeout')).toBe(true);
    expect(client.getStatus()).toBe('closed');
    await vi.advanceTimersByTimeAsync(1000);
    expect(sockets).toHaveLength(2);
  });

  it('backs off 1 s doubling to 30 s, 10 attempts, even after a normal close; online() resets', async () => {
    const { client, sockets, events } = setup();
    client.connect();
    await settle();
    sockets[0]!.open();
    sockets[0]!.drop(1000);
    const waits = [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000, 30000, 30000];
    for (const [i, wait] of waits.entries()) {
      await vi.advanceTimersByTimeAsync(wait - 1);
      expect(sockets).toHaveLength(i + 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(sockets).toHaveLength(i + 2);
      sockets[i + 1]!.drop();
    }
    expect(events.at(-1)).toEqual({ type: 'gave-up' });
    expect(client.getStatus()).toBe('failed');
    await vi.advanceTimersByTimeAsync(120_000);
    expect(sockets).toHaveLength(11);
    client.online();
    await settle();
    expect(sockets).toHaveLength(12);
    expect(client.getAttempts()).toBe(0);
  });

  it('reads messages of every conversation once, with their bot', async () => {
    const { client, last, events, seqs } = setup();
    client.connect();
    await settle();
    last().open();
    last().receive({ type: 'message', conversation_id: 7, bot_id: 3, final_result_object: message(1) });
    last().receive({ type: 'message', conversation_id: 7, bot_id: 3, final_result_object: message(1) });
    last().receive({ type: 'message', conversation_id: 8, bot_id: 5, final_result_object: message(1, 8, 5) });
    expect(seqs()).toEqual(['7:1', '8:1']);
    const last8 = events.filter((e) => e.type === 'message').at(-1);
    expect(last8).toMatchObject({ botId: 5 });
  });

  it('reports control changes, unread counts, conversations and presence', async () => {
    const { client, last, events } = setup();
    client.connect();
    await settle();
    last().open();
    const status = { conversation_id: 7, is_helpdesk_in_control: true, admin_id: 9, admin_name: 'Ann' };
    last().receive({ type: 'helpdesk_control', conversation_id: 7, content: status, message: 'Ann joined' });
    last().receive({ type: 'unread', conversation_id: 7, bot_id: 3, unread_count: 2 });
    last().receive({ type: 'conversation', conversation_id: 8, bot_id: 3 });
    last().receive({ type: 'conversation', conversation_id: 8, bot_id: 3, deleted: true });
    last().receive({ type: 'presence', agents_online: true, count: 1 });
    last().receive({ type: 'warning', message: 'slow down' });
    last().receive({ error: 'bad frame' });
    expect(events.slice(2)).toEqual([
      { type: 'control', conversationId: 7, status, message: 'Ann joined' },
      { type: 'unread', conversationId: 7, botId: 3, unreadCount: 2 },
      { type: 'conversation', conversationId: 8, botId: 3, deleted: false },
      { type: 'conversation', conversationId: 8, botId: 3, deleted: true },
      { type: 'presence', agentsOnline: true },
      { type: 'notice', kind: 'warning', message: 'slow down', conversationId: null },
      { type: 'error', error: 'bad frame', conversationId: null },
    ]);
  });

  it('turns the notification frame into an event that makes the bell fetch its count', async () => {
    const { client, last, events } = setup();
    client.connect();
    await settle();
    last().open();
    last().receive({ type: 'notification', user_id: 5, tenant_id: 4 });
    expect(events.at(-1)).toEqual({ type: 'notification' });
  });

  it('turns the session frame into an event carrying the new version, and ignores one without it', async () => {
    const { client, last, events } = setup();
    client.connect();
    await settle();
    last().open();
    last().receive({ type: 'session', version: 'v2' });
    expect(events.at(-1)).toEqual({ type: 'session', version: 'v2' });
    const before = events.length;
    last().receive({ type: 'session' });
    expect(events.slice(before).some((e) => e.type === 'session')).toBe(false);
  });

  it('after a reconnect resumes only the followed conversations from their last seq, and says so', async () => {
    const { client, last, events, seqs } = setup();
    client.connect();
    await settle();
    last().open();
    client.watch(7, 2);
    expect(last().sent.at(-1)).toEqual({ type: 'resume', conversation_id: 7, after_seq: 2 });
    last().receive({ type: 'message', conversation_id: 7, bot_id: 3, final_result_object: message(3) });
    // Seen live, not followed: not resumed.
    last().receive({ type: 'message', conversation_id: 8, bot_id: 3, final_result_object: message(5, 8) });
    last().drop();
    await vi.advanceTimersByTimeAsync(1000);
    last().open();
    expect(events.filter((e) => e.type === 'reconnected')).toHaveLength(1);
    expect(last().sent.filter((f) => f.type === 'resume')).toEqual([
      { type: 'resume', conversation_id: 7, after_seq: 3 },
    ]);
    // The server re-sends what was stored in between, some of it twice: each once.
    for (const seq of [3, 4, 4, 5]) {
      last().receive({ type: 'message', conversation_id: 7, bot_id: 3, final_result_object: message(seq) });
    }
    expect(seqs()).toEqual(['7:3', '8:5', '7:4', '7:5']);
    client.unwatch(7);
    last().drop();
    await vi.advanceTimersByTimeAsync(1000);
    last().open();
    expect(last().sent.filter((f) => f.type === 'resume')).toEqual([]);
  });

  it('closes for good', async () => {
    const { client, last, sockets } = setup();
    client.connect();
    await settle();
    last().open();
    client.close();
    expect(last().closedWith).toBe(1000);
    expect(client.getStatus()).toBe('closed');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('reconnects when the tab becomes visible or the network returns', async () => {
    const { client, sockets } = setup();
    const listeners = new Map<string, () => void>();
    const target = {
      addEventListener: (name: string, fn: () => void) => listeners.set(name, fn),
      removeEventListener: (name: string) => listeners.delete(name),
    };
    const unbind = client.bindTriggers({
      document: { ...target, visibilityState: 'visible' },
      window: target,
    });
    client.connect();
    await settle();
    sockets[0]!.drop();
    listeners.get('visibilitychange')?.();
    await settle();
    expect(sockets).toHaveLength(2);
    sockets[1]!.drop();
    listeners.get('online')?.();
    await settle();
    expect(sockets).toHaveLength(3);
    unbind();
    expect(listeners.size).toBe(0);
  });
});
