import type { Action, Subject } from '@parley/contracts';
import { STORAGE_KEYS } from '../shared/lib/storage';

/**
 * What a route needs (spec section 6): `public` pages need nothing, `guest` pages are only for
 * visitors without a session, and every other page needs a session plus a permission, by default
 * read on Home. `{ menu }` means "read the subject of the side-menu entry at this path", looked up
 * in the shared MENU_SUBJECTS by the shell, so menu and guard never disagree.
 */
export type RouteAccess =
  | 'public'
  | 'guest'
  | { action: Exclude<Action, 'manage'>; subject: Subject }
  | { menu: string };

export const DEFAULT_ACCESS: RouteAccess = { action: 'read', subject: 'Home' };

export const HOME_PATH = '/home';
export const LOGIN_PATH = '/login';

/** Pages where a 401 must not bounce the visitor to /login again (spec section 4). */
const LOGIN_OR_SIGNUP = ['/login', '/register', '/signup'];

export function isLoginOrSignupPath(pathname: string): boolean {
  return LOGIN_OR_SIGNUP.includes(trimSlash(pathname));
}

export function isIntegrationsPath(pathname: string): boolean {
  const path = trimSlash(pathname);
  return path === '/integrations' || path.startsWith('/integrations/');
}

export type PlanParams = {
  /** localStorage entries to write. */
  stored: Record<string, string>;
  /** The query string left once the plan parameters are removed ('' or '?...'). */
  search: string;
};

/**
 * Plan selection carried in the URL (spec section 2): `id` with `plan` (frequency), and `addOnId`
 * with `plan` and `quant`, are stored and removed from the URL. Null when there is nothing to do.
 */
export function extractPlanParams(search: string): PlanParams | null {
  const params = new URLSearchParams(search);
  const id = params.get('id');
  const addOnId = params.get('addOnId');
  if (id === null && addOnId === null) return null;
  const plan = params.get('plan');
  const stored: Record<string, string> = {};
  if (id !== null) {
    stored[STORAGE_KEYS.planId] = id;
    if (plan !== null) stored[STORAGE_KEYS.planFrequency] = plan;
    params.delete('id');
  }
  if (addOnId !== null) {
    stored[STORAGE_KEYS.addOnId] = addOnId;
    if (plan !== null) stored[STORAGE_KEYS.addOnPlan] = plan;
    const quant = params.get('quant');
    if (quant !== null) stored[STORAGE_KEYS.addOnQuant] = quant;
    params.delete('addOnId');
    params.delete('quant');
  }
  params.delete('plan');
  const rest = params.toString();
  return { stored, search: rest ? `?${rest}` : '' };
}

export type EntryInput = {
  pathname: string;
  search: string;
  access: RouteAccess;
  /** True when a user is loaded. */
  signedIn: boolean;
  /** True right after a login or signup on this page: the visitor moves on to where they were going. */
  justSignedIn?: boolean;
  /** The path kept under `redirectPath` by an earlier visit to an integrations page. */
  storedRedirect?: string | null;
};

export type EntryDecision =
  | { kind: 'allow' }
  | {
      kind: 'redirect';
      to: string;
      /** Clear local storage first (unauthenticated visit to a private page). */
      clearStorage: boolean;
      /** A path to keep under `redirectPath` and return to after login. */
      storeRedirect?: string;
    };

const allow: EntryDecision = { kind: 'allow' };

/**
 * Where a visitor may go at this URL (spec section 2, startup behaviour).
 * - Right after login or signup: the stored redirect, else the returnUrl, else /home.
 * - A `token` query parameter (an invitation or reset link) means no redirect. On a private page
 *   there is nothing to show without a session, so that case still goes to /login (keeping the URL).
 * - A stored user on a guest-only page goes to /.
 * - A visitor without a session on a private page goes to /login, local storage cleared; with a
 *   returnUrl of the current path unless it is the root. Integrations pages (the Shopify callback
 *   among them) are also stored to return to after login.
 */
export function decideEntry(input: EntryInput): EntryDecision {
  const { pathname, search, access, signedIn } = input;
  const params = new URLSearchParams(search);
  if (access === 'public') return allow;
  if (access === 'guest') {
    if (signedIn && input.justSignedIn) {
      const to = postLoginTarget({
        storedRedirect: input.storedRedirect ?? null,
        returnUrl: params.get('returnUrl'),
      });
      return { kind: 'redirect', to, clearStorage: false };
    }
    return signedIn && !params.has('token') ? { kind: 'redirect', to: '/', clearStorage: false } : allow;
  }
  if (signedIn) return allow;
  const here = `${pathname}${search}`;
  const to = trimSlash(pathname) === '/' ? LOGIN_PATH : `${LOGIN_PATH}?returnUrl=${encodeURIComponent(here)}`;
  return {
    kind: 'redirect',
    to,
    clearStorage: true,
    ...(isIntegrationsPath(pathname) ? { storeRedirect: here } : {}),
  };
}

/** An in-app path we may navigate to: no scheme, no protocol-relative `//host`. */
export function isSafeReturnUrl(url: string | null | undefined): url is string {
  if (!url?.startsWith('/')) return false;
  if (url.startsWith('//') || url.startsWith('/\\')) return false;
  return !isLoginOrSignupPath(url.split(/[?#]/)[0] ?? '');
}

/**
 * Where to go once signed in: the stored redirect (integrations), else the returnUrl unless it is
 * the root, else /home (spec section 2).
 */
export function postLoginTarget(input: { storedRedirect: string | null; returnUrl: string | null }): string {
  if (isSafeReturnUrl(input.storedRedirect)) return input.storedRedirect;
  if (isSafeReturnUrl(input.returnUrl) && input.returnUrl !== '/') return input.returnUrl;
  return HOME_PATH;
}

function trimSlash(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}
