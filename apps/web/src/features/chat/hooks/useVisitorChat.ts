import {
  bindReconnectTriggers,
  browserSocket,
  ChatSocket,
  type ChatSocketEvent,
  type ChatSocketStatus,
  chatSocketUrl,
  createChunkBatcher,
  frameText,
  mergeMessages,
  pendingAfter,
  takesMessages,
} from '@parley/chat-client';
import {
  type ChatMessage,
  type PublicBot,
  type VisitorIdentity,
  WIDGET_TEXTS_ENGLISH,
} from '@parley/contracts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { browserStore } from '../../../shared/lib/storage';
import { type ChatFrame, makeFrame } from '../frames';

/** A reply that never comes (an agent holds the chat, say) must not lock the composer for ever. */
const THINKING_LIMIT_MS = 60_000;

const identityKey = (uuid: string) => `parley.visitor.${uuid}`;
const conversationKey = (uuid: string) => `parley.conversation.${uuid}`;

function readIdentity(uuid: string): VisitorIdentity | null {
  try {
    const raw = browserStore().getItem(identityKey(uuid));
    return raw ? (JSON.parse(raw) as VisitorIdentity) : null;
  } catch {
    return null;
  }
}

/** The visitor's signed identity token for this bot, once the chat has asked for one. */
export const visitorTokenOf = (uuid: string): string | null => readIdentity(uuid)?.visitor_token ?? null;

/** Asks for (or renews) the visitor's signed identity for this bot, and keeps it. */
async function renewIdentity(uuid: string): Promise<VisitorIdentity> {
  const previous = readIdentity(uuid);
  const response = await fetch('/api/chat/visitor', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ bot_uuid: uuid, ...(previous ? { visitor_token: previous.visitor_token } : {}) }),
  });
  if (!response.ok) throw new Error(`POST /api/chat/visitor failed (${response.status})`);
  const identity = (await response.json()) as VisitorIdentity;
  browserStore().setItem(identityKey(uuid), JSON.stringify(identity));
  return identity;
}

export type VisitorChat = {
  status: ChatSocketStatus;
  /** Whether someone from the team is online (the server's presence frames). */
  agentsOnline: boolean;
  conversationId: number | null;
  messages: ChatMessage[];
  draft: string | null;
  thinking: boolean;
  /** The visitor's message held until the chat connects, shown as theirs until the server's copy comes. */
  pending: string | null;
  /** A message may be sent now: the chat is connected, or connecting (it is then held), and not thinking. */
  canSend: boolean;
  frames: ChatFrame[];
  send: (text: string) => void;
  newChat: () => void;
  /** "Talk to a person", over the socket. */
  requestHuman: () => void;
  /** A message stored by another call (the contact form's thank-you): shown at once, the socket's copy merges. */
  received: (message: ChatMessage) => void;
};

/**
 * A visitor's chat with a public bot over the WebSocket (no login). The conversation id is kept per
 * bot, so a reload resumes it: the socket asks for everything after seq 0 and the history arrives
 * once. Chunks are batched every 16 ms; frames show inline; a connection that cannot be made
 * shows the spec's real-time toast.
 */
export function useVisitorChat(
  bot: (Pick<PublicBot, 'uuid' | 'bot_id'> & Partial<Pick<PublicBot, 'language' | 'texts'>>) | undefined,
): VisitorChat {
  // The bot's visitor language: its words for what the chat says, and the language the socket is
  // told, which a conversation the visitor starts keeps (as the website widget does).
  const texts = useRef(WIDGET_TEXTS_ENGLISH);
  texts.current = bot?.texts ?? WIDGET_TEXTS_ENGLISH;
  const language = bot?.language;
  const [status, setStatus] = useState<ChatSocketStatus>('idle');
  const [conversationId, setConversationId] = useState<number | null>(null);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [draft, setDraft] = useState<string | null>(null);
  const [thinking, setThinking] = useState(false);
  const [pending, setPending] = useState<string | null>(null);
  // Read by the socket's events, which the effect binds once.
  const pendingRef = useRef<string | null>(null);
  const hold = useCallback((text: string | null) => {
    pendingRef.current = text;
    setPending(text);
  }, []);
  const [frames, setFrames] = useState<ChatFrame[]>([]);
  const [agentsOnline, setAgentsOnline] = useState(false);
  const socketRef = useRef<ChatSocket | null>(null);
  const conversationRef = useRef<number | null>(null);
  /** Conversations left with "New chat": their late messages are not adopted. */
  const abandoned = useRef(new Set<number>());
  const thinkingTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const batcher = useMemo(() => createChunkBatcher((text) => setDraft((d) => (d ?? '') + text)), []);
  const uuid = bot?.uuid;
  const botId = bot?.bot_id;

  const stopThinking = useCallback(() => {
    if (thinkingTimer.current !== null) clearTimeout(thinkingTimer.current);
    thinkingTimer.current = null;
    setThinking(false);
  }, []);

  useEffect(() => {
    if (!uuid) return;
    const store = browserStore();
    const stored = Number(store.getItem(conversationKey(uuid)));
    const adopt = (id: number) => {
      conversationRef.current = id;
      setConversationId(id);
      store.setItem(conversationKey(uuid), String(id));
    };
    /** True from the resume of a kept conversation until its first message. */
    let restoring = false;
    const onEvent = (event: ChatSocketEvent) => {
      switch (event.type) {
        case 'status':
          setStatus(event.status);
          return;
        case 'message': {
          const { message } = event;
          restoring = false;
          if (abandoned.current.has(message.conversation_id)) return;
          if (conversationRef.current === null) adopt(message.conversation_id);
          if (message.conversation_id !== conversationRef.current) return;
          if (message.message_type !== 'user') {
            batcher.cancel();
            setDraft(null);
            stopThinking();
          }
          setMessages((m) => mergeMessages(m, [message]));
          hold(pendingAfter(pendingRef.current, message));
          return;
        }
        case 'chunk': {
          const id = event.conversationId;
          if (id !== null && abandoned.current.has(id)) return;
          // The answer of a new conversation can stream before the visitor's own message returns.
          if (id !== null && conversationRef.current === null) adopt(id);
          if (id === null || id === conversationRef.current) batcher.push(event.data);
          return;
        }
        case 'notice':
          stopThinking();
          setFrames((f) => [
            ...f,
            makeFrame(event.kind, frameText(texts.current, event.code, event.message)),
          ]);
          return;
        case 'error':
          if (restoring) {
            // The kept conversation is gone (or belongs to an identity that expired): start afresh.
            restoring = false;
            store.removeItem(conversationKey(uuid));
            conversationRef.current = null;
            setConversationId(null);
            return;
          }
          batcher.cancel();
          setDraft(null);
          stopThinking();
          hold(null);
          setFrames((f) => [...f, makeFrame('error', frameText(texts.current, event.code, event.error))]);
          return;
        case 'gave-up':
        case 'refused':
          toast.error(texts.current.unableToEstablish, { id: 'realtime-failed' });
          // The socket dropped the message it held: the visitor is told it did not go.
          if (pendingRef.current !== null) {
            stopThinking();
            hold(null);
            setFrames((f) => [...f, makeFrame('error', texts.current.sendFailed)]);
          }
          return;
        case 'presence':
          setAgentsOnline(event.agentsOnline);
          return;
        case 'timeout':
        case 'connected':
          return;
      }
    };

    let identity = readIdentity(uuid);
    const socket = new ChatSocket({
      url: async () => {
        identity = await renewIdentity(uuid);
        return chatSocketUrl(window.location, {
          visitor_token: identity.visitor_token,
          ...(language ? { language } : {}),
        });
      },
      createSocket: browserSocket,
      userId: () => identity?.visitor_id ?? null,
      onEvent,
    });
    socketRef.current = socket;
    if (Number.isInteger(stored) && stored > 0) {
      conversationRef.current = stored;
      setConversationId(stored);
      restoring = true;
      socket.watch(stored, 0);
    }
    socket.connect();
    const unbind = bindReconnectTriggers(socket);
    return () => {
      unbind();
      socket.close();
      socketRef.current = null;
      batcher.cancel();
      if (thinkingTimer.current !== null) clearTimeout(thinkingTimer.current);
    };
  }, [uuid, batcher, stopThinking, language, hold]);

  const send = useCallback(
    (text: string) => {
      const socket = socketRef.current;
      if (!socket || botId === undefined) return;
      const sent = socket.send({ botId, conversationId: conversationRef.current ?? 0, text });
      if (!sent) {
        toast.error(texts.current.sendFailed, { id: 'realtime-send' });
        return;
      }
      batcher.cancel();
      setDraft(null);
      hold(sent === 'held' ? text : null);
      setThinking(true);
      if (thinkingTimer.current !== null) clearTimeout(thinkingTimer.current);
      thinkingTimer.current = setTimeout(() => {
        thinkingTimer.current = null;
        setThinking(false);
      }, THINKING_LIMIT_MS);
    },
    [botId, batcher, hold],
  );

  const newChat = useCallback(() => {
    if (uuid) browserStore().removeItem(conversationKey(uuid));
    if (conversationRef.current !== null) abandoned.current.add(conversationRef.current);
    conversationRef.current = null;
    setConversationId(null);
    setMessages([]);
    setFrames([]);
    socketRef.current?.discardHeld();
    hold(null);
    batcher.cancel();
    setDraft(null);
    stopThinking();
  }, [uuid, batcher, stopThinking, hold]);

  /** "Talk to a person": the notice arrives as a stored message of the conversation. */
  const requestHuman = useCallback(() => {
    const socket = socketRef.current;
    if (!socket || botId === undefined) return;
    if (!socket.requestHuman(botId, conversationRef.current ?? 0))
      toast.error(texts.current.sendFailed, { id: 'realtime-send' });
  }, [botId]);

  const received = useCallback((message: ChatMessage) => setMessages((m) => mergeMessages(m, [message])), []);

  return {
    status,
    agentsOnline,
    conversationId,
    messages,
    draft,
    thinking,
    pending,
    canSend: takesMessages(status) && !thinking,
    frames,
    send,
    newChat,
    requestHuman,
    received,
  };
}
