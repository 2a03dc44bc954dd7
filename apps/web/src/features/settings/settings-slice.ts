import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { browserStore, STORAGE_KEYS } from '../../shared/lib/storage';
import { DEFAULT_SETTINGS, restoreSettings, type Settings } from './settings-model';

function initialSettings(): Settings {
  return restoreSettings(browserStore().getItem(STORAGE_KEYS.settings));
}

export const settingsSlice = createSlice({
  name: 'settings',
  initialState: initialSettings,
  reducers: {
    settingsChanged: (state, action: PayloadAction<Partial<Settings>>) => ({ ...state, ...action.payload }),
    settingsReset: () => DEFAULT_SETTINGS,
  },
});

export const { settingsChanged, settingsReset } = settingsSlice.actions;
