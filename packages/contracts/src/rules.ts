/** Actions and subjects of permissions; the subjects are feature names (permissions.ts). */
export type Subject = string;
export type Action = 'create' | 'read' | 'write' | 'manage';

/**
 * What a route needs. `public`: no login. `authenticated`: any signed-in user (the handler may still
 * narrow it, for example to the user's own profile). Otherwise an action on a subject.
 */
export type RouteRule =
  | { readonly public: true }
  | { readonly authenticated: true }
  | { readonly subject: Subject; readonly action: Exclude<Action, 'manage'> };

export const open = { public: true } as const;
export const signedIn = { authenticated: true } as const;
export const need = (subject: Subject, action: Exclude<Action, 'manage'>) => ({ subject, action }) as const;

/** Knowledge (files, websites, Notion, Q&A) is part of building bots: the Manage Bots subject. */
export const BOTS_SUBJECT = 'Create Bot';
