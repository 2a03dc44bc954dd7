import { describe, expect, it } from 'vitest';
import { agentOnlineSet, notificationsAdded, notificationsReset, uiSlice } from './ui-slice';

describe('ui slice: the bell and the agent indicator', () => {
  it('adds to the notification count and resets it when the bell is opened', () => {
    let state = uiSlice.reducer(undefined, notificationsAdded());
    state = uiSlice.reducer(state, notificationsAdded(2));
    expect(state.notificationCount).toBe(3);
    expect(uiSlice.reducer(state, notificationsReset()).notificationCount).toBe(0);
  });

  it('records whether a help-desk agent is online', () => {
    const state = uiSlice.reducer(undefined, agentOnlineSet(true));
    expect(state.agentOnline).toBe(true);
    expect(uiSlice.reducer(state, agentOnlineSet(false)).agentOnline).toBe(false);
  });
});
