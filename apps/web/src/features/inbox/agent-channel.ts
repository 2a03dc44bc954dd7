import { type AppStore, rootReducers } from '../../app/store';
import { startInboxConnection } from './connection';
import { injectInboxReducer } from './inbox-slice';

/**
 * Opens the admin channel for an agent on whatever page they are: the bell counts and presence say
 * online from sign-in, not only after a first visit to /inbox. Loaded on demand by the shell, so none
 * of it is in the first bundle.
 */
export function startAgentChannel(store: AppStore, user: { id: number; tenant_id: number }): () => void {
  injectInboxReducer(store, rootReducers);
  return startInboxConnection(store, user);
}
