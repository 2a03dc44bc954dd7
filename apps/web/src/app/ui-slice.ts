import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export type UiState = {
  /** The navigation drawer below the lg breakpoint. */
  navOpen: boolean;
  customizerOpen: boolean;
  /** Full-screen chat mode hides the top bar and the menu (spec section 2). */
  chatFullScreen: boolean;
  /** Bumped by the layout-refresh event so the shell re-measures. */
  layoutVersion: number;
  notificationCount: number;
  agentOnline: boolean;
};

const initialState: UiState = {
  navOpen: false,
  customizerOpen: false,
  chatFullScreen: false,
  layoutVersion: 0,
  notificationCount: 0,
  agentOnline: false,
};

export const uiSlice = createSlice({
  name: 'ui',
  initialState,
  reducers: {
    navOpened: (state, action: PayloadAction<boolean>) => {
      state.navOpen = action.payload;
    },
    customizerOpened: (state, action: PayloadAction<boolean>) => {
      state.customizerOpen = action.payload;
    },
    chatFullScreenSet: (state, action: PayloadAction<boolean>) => {
      state.chatFullScreen = action.payload;
    },
    layoutRefreshed: (state) => {
      state.layoutVersion += 1;
    },
    notificationsReset: (state) => {
      state.notificationCount = 0;
    },
    /** A new message, warning or confirmation (spec sections 4 and 8). */
    notificationsAdded: (state, action: PayloadAction<number | undefined>) => {
      state.notificationCount += action.payload ?? 1;
    },
    agentOnlineSet: (state, action: PayloadAction<boolean>) => {
      state.agentOnline = action.payload;
    },
  },
});

export const {
  navOpened,
  customizerOpened,
  chatFullScreenSet,
  layoutRefreshed,
  notificationsReset,
  notificationsAdded,
  agentOnlineSet,
} = uiSlice.actions;
