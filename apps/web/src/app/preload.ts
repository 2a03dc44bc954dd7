import type { User } from '@parley/contracts';
import type { AppDispatch } from './store';

/** What a page's preload gets: the store's dispatch, the signed-in (or stored) user and the address. */
export type PreloadContext = { dispatch: AppDispatch; user: User; url: URL };

/**
 * A page module may export `preload`: it starts the page's data requests (RTK Query prefetches) when
 * its route matches, so they run while the shell renders rather than after the page has rendered
 * (issue 36). It must ask with the arguments the page's hooks will use, or the page asks again.
 */
export type PagePreload = (context: PreloadContext) => void;
