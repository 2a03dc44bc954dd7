import type { AuthResponse, User } from '@parley/contracts';
import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { readAccessToken, readStoredUser } from '../../shared/lib/session-storage';

/**
 * `loading`: a token is stored and the user is being fetched (a spinner shows).
 * `loggingOut`: the 300 ms between the logout toast and /login, during which guards hold still.
 */
export type SessionStatus = 'loading' | 'authenticated' | 'anonymous' | 'loggingOut';

export type SessionState = {
  status: SessionStatus;
  user: User | null;
  /** Bumped whenever a new access token is stored, so the renewal timer re-arms. */
  tokenVersion: number;
  /** Set by a login or signup until the visitor has been sent on from the guest page. */
  justSignedIn: boolean;
};

function initialSession(): SessionState {
  const hasToken = Boolean(readAccessToken());
  return {
    status: hasToken ? 'loading' : 'anonymous',
    user: hasToken ? readStoredUser() : null,
    tokenVersion: 0,
    justSignedIn: false,
  };
}

export const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSession,
  reducers: {
    signedIn: (state, action: PayloadAction<AuthResponse>) => {
      state.status = 'authenticated';
      state.user = action.payload.user;
      state.tokenVersion += 1;
      state.justSignedIn = true;
    },
    landed: (state) => {
      state.justSignedIn = false;
    },
    tokenRefreshed: (state, action: PayloadAction<AuthResponse>) => {
      state.user = action.payload.user;
      state.tokenVersion += 1;
      if (state.status === 'loading') state.status = 'authenticated';
    },
    /** Another tab renewed the shared token; only the timer needs to know. */
    tokenAdopted: (state) => {
      state.tokenVersion += 1;
    },
    userLoaded: (state, action: PayloadAction<User>) => {
      state.user = action.payload;
      if (state.status === 'loading') state.status = 'authenticated';
    },
    /** GET /auth/user failed without ending the session (server down): carry on with the stored user. */
    userLoadFailed: (state) => {
      if (state.status !== 'loading') return;
      state.status = state.user ? 'authenticated' : 'anonymous';
    },
    loggingOut: (state) => {
      state.status = 'loggingOut';
      state.user = null;
    },
    sessionEnded: (state) => {
      state.status = 'anonymous';
      state.user = null;
      state.justSignedIn = false;
    },
  },
});

export const {
  signedIn,
  landed,
  tokenRefreshed,
  tokenAdopted,
  userLoaded,
  userLoadFailed,
  loggingOut,
  sessionEnded,
} = sessionSlice.actions;
