import { useLayoutEffect, useState } from 'react';
import { useStore } from 'react-redux';
import { type AppStore, rootReducers } from '../../../app/store';
import { injectInboxReducer, type WithInbox } from '../inbox-slice';

/** Adds the inbox reducer to the store on first use; true once it is there. */
export function useInboxReducer(): boolean {
  const store = useStore() as AppStore;
  const [ready, setReady] = useState(() => Boolean((store.getState() as WithInbox).inbox));
  useLayoutEffect(() => {
    injectInboxReducer(store, rootReducers);
    setReady(true);
  }, [store]);
  return ready;
}
