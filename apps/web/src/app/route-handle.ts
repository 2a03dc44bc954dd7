import { useMatches } from 'react-router';
import { DEFAULT_ACCESS, type RouteAccess } from './startup-rules';

/** What each route declares: its access rule (default read Home) and its screen name. */
export type RouteHandle = { access?: RouteAccess; title?: string };

function handleOf(match: { handle: unknown }): RouteHandle | undefined {
  return match.handle && typeof match.handle === 'object' ? (match.handle as RouteHandle) : undefined;
}

/** The rule of the deepest matched route that declares one. */
export function useRouteAccess(): RouteAccess {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const access = handleOf(matches[i]!)?.access;
    if (access) return access;
  }
  return DEFAULT_ACCESS;
}

export function useRouteTitle(): string | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const title = handleOf(matches[i]!)?.title;
    if (title) return title;
  }
  return undefined;
}
