import { browserSocket, HelpdeskSocket, type HelpdeskSocketEvent, mergeMessages } from '@parley/chat-client';
import { MESSAGES } from '@parley/contracts';
import toast from 'react-hot-toast';
import type { AppStore } from '../../app/store';
import { agentOnlineSet, notificationsAdded } from '../../app/ui-slice';
import { clearAuth, readAccessToken } from '../../shared/lib/session-storage';
import { authApi } from '../auth/api';
import { refreshSession } from '../auth/refresh';
import { sessionEnded } from '../auth/session-slice';
import { sessionVersionChanged } from '../auth/session-version';
import { notificationStored } from '../notifications/api';
import { inboxApi } from './api';
import {
  connectionChanged,
  conversationRemoved,
  messageReceived,
  missedWhileAway,
  selectInbox,
  unreadLoaded,
  unreadSet,
  type WithInbox,
} from './inbox-slice';
import { playNotificationSound } from './sound';

type Listener = (event: HelpdeskSocketEvent) => void;

/** Lists are reloaded at most this often while messages pour in. */
const REFRESH_DEBOUNCE_MS = 250;

type Live = {
  key: string;
  socket: HelpdeskSocket;
  stop: () => void;
};

let live: Live | null = null;
const listeners = new Set<Listener>();
/** Conversations open on screen and the last seq held: resumed after every reconnect. */
const watched = new Map<number, number>();

/** The screen listens to the admin channel's events (frames for the open thread, control changes). */
export function onInboxEvent(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Follows an open conversation: after a reconnect, what was missed after `afterSeq` is asked for. */
export function watchConversation(conversationId: number, afterSeq: number): void {
  watched.set(conversationId, afterSeq);
  live?.socket.watch(conversationId, afterSeq);
}

export function unwatchConversation(conversationId: number): void {
  watched.delete(conversationId);
  live?.socket.unwatch(conversationId);
}

export function inboxConnectionStatus() {
  return live?.socket.getStatus() ?? 'idle';
}

/**
 * The admin (help-desk) channel for the signed-in agent, one per tab. The inbox screen opens it
 * (its code loads only with that screen) and it stays open when the agent moves to another page,
 * until the session ends: every new message of the workspace updates the thread in the cache, the unread state, the bell
 * (with a chime) and the lists; control changes, presence and failures are reported (console.md
 * sections 4 and 8). Without a tenant id and a user id nothing happens. Returns the stop function.
 */
export function startInboxConnection(
  store: AppStore,
  user: { id: number | null | undefined; tenant_id: number | null | undefined },
): () => void {
  const key = `${user.tenant_id}:${user.id}`;
  if (live?.key === key) {
    // Back on the inbox after the attempts ran out: try again at once.
    if (live.socket.getStatus() === 'failed') live.socket.online();
    return live.stop;
  }
  live?.stop();
  const tenantId = user.tenant_id;
  if (typeof tenantId !== 'number' || typeof user.id !== 'number') return () => undefined;

  const dispatch = store.dispatch;
  const state = () => store.getState() as ReturnType<AppStore['getState']> & WithInbox;
  let refreshTimer: ReturnType<typeof setTimeout> | null = null;
  let everOpened = false;
  const markRead = debouncePerConversation((id) => {
    void dispatch(inboxApi.endpoints.markRead.initiate(id));
  });

  const refreshLists = () => {
    if (refreshTimer !== null) return;
    refreshTimer = setTimeout(() => {
      refreshTimer = null;
      dispatch(inboxApi.util.invalidateTags(['HelpdeskGrouped', 'HelpdeskInbox']));
    }, REFRESH_DEBOUNCE_MS);
  };
  /** The server's unread state; after a reconnect, what arrived meanwhile also rings the bell. */
  const loadUnread = async (afterGap: boolean) => {
    const request = dispatch(inboxApi.endpoints.unread.initiate(tenantId, { forceRefetch: true }));
    try {
      const unread = await request.unwrap();
      const missed = afterGap ? missedWhileAway(selectInbox(state()), unread) : 0;
      dispatch(unreadLoaded(unread));
      if (missed > 0) {
        dispatch(notificationsAdded(missed));
        playNotificationSound();
      }
    } catch {
      // Shown by the shared error toast.
    } finally {
      request.unsubscribe();
    }
  };
  const isOpen = (conversationId: number) => {
    const inbox = selectInbox(state());
    return inbox.viewing && inbox.selectedConversationId === conversationId;
  };

  // Session ended (sign-out elsewhere, password changed): renew it and reconnect, or go to sign-in.
  const refused = async (code: number) => {
    if (code === 4401) {
      const outcome = await refreshSession(dispatch);
      if (outcome === 'renewed') return socket.online();
      if (outcome === 'expired') {
        clearAuth();
        dispatch(sessionEnded());
        return;
      }
    }
    toast.error(MESSAGES.realtime.unableToEstablish, { id: 'helpdesk-realtime' });
  };

  const onEvent = (event: HelpdeskSocketEvent) => {
    switch (event.type) {
      case 'status':
        dispatch(connectionChanged(event.status));
        if (event.status === 'open') everOpened = true;
        break;
      case 'message': {
        const { message, botId } = event;
        // A signed-in user's message is the playground's test chat: it rings no bell.
        const fromVisitor = message.message_type === 'user' && message.user_id === null;
        dispatch(messageReceived({ conversationId: message.conversation_id, botId, fromVisitor }));
        dispatch(
          inboxApi.util.updateQueryData('helpdeskConversation', message.conversation_id, (draft) => {
            draft.messages = mergeMessages(draft.messages, [message]);
            draft.last_seq = Math.max(draft.last_seq, message.seq);
            // A transition's system message says where the conversation is now.
            if (message.handoff && message.seq === draft.last_seq) draft.handoff_state = message.handoff.to;
          }),
        );
        if (watched.has(message.conversation_id)) {
          watched.set(
            message.conversation_id,
            Math.max(watched.get(message.conversation_id) ?? 0, message.seq),
          );
        }
        if (fromVisitor) {
          if (isOpen(message.conversation_id)) markRead(message.conversation_id);
          else dispatch(notificationsAdded(1));
          if (message.message.trim()) playNotificationSound();
        }
        // A transition (system message): the conversation's history has a new line.
        if (message.handoff) {
          dispatch(inboxApi.util.invalidateTags([{ type: 'HelpdeskEvents', id: message.conversation_id }]));
        }
        // A visitor asks for a person: the server stores the bell's notification (its frame follows);
        // the desktop is told when the agent allowed it.
        if (message.handoff?.to === 'human_requested' && !message.handoff.test) {
          desktopAlert('A visitor asks for a person', message.message);
        }
        refreshLists();
        break;
      }
      case 'control':
        dispatch(
          inboxApi.util.updateQueryData('helpdeskConversation', event.conversationId, (draft) => {
            draft.is_helpdesk_in_control = event.status.is_helpdesk_in_control;
            draft.admin_id = event.status.admin_id;
            draft.admin_name = event.status.admin_name;
          }),
        );
        refreshLists();
        break;
      case 'unread':
        if (isOpen(event.conversationId)) {
          if (event.unreadCount > 0) markRead(event.conversationId);
        } else {
          dispatch(
            unreadSet({ conversationId: event.conversationId, botId: event.botId, count: event.unreadCount }),
          );
        }
        // The filters' unread counts follow.
        refreshLists();
        break;
      case 'conversation':
        if (event.deleted) dispatch(conversationRemoved(event.conversationId));
        // A change beyond its messages (a channel refused one): the open thread reads it again.
        else
          dispatch(
            inboxApi.util.invalidateTags([{ type: 'HelpdeskConversation', id: event.conversationId }]),
          );
        refreshLists();
        break;
      case 'presence':
        dispatch(agentOnlineSet(event.agentsOnline));
        break;
      case 'notice':
        // Warnings and confirmations add to the bell (section 8 Frames in chat).
        if (event.kind === 'warning' || event.kind === 'confirmation') dispatch(notificationsAdded(1));
        break;
      case 'notification':
        // Section 7: the admin event makes the bell fetch its count (and an open list) again.
        dispatch(notificationStored());
        break;
      case 'session':
        // Roles or grants of this agent changed: the menu follows without a reload.
        if (sessionVersionChanged(event.version)) dispatch(authApi.util.invalidateTags(['Me']));
        break;
      case 'timeout':
        console.warn(MESSAGES.realtime.timeout);
        toast.error(MESSAGES.realtime.issue, { id: 'helpdesk-realtime' });
        break;
      case 'gave-up':
        toast.error(everOpened ? MESSAGES.realtime.lost : MESSAGES.realtime.unableToEstablish, {
          id: 'helpdesk-realtime',
        });
        break;
      case 'refused':
        void refused(event.code);
        break;
      case 'reconnected':
        toast.dismiss('helpdesk-realtime');
        dispatch(inboxApi.util.invalidateTags(['HelpdeskGrouped']));
        // Notifications stored while the channel was down sent no frame.
        dispatch(notificationStored());
        void loadUnread(true);
        break;
      case 'connected':
      case 'chunk':
      case 'error':
        break;
    }
    for (const listener of listeners) listener(event);
  };

  const socket = new HelpdeskSocket({
    location: window.location,
    token: readAccessToken,
    tenantId,
    userId: user.id,
    createSocket: browserSocket,
    onEvent,
  });
  for (const [conversationId, afterSeq] of watched) socket.watch(conversationId, afterSeq);
  const unbind = socket.bindTriggers();
  socket.connect();
  void loadUnread(false);
  let unsubscribe: () => void = () => undefined;

  const entry: Live = {
    key,
    socket,
    stop: () => {
      if (live !== entry) return;
      live = null;
      unsubscribe();
      unbind();
      socket.close();
      if (refreshTimer !== null) clearTimeout(refreshTimer);
      dispatch(connectionChanged('closed'));
    },
  };
  live = entry;
  // Logging out (or another user signing in) ends the channel.
  unsubscribe = store.subscribe(() => {
    const current = store.getState().session.user;
    if (!current || current.id !== user.id || current.tenant_id !== tenantId) entry.stop();
  });
  return entry.stop;
}

/** One call per conversation after a burst settles (many messages mark it read once). */
function debouncePerConversation(fn: (id: number) => void): (id: number) => void {
  const pending = new Map<number, ReturnType<typeof setTimeout>>();
  return (id) => {
    const timer = pending.get(id);
    if (timer !== undefined) clearTimeout(timer);
    pending.set(
      id,
      setTimeout(() => {
        pending.delete(id);
        fn(id);
      }, 300),
    );
  };
}

/** A desktop notification, only where the agent allowed them (Notification.permission). */
function desktopAlert(title: string, body: string): void {
  if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
  try {
    new Notification(title, { body, tag: 'parley-handoff' });
  } catch {
    // Some browsers allow notifications only from a service worker: the bell still counts.
  }
}
