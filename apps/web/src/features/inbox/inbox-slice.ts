import type { ChatSocketStatus } from '@parley/chat-client';
import type { GroupedChat, UnreadConversations } from '@parley/contracts';
import { combineReducers, createSlice, type PayloadAction, type Reducer } from '@reduxjs/toolkit';

/**
 * The inbox state of console.md section 3 (unread flag per conversation and per bot, unread count
 * per conversation, recent bots) and the unread handling of section 4. The bell's notificationCount
 * is the shell's (`ui.notificationCount`), so the top bar reads it without loading the inbox.
 */
export type InboxState = {
  /** Unread messages per conversation; a conversation is unread while its count is above 0. */
  unreadCounts: Record<number, number>;
  /** Bots with an unread conversation the agent has not looked at since. */
  unreadBots: Record<number, boolean>;
  /** Bot ids, most recent activity first. */
  recentBots: number[];
  selectedBotId: number | null;
  selectedConversationId: number | null;
  /** True while the inbox screen is on view (a selected conversation is then being read). */
  viewing: boolean;
  /** The admin channel, tracked apart from the chat channel (section 4 Real-time channels). */
  connection: ChatSocketStatus;
};

export const initialInboxState: InboxState = {
  unreadCounts: {},
  unreadBots: {},
  recentBots: [],
  selectedBotId: null,
  selectedConversationId: null,
  viewing: false,
  connection: 'idle',
};

function bump(state: InboxState, botId: number) {
  state.recentBots = [botId, ...state.recentBots.filter((id) => id !== botId)];
}

/** The conversation is open on screen: whatever arrives there is read at once. */
function isOpen(state: InboxState, conversationId: number): boolean {
  return state.viewing && state.selectedConversationId === conversationId;
}

/**
 * Visitor messages the server counts unread beyond what this tab has counted: those that arrived
 * while the admin channel was down, which no frame announced. Open conversations are read, not missed.
 */
export function missedWhileAway(state: InboxState, server: UnreadConversations): number {
  let missed = 0;
  for (const c of server.conversations) {
    if (isOpen(state, c.conversation_id)) continue;
    missed += Math.max(0, c.unread_count - (state.unreadCounts[c.conversation_id] ?? 0));
  }
  return missed;
}

export const inboxSlice = createSlice({
  name: 'inbox',
  initialState: initialInboxState,
  reducers: {
    /** The server's unread state (GET unread-conversations). */
    unreadLoaded: (state, action: PayloadAction<UnreadConversations>) => {
      const counts: Record<number, number> = {};
      for (const c of action.payload.conversations) {
        if (c.unread_count > 0 && !isOpen(state, c.conversation_id))
          counts[c.conversation_id] = c.unread_count;
      }
      state.unreadCounts = counts;
      const bots: Record<number, boolean> = {};
      for (const b of action.payload.bots)
        if (b.unread && b.bot_id !== state.selectedBotId) bots[b.bot_id] = true;
      state.unreadBots = bots;
    },
    /** The grouped list (bots ordered by their latest message): the recent order, bots not listed kept after. */
    groupedLoaded: (state, action: PayloadAction<GroupedChat[]>) => {
      const order = action.payload.map((b) => b.bot_id);
      state.recentBots = [...order, ...state.recentBots.filter((id) => !order.includes(id))];
    },
    /**
     * A new message: its bot moves to the front; a visitor's message in a conversation that is not
     * open marks it (and its bot, unless selected) unread and raises its count.
     */
    messageReceived: (
      state,
      action: PayloadAction<{ conversationId: number; botId: number; fromVisitor: boolean }>,
    ) => {
      const { conversationId, botId, fromVisitor } = action.payload;
      bump(state, botId);
      if (!fromVisitor || isOpen(state, conversationId)) return;
      state.unreadCounts[conversationId] = (state.unreadCounts[conversationId] ?? 0) + 1;
      if (!(state.viewing && state.selectedBotId === botId)) state.unreadBots[botId] = true;
    },
    /** The server's count for one conversation (the `unread` frame). */
    unreadSet: (state, action: PayloadAction<{ conversationId: number; botId: number; count: number }>) => {
      const { conversationId, botId, count } = action.payload;
      if (count <= 0 || isOpen(state, conversationId)) {
        delete state.unreadCounts[conversationId];
        return;
      }
      state.unreadCounts[conversationId] = count;
      if (botId && !(state.viewing && state.selectedBotId === botId)) state.unreadBots[botId] = true;
    },
    /** Selecting a bot clears its unread flag. */
    botSelected: (state, action: PayloadAction<number | null>) => {
      state.selectedBotId = action.payload;
      if (action.payload !== null) delete state.unreadBots[action.payload];
      state.selectedConversationId = null;
    },
    /** Opening a conversation reads it (the screen also tells the server). */
    conversationSelected: (
      state,
      action: PayloadAction<{ conversationId: number | null; botId?: number }>,
    ) => {
      const { conversationId, botId } = action.payload;
      state.selectedConversationId = conversationId;
      if (botId !== undefined) {
        state.selectedBotId = botId;
        delete state.unreadBots[botId];
      }
      if (conversationId !== null) delete state.unreadCounts[conversationId];
    },
    /** Marked read: flag and count back to 0. */
    conversationRead: (state, action: PayloadAction<number>) => {
      delete state.unreadCounts[action.payload];
    },
    /** New Chat: the bot moves to the front and the new conversation is selected. */
    chatStarted: (state, action: PayloadAction<{ conversationId: number; botId: number }>) => {
      const { conversationId, botId } = action.payload;
      bump(state, botId);
      state.selectedBotId = botId;
      state.selectedConversationId = conversationId;
      delete state.unreadBots[botId];
    },
    conversationRemoved: (state, action: PayloadAction<number>) => {
      delete state.unreadCounts[action.payload];
      if (state.selectedConversationId === action.payload) state.selectedConversationId = null;
    },
    viewingSet: (state, action: PayloadAction<boolean>) => {
      state.viewing = action.payload;
      if (action.payload && state.selectedConversationId !== null) {
        delete state.unreadCounts[state.selectedConversationId];
      }
    },
    connectionChanged: (state, action: PayloadAction<ChatSocketStatus>) => {
      state.connection = action.payload;
    },
  },
});

export const {
  unreadLoaded,
  groupedLoaded,
  messageReceived,
  unreadSet,
  botSelected,
  conversationSelected,
  conversationRead,
  chatStarted,
  conversationRemoved,
  viewingSet,
  connectionChanged,
} = inboxSlice.actions;

export type WithInbox = { inbox?: InboxState };

/** The inbox state, or its initial value before the reducer has joined the store. */
export const selectInbox = (state: object): InboxState => (state as WithInbox).inbox ?? initialInboxState;

/** Whether a conversation is unread, and its count. */
export const selectUnreadCount = (state: object, conversationId: number): number =>
  selectInbox(state).unreadCounts[conversationId] ?? 0;

type InjectableStore = {
  getState: () => unknown;
  replaceReducer: (reducer: Reducer) => void;
};

/**
 * The inbox reducer joins the store when the inbox code first loads (it stays out of the entry
 * bundle). `staticReducers` are the store's own, so the root reducer keeps all of them.
 */
export function injectInboxReducer(store: InjectableStore, staticReducers: Record<string, Reducer>): void {
  const state = store.getState() as WithInbox;
  if (state.inbox) return;
  store.replaceReducer(combineReducers({ ...staticReducers, inbox: inboxSlice.reducer }));
}
