import { createChunkBatcher, mergeMessages } from '@parley/chat-client';
import { type ChatMessage, ChatRequest, MESSAGES, type StreamEvent } from '@parley/contracts';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useAppDispatch } from '../../../app/store';
import { readAccessToken } from '../../../shared/lib/session-storage';
import { browserStore } from '../../../shared/lib/storage';
import { refreshSession } from '../../auth/refresh';
import { useLazyConversationQuery, useRequestHumanMutation } from '../api';
import { type ChatFrame, makeFrame } from '../frames';
import { StreamHttpError, streamChat } from '../stream';

const storageKey = (botId: number) => `parley.playground.${botId}`;

export type StreamingChat = {
  conversationId: number | null;
  messages: ChatMessage[];
  draft: string | null;
  thinking: boolean;
  frames: ChatFrame[];
  send: (text: string) => void;
  newChat: () => void;
  /** The playground's "Talk to a person" (in the current conversation). */
  requestHuman: () => Promise<void>;
  /** A message stored by another call (the contact form's thank-you), shown in its place. */
  received: (message: ChatMessage) => void;
};

/**
 * A signed-in user's chat with a bot over POST /chat/chats/stream (the playground). Sending sets
 * "bot thinking" (spec section 4 Chat send); streamed chunks are batched every 16 ms into the draft;
 * the final message replaces the draft and clears the flag. The conversation id is kept per bot so
 * a reload shows the same chat; "New chat" starts another.
 */
export function useStreamingChat(botId: number): StreamingChat {
  const dispatch = useAppDispatch();
  const [conversationId, setConversationId] = useState<number | null>(null);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [draft, setDraft] = useState<string | null>(null);
  const [thinking, setThinking] = useState(false);
  const [frames, setFrames] = useState<ChatFrame[]>([]);
  const conversationRef = useRef<number | null>(null);
  const abortRef = useRef<AbortController | null>(null);
  const generation = useRef(0);
  const [loadConversation] = useLazyConversationQuery();
  const batcher = useMemo(() => createChunkBatcher((text) => setDraft((d) => (d ?? '') + text)), []);

  const adopt = useCallback(
    (id: number | null) => {
      conversationRef.current = id;
      setConversationId(id);
      const store = browserStore();
      if (id === null) store.removeItem(storageKey(botId));
      else store.setItem(storageKey(botId), String(id));
    },
    [botId],
  );

  // A reload shows the conversation this bot's playground had.
  useEffect(() => {
    const stored = Number(browserStore().getItem(storageKey(botId)));
    if (!Number.isInteger(stored) || stored <= 0) return;
    const mine = generation.current;
    conversationRef.current = stored;
    setConversationId(stored);
    loadConversation(stored)
      .unwrap()
      .then((conversation) => {
        if (generation.current !== mine || conversation.bot_id !== botId) return;
        setMessages((current) => mergeMessages(current, conversation.messages));
      })
      .catch(() => {
        if (generation.current === mine) adopt(null);
      });
  }, [botId, loadConversation, adopt]);

  useEffect(
    () => () => {
      abortRef.current?.abort();
      batcher.cancel();
    },
    [batcher],
  );

  const addFrame = useCallback((kind: ChatFrame['kind'], message: string) => {
    setFrames((f) => [...f, makeFrame(kind, message)]);
  }, []);

  const send = useCallback(
    (text: string) => {
      const parsed = ChatRequest.safeParse({
        bot_id: botId,
        message: text,
        conversation_id: conversationRef.current ?? undefined,
      });
      if (!parsed.success) {
        addFrame('error', parsed.error.issues[0]?.message ?? MESSAGES.realtime.sendFailed);
        return;
      }
      const mine = ++generation.current;
      const controller = new AbortController();
      abortRef.current?.abort();
      abortRef.current = controller;
      batcher.cancel();
      setDraft(null);
      setThinking(true);
      const current = () => generation.current === mine;

      const onEvent = (event: StreamEvent) => {
        if (!current()) return;
        switch (event.type) {
          case 'start':
            if (conversationRef.current !== event.conversation_id) adopt(event.conversation_id);
            setMessages((m) => mergeMessages(m, [event.user_message]));
            return;
          case 'chunk':
            batcher.push(event.data);
            return;
          case 'final': {
            batcher.cancel();
            setDraft(null);
            setThinking(false);
            const answer = event.final_result_object;
            if (answer) setMessages((m) => mergeMessages(m, [answer]));
            else addFrame('helpdesk_control', 'A team member is handling this conversation.');
            return;
          }
          case 'error':
            batcher.cancel();
            setDraft(null);
            setThinking(false);
            addFrame('error', event.error);
            return;
        }
      };

      const body = {
        bot_id: parsed.data.bot_id,
        message: parsed.data.message,
        conversation_id: parsed.data.conversation_id,
      };
      const run = () => streamChat(body, { token: readAccessToken(), signal: controller.signal, onEvent });
      (async () => {
        try {
          try {
            await run();
          } catch (error) {
            if (!(error instanceof StreamHttpError && error.status === 401)) throw error;
            if ((await refreshSession(dispatch)) !== 'renewed') throw error;
            await run();
          }
        } catch (error) {
          if (!current() || controller.signal.aborted) return;
          addFrame('error', error instanceof StreamHttpError ? error.message : MESSAGES.realtime.sendFailed);
        } finally {
          if (current()) {
            batcher.flushNow();
            setThinking(false);
          }
        }
      })();
    },
    [botId, batcher, dispatch, adopt, addFrame],
  );

  const newChat = useCallback(() => {
    generation.current += 1;
    abortRef.current?.abort();
    abortRef.current = null;
    batcher.cancel();
    adopt(null);
    setMessages([]);
    setDraft(null);
    setThinking(false);
    setFrames([]);
  }, [batcher, adopt]);

  const [request] = useRequestHumanMutation();
  const requestHuman = useCallback(async () => {
    const id = conversationRef.current;
    if (id === null) return;
    const notice = await request(id);
    if ('data' in notice && notice.data) setMessages((m) => mergeMessages(m, [notice.data]));
    else addFrame('error', MESSAGES.realtime.sendFailed);
  }, [request, addFrame]);

  const received = useCallback((message: ChatMessage) => setMessages((m) => mergeMessages(m, [message])), []);

  return { conversationId, messages, draft, thinking, frames, send, newChat, requestHuman, received };
}
