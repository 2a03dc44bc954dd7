import { type AbilityUser, SEEDED_FEATURES } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { abilityFor } from './ability';
import { canAccess, horizontalMenuFor, sideMenuFor } from './menu';

type Grant = [name: string, create: boolean, read: boolean, write: boolean];

function userWith(userType: string, grants: Grant[]) {
  const role = {
    is_owner: false,
    feature_permissions: grants.map(([name, c, r, w]) => ({
      can_create: c,
      can_read: r,
      can_write: w,
      feature_permission: { name, is_archived: false },
    })),
  };
  return { user_type: userType, roles: [role] } satisfies AbilityUser;
}

// abilityFor takes a full User; the ability only reads user_type and roles.
const ability = (u: AbilityUser) => abilityFor(u as never);
const labels = (u: AbilityUser) => sideMenuFor(ability(u)).map((e) => e.label);
const everything: Grant[] = SEEDED_FEATURES.map((name) => [name, true, true, true]);

describe('side menu from abilities', () => {
  it('shows every entry to an owner, API Documentation last', () => {
    expect(labels(userWith('user', everything))).toEqual([
      'Manage Bots',
      'Integrations',
      'Support Inbox',
      'Leads',
      'Analytics',
      'Profile',
      'Users',
      'Subscriptions',
      'Upgrade',
      'API Documentation',
    ]);
  });

  it('hides entries whose subject the role cannot read', () => {
    const menu = labels(
      userWith('user', [
        ['Inbox', false, true, false],
        ['Analytics', true, false, true],
      ]),
    );
    expect(menu).toEqual(['Support Inbox']);
  });

  it('shows Users when the role has User Role', () => {
    expect(labels(userWith('user', [['User Role', false, true, false]]))).toEqual(['Users']);
  });

  it('adds Admin Dashboard and Capability Demos for admins', () => {
    expect(labels(userWith('Admin', [['Inbox', false, true, false]]))).toEqual([
      'Support Inbox',
      'Admin Dashboard',
      'Capability Demos',
    ]);
  });

  it('shows partners only the Partner entry', () => {
    expect(labels(userWith('partner', everything))).toEqual(['Partner']);
  });

  it('keeps the workspace of a member who is also a partner (issue 31)', () => {
    const member = { ...userWith('user', [['Inbox', false, true, false]]), is_partner: true };
    expect(labels(member)).toEqual(['Support Inbox', 'Partner']);
  });

  it('gives an agent the inbox and leads, and no settings or integrations', () => {
    const agent = userWith('user', [
      ['Home', false, true, false],
      ['Profile', false, true, false],
      ['Inbox', true, true, true],
      ['Leads', false, true, false],
    ]);
    expect(labels(agent)).toEqual(['Support Inbox', 'Leads', 'Profile']);
    expect(canAccess(ability(agent), { menu: '/integrations' })).toBe(false);
    expect(canAccess(ability(agent), { menu: '/leads' })).toBe(true);
  });

  it('lists Home and Access Control first in the horizontal layout', () => {
    const menu = horizontalMenuFor(ability(userWith('user', [['Inbox', false, true, false]]))).map(
      (e) => e.path,
    );
    expect(menu).toEqual(['/home', '/acl', '/inbox']);
  });
});

describe('canAccess', () => {
  const limited = ability(userWith('user', [['Inbox', false, true, false]]));

  it('checks a menu route against its entry subject', () => {
    expect(canAccess(limited, { menu: '/inbox' })).toBe(true);
    expect(canAccess(limited, { menu: '/analytics' })).toBe(false);
    expect(canAccess(limited, { menu: '/nowhere' })).toBe(false);
  });

  it('lets everyone read Home, and nobody without a session', () => {
    expect(canAccess(limited, { action: 'read', subject: 'Home' })).toBe(true);
    expect(canAccess(abilityFor(null), { action: 'read', subject: 'Home' })).toBe(false);
  });
});
