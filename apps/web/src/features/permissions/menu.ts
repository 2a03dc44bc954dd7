import { type AppAbility, MENU_SUBJECTS, type Subject } from '@parley/contracts';
import type { RouteAccess } from '../../app/startup-rules';

export type MenuEntry = {
  readonly path: string;
  readonly label: string;
  readonly subject: Subject;
  readonly external?: boolean;
};

/** Admin users also get these (spec section 2); the shared map grants read 'Admin' to them. */
export const ADMIN_MENU: readonly MenuEntry[] = [
  { path: '/admin', label: 'Admin Dashboard', subject: 'Admin' },
  { path: '/capability', label: 'Capability Demos', subject: 'Admin' },
];

/** Partner users get only this entry; the shared map grants them read 'Partner' and nothing else. */
export const PARTNER_MENU: readonly MenuEntry[] = [
  { path: '/partner', label: 'Partner', subject: 'Partner' },
];

/** The horizontal layout lists Home and Access Control before the side-menu entries. */
export const HORIZONTAL_EXTRAS: readonly MenuEntry[] = [
  { path: '/home', label: 'Home', subject: 'Home' },
  { path: '/acl', label: 'Access Control', subject: 'Home' },
];

/**
 * Channel screens opened from Integrations, not from the side menu (whose entries the spec fixes):
 * their routes need read on the subject of the bots they serve.
 */
export const CHANNEL_ROUTES: readonly MenuEntry[] = [
  { path: '/whatsapp', label: 'WhatsApp', subject: 'Create Bot' },
];

/** The side menu: each entry shown only when the user can read its subject (spec section 6). */
export function sideMenuFor(ability: AppAbility): MenuEntry[] {
  return [...MENU_SUBJECTS, ...ADMIN_MENU, ...PARTNER_MENU].filter((entry) =>
    ability.can('read', entry.subject),
  );
}

export function horizontalMenuFor(ability: AppAbility): MenuEntry[] {
  return [...HORIZONTAL_EXTRAS.filter((e) => ability.can('read', e.subject)), ...sideMenuFor(ability)];
}

/** The subject a side-menu route needs read on, from the same map the menu is built from. */
export function menuSubject(path: string): Subject | null {
  return (
    [...MENU_SUBJECTS, ...CHANNEL_ROUTES, ...ADMIN_MENU, ...PARTNER_MENU].find((e) => e.path === path)
      ?.subject ?? null
  );
}

/** Whether the ability satisfies a route's rule. An unknown menu path grants nothing. */
export function canAccess(ability: AppAbility, access: RouteAccess): boolean {
  if (access === 'public' || access === 'guest') return true;
  if ('menu' in access) {
    const subject = menuSubject(access.menu);
    return subject !== null && ability.can('read', subject);
  }
  return ability.can(access.action, access.subject);
}
