import { describe, expect, it } from 'vitest';
import {
  type AbilityUser,
  defineAbilityFor,
  MENU_SUBJECTS,
  ROUTE_RULES,
  SEEDED_FEATURES,
} from './permissions.js';

type Flags = { create?: boolean; read?: boolean; write?: boolean; archived?: boolean };

/** A user of the given type holding one role with these grants (feature name → flags). */
function userWith(grants: Record<string, Flags>, userType = 'user', isOwner = false): AbilityUser {
  return {
    user_type: userType,
    roles: [
      {
        is_owner: isOwner,
        feature_permissions: Object.entries(grants).map(([name, flags]) => ({
          can_create: flags.create ?? false,
          can_read: flags.read ?? false,
          can_write: flags.write ?? false,
          feature_permission: { name, is_archived: flags.archived ?? false },
        })),
      },
    ],
  };
}

const everything = Object.fromEntries(
  SEEDED_FEATURES.map((name) => [name, { create: true, read: true, write: true }]),
);

describe('defineAbilityFor', () => {
  it('lets everyone read Home, and nothing else, without grants', () => {
    const ability = defineAbilityFor({ user_type: 'user', roles: [] });
    expect(ability.can('read', 'Home')).toBe(true);
    expect(ability.can('create', 'Home')).toBe(false);
    expect(ability.can('write', 'Home')).toBe(false);
    for (const name of SEEDED_FEATURES.filter((n) => n !== 'Home')) {
      expect(ability.can('read', name), name).toBe(false);
    }
    expect(ability.can('read', 'Admin')).toBe(false);
    expect(ability.can('read', 'Partner')).toBe(false);
  });

  it('grants exactly the flags of each feature permission', () => {
    const ability = defineAbilityFor(
      userWith({ Roles: { read: true }, Inbox: { create: true, write: true } }),
    );
    expect(ability.can('read', 'Roles')).toBe(true);
    expect(ability.can('create', 'Roles')).toBe(false);
    expect(ability.can('write', 'Roles')).toBe(false);
    expect(ability.can('read', 'Inbox')).toBe(false);
    expect(ability.can('create', 'Inbox')).toBe(true);
    expect(ability.can('write', 'Inbox')).toBe(true);
    expect(ability.can('read', 'Analytics')).toBe(false);
  });

  it('adds up the grants of several roles', () => {
    const ability = defineAbilityFor({
      user_type: 'user',
      roles: [userWith({ Roles: { read: true } }).roles[0]!, userWith({ Roles: { write: true } }).roles[0]!],
    });
    expect(ability.can('read', 'Roles')).toBe(true);
    expect(ability.can('write', 'Roles')).toBe(true);
    expect(ability.can('create', 'Roles')).toBe(false);
  });

  it('lets a feature named User Role read Roles and Permissions, but only when read is granted', () => {
    const reader = defineAbilityFor(userWith({ 'User Role': { read: true } }));
    expect(reader.can('read', 'User Role')).toBe(true);
    expect(reader.can('read', 'Roles')).toBe(true);
    expect(reader.can('read', 'Permissions')).toBe(true);
    expect(reader.can('write', 'Roles')).toBe(false);
    expect(reader.can('create', 'Roles')).toBe(false);

    const writerOnly = defineAbilityFor(userWith({ 'User Role': { create: true, write: true } }));
    expect(writerOnly.can('read', 'Roles')).toBe(false);
    expect(writerOnly.can('read', 'Permissions')).toBe(false);
  });

  it('grants nothing through an archived feature', () => {
    const ability = defineAbilityFor(
      userWith({
        Roles: { create: true, read: true, write: true, archived: true },
        'User Role': { read: true, archived: true },
        Inbox: { read: true },
      }),
    );
    expect(ability.can('read', 'Roles')).toBe(false);
    expect(ability.can('create', 'Roles')).toBe(false);
    expect(ability.can('write', 'Roles')).toBe(false);
    expect(ability.can('read', 'Permissions')).toBe(false);
    expect(ability.can('read', 'User Role')).toBe(false);
    expect(ability.can('read', 'Inbox')).toBe(true);
    expect(ability.can('read', 'Home')).toBe(true);
  });

  it('gives a partner only Partner (and Home), whatever the roles hold', () => {
    const ability = defineAbilityFor(userWith(everything, 'partner', true));
    expect(ability.can('read', 'Partner')).toBe(true);
    expect(ability.can('read', 'Home')).toBe(true);
    for (const name of SEEDED_FEATURES.filter((n) => n !== 'Home')) {
      for (const action of ['create', 'read', 'write'] as const) {
        expect(ability.can(action, name), `${action} ${name}`).toBe(false);
      }
    }
    expect(ability.can('read', 'Admin')).toBe(false);
  });

  it('lets an admin read Admin on top of the grants of their roles', () => {
    const ability = defineAbilityFor(userWith({ Inbox: { read: true } }, 'admin'));
    expect(ability.can('read', 'Admin')).toBe(true);
    expect(ability.can('read', 'Inbox')).toBe(true);
    expect(ability.can('read', 'Roles')).toBe(false);
    expect(ability.can('read', 'Partner')).toBe(false);
    expect(defineAbilityFor(userWith({}, 'user')).can('read', 'Admin')).toBe(false);
  });

  it('reads user_type regardless of case', () => {
    expect(defineAbilityFor({ user_type: 'ADMIN', roles: [] }).can('read', 'Admin')).toBe(true);
    expect(defineAbilityFor(userWith(everything, 'Partner')).can('read', 'Roles')).toBe(false);
  });

  it('lets an owner holding every feature use every guarded route', () => {
    const ability = defineAbilityFor(userWith(everything, 'user', true));
    for (const [key, rule] of Object.entries(ROUTE_RULES)) {
      // Platform-admin and partner routes follow user_type, whatever a workspace grants.
      if ('subject' in rule && rule.subject !== 'Admin' && rule.subject !== 'Partner')
        expect(ability.can(rule.action, rule.subject), key).toBe(true);
    }
  });

  it('lets a platform admin read and change what the admin console manages, and nobody else', () => {
    const adminRoutes = Object.entries(ROUTE_RULES).filter(
      ([, rule]) => 'subject' in rule && rule.subject === 'Admin',
    );
    expect(adminRoutes.length).toBeGreaterThan(0);
    const admin = defineAbilityFor(userWith({}, 'admin'));
    const owner = defineAbilityFor(userWith(everything, 'user', true));
    for (const [key, rule] of adminRoutes) {
      if (!('subject' in rule)) continue;
      expect(admin.can(rule.action, rule.subject), key).toBe(true);
      expect(owner.can(rule.action, rule.subject), key).toBe(false);
    }
  });
});

describe('ROUTE_RULES', () => {
  it('names only seeded features as subjects, with create, read or write', () => {
    for (const [key, rule] of Object.entries(ROUTE_RULES)) {
      expect(key, key).toMatch(/^(GET|POST|PUT|PATCH|DELETE) \/\S*$/);
      if ('subject' in rule) {
        // 'Admin' and 'Partner' are derived from user_type, not granted by a feature (RESERVED_SUBJECTS).
        expect([...SEEDED_FEATURES, 'Admin', 'Partner'] as readonly string[], key).toContain(rule.subject);
        expect(['create', 'read', 'write'], key).toContain(rule.action);
      }
    }
  });

  it('guards every menu entry with a seeded feature', () => {
    for (const entry of MENU_SUBJECTS) expect(SEEDED_FEATURES as readonly string[]).toContain(entry.subject);
  });
});

describe('reserved subjects', () => {
  it('ignores grants on features named like a derived or wildcard subject', () => {
    const grant = (name: string) => ({
      can_create: true,
      can_read: true,
      can_write: true,
      feature_permission: { name, is_archived: false },
    });
    const ability = defineAbilityFor({
      user_type: 'user',
      roles: [
        { is_owner: true, feature_permissions: ['all', 'ADMIN', 'Partner', 'permissions '].map(grant) },
      ],
    });
    expect(ability.can('read', 'Admin')).toBe(false);
    expect(ability.can('read', 'Partner')).toBe(false);
    expect(ability.can('read', 'Permissions')).toBe(false);
    expect(ability.can('write', 'Roles')).toBe(false);
  });
});
