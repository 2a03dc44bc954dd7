import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** A success notice shown as a green alert for 10 s (spec section 8, Display). */
export type Notice = { id: number; message: string };

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
  notices: Notice[];
};

const initialState: UiState = {
  navOpen: false,
  customizerOpen: false,
  chatFullScreen: false,
  layoutVersion: 0,
  notificationCount: 0,
  agentOnline: false,
  notices: [],
};

let nextNoticeId = 1;

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
    noticeAdded: {
      reducer: (state, action: PayloadAction<Notice>) => {
        state.notices.push(action.payload);
      },
      prepare: (message: string) => ({ payload: { id: nextNoticeId++, message } }),
    },
    noticeExpired: (state, action: PayloadAction<number>) => {
      state.notices = state.notices.filter((n) => n.id !== action.payload);
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
  noticeAdded,
  noticeExpired,
} = uiSlice.actions;
