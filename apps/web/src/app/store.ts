import { configureStore } from '@reduxjs/toolkit';
import { type TypedUseSelectorHook, useDispatch, useSelector } from 'react-redux';
import { sessionSlice } from '../features/auth/session-slice';
import { type Settings, toPersisted } from '../features/settings/settings-model';
import { settingsSlice } from '../features/settings/settings-slice';
import { api } from '../shared/api/base-api';
import { browserStore, STORAGE_KEYS } from '../shared/lib/storage';
import { uiSlice } from './ui-slice';

/** The reducers every page has; lazily loaded features (the inbox) add theirs beside these. */
export const rootReducers = {
  [api.reducerPath]: api.reducer,
  session: sessionSlice.reducer,
  settings: settingsSlice.reducer,
  ui: uiSlice.reducer,
};

export function makeStore() {
  const store = configureStore({
    reducer: rootReducers,
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
  persistSettings(store);
  return store;
}

/** Writes the persisted part of the settings whenever they change (spec section 2 storage rule). */
function persistSettings(store: {
  getState: () => { settings: Settings };
  subscribe: (fn: () => void) => void;
}) {
  let last = store.getState().settings;
  store.subscribe(() => {
    const next = store.getState().settings;
    if (next === last) return;
    last = next;
    browserStore().setItem(STORAGE_KEYS.settings, JSON.stringify(toPersisted(next)));
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type RootState = ReturnType<AppStore['getState']>;
export type AppDispatch = AppStore['dispatch'];

export const useAppDispatch: () => AppDispatch = useDispatch;
export const useAppSelector: TypedUseSelectorHook<RootState> = useSelector;
