import { configureStore } from '@reduxjs/toolkit';
import { describe, expect, it } from 'vitest';
import {
  botSelected,
  chatStarted,
  conversationRead,
  conversationRemoved,
  conversationSelected,
  groupedLoaded,
  type InboxState,
  inboxSlice,
  initialInboxState,
  injectInboxReducer,
  messageReceived,
  missedWhileAway,
  selectInbox,
  selectUnreadCount,
  unreadLoaded,
  unreadSet,
  viewingSet,
} from './inbox-slice';

const reduce = (actions: Parameters<typeof inboxSlice.reducer>[1][], state: InboxState = initialInboxState) =>
  actions.reduce(inboxSlice.reducer, state);

const visitor = (conversationId: number, botId = 1) =>
  messageReceived({ conversationId, botId, fromVisitor: true });

describe('inbox slice: unread handling (console.md section 4)', () => {
  it('a visitor message in a conversation that is not selected marks it and its bot unread and counts', () => {
    const state = reduce([visitor(7), visitor(7), visitor(8, 2)]);
    expect(state.unreadCounts).toEqual({ 7: 2, 8: 1 });
    expect(state.unreadBots).toEqual({ 1: true, 2: true });
    expect(selectUnreadCount({ inbox: state }, 7)).toBe(2);
    expect(selectUnreadCount({}, 7)).toBe(0);
  });

  it('moves the bot of a new message to the front of the recent list', () => {
    const state = reduce([groupedLoaded([bot(1), bot(2), bot(3)]), visitor(9, 3)]);
    expect(state.recentBots).toEqual([3, 1, 2]);
  });

  it('answers and agent replies move the bot but count nothing', () => {
    const state = reduce([messageReceived({ conversationId: 7, botId: 4, fromVisitor: false })]);
    expect(state.unreadCounts).toEqual({});
    expect(state.recentBots).toEqual([4]);
  });

  it('a message in the conversation open on screen is read at once', () => {
    const state = reduce([
      viewingSet(true),
      conversationSelected({ conversationId: 7, botId: 1 }),
      visitor(7),
      visitor(8),
    ]);
    expect(state.unreadCounts).toEqual({ 8: 1 });
    // The bot is on view: its conversation list shows the count, no bot flag.
    expect(state.unreadBots).toEqual({});
  });

  it('a selected conversation is not "open" while the inbox screen is not on view', () => {
    const state = reduce([
      conversationSelected({ conversationId: 7, botId: 1 }),
      viewingSet(false),
      visitor(7),
    ]);
    expect(state.unreadCounts).toEqual({ 7: 1 });
    expect(reduce([viewingSet(true)], state).unreadCounts).toEqual({});
  });

  it('selecting a bot clears its flag only', () => {
    const state = reduce([visitor(7, 1), visitor(8, 2), botSelected(1)]);
    expect(state.unreadBots).toEqual({ 2: true });
    expect(state.selectedBotId).toBe(1);
    expect(state.unreadCounts).toEqual({ 7: 1, 8: 1 });
  });

  it('opening or marking a conversation read resets its flag and count to 0', () => {
    let state = reduce([visitor(7), visitor(7), visitor(8)]);
    state = reduce([conversationSelected({ conversationId: 7 })], state);
    expect(state.unreadCounts).toEqual({ 8: 1 });
    state = reduce([conversationRead(8)], state);
    expect(state.unreadCounts).toEqual({});
  });

  it('takes the server counts as they come, except for the open conversation', () => {
    let state = reduce([unreadSet({ conversationId: 7, botId: 1, count: 4 })]);
    expect(state.unreadCounts).toEqual({ 7: 4 });
    expect(state.unreadBots).toEqual({ 1: true });
    state = reduce([unreadSet({ conversationId: 7, botId: 1, count: 0 })], state);
    expect(state.unreadCounts).toEqual({});
    state = reduce(
      [
        viewingSet(true),
        conversationSelected({ conversationId: 9 }),
        unreadSet({ conversationId: 9, botId: 1, count: 2 }),
      ],
      state,
    );
    expect(state.unreadCounts).toEqual({});
  });

  it('loads the unread state of the server', () => {
    const state = reduce([
      unreadLoaded({
        conversations: [
          { conversation_id: 7, bot_id: 1, unread_count: 3 },
          { conversation_id: 8, bot_id: 2, unread_count: 0 },
        ],
        bots: [
          { bot_id: 1, unread: true, unread_count: 3 },
          { bot_id: 2, unread: false, unread_count: 0 },
        ],
        total: 3,
      }),
    ]);
    expect(state.unreadCounts).toEqual({ 7: 3 });
    expect(state.unreadBots).toEqual({ 1: true });
  });

  it('New Chat puts the bot in front and selects the new conversation', () => {
    const state = reduce([
      groupedLoaded([bot(1), bot(2)]),
      visitor(5, 2),
      chatStarted({ conversationId: 11, botId: 2 }),
    ]);
    expect(state.recentBots).toEqual([2, 1]);
    expect(state.selectedBotId).toBe(2);
    expect(state.selectedConversationId).toBe(11);
    expect(state.unreadBots).toEqual({});
  });

  it('keeps bots the grouped list leaves out after the listed ones', () => {
    const state = reduce([visitor(1, 9), groupedLoaded([bot(2), bot(1)])]);
    expect(state.recentBots).toEqual([2, 1, 9]);
  });

  it('a deleted conversation loses its count and its selection', () => {
    const state = reduce([
      visitor(7),
      conversationSelected({ conversationId: 8 }),
      conversationRemoved(7),
      conversationRemoved(8),
    ]);
    expect(state.unreadCounts).toEqual({});
    expect(state.selectedConversationId).toBeNull();
  });
});

describe('injectInboxReducer', () => {
  it('adds the inbox to a store once, keeping the other reducers', () => {
    const ui = (state = { count: 1 }) => state;
    const store = configureStore({ reducer: { ui } });
    expect(selectInbox(store.getState())).toBe(initialInboxState);
    injectInboxReducer(store, { ui });
    store.dispatch(visitor(3));
    expect(selectInbox(store.getState()).unreadCounts).toEqual({ 3: 1 });
    expect((store.getState() as { ui: unknown }).ui).toEqual({ count: 1 });
    injectInboxReducer(store, { ui });
    expect(selectInbox(store.getState()).unreadCounts).toEqual({ 3: 1 });
  });
});

function bot(id: number) {
  return { bot_id: id, bot_name: `Bot ${id}`, unread: false, conversations: [] };
}

describe('missedWhileAway: what the bell adds after the admin channel comes back', () => {
  const server = (counts: Record<number, number>) => ({
    conversations: Object.entries(counts).map(([id, n]) => ({
      conversation_id: Number(id),
      bot_id: 1,
      unread_count: n,
    })),
    bots: [],
    total: Object.values(counts).reduce((a, b) => a + b, 0),
  });

  it('counts only the unread messages no frame announced, never an open conversation', () => {
    // Counted live: two in 7, one in 8. The server now has 4 in 7, 1 in 8, 2 in 9 (new), 3 in 5 (open).
    const state = reduce([
      visitor(7),
      visitor(7),
      visitor(8),
      viewingSet(true),
      conversationSelected({ conversationId: 5, botId: 1 }),
    ]);
    expect(missedWhileAway(state, server({ 7: 4, 8: 1, 9: 2, 5: 3 }))).toBe(4);
  });

  it('is 0 when the server counts fewer (read elsewhere meanwhile)', () => {
    const state = reduce([visitor(7), visitor(7), visitor(7)]);
    expect(missedWhileAway(state, server({ 7: 1 }))).toBe(0);
  });
});
