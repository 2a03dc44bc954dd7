import { MESSAGES, type Role } from '@parley/contracts';
import { forbidden } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';

type Flags = { can_create: boolean; can_read: boolean; can_write: boolean };
type FeatureRef = { id: number; name: string };
const ACTIONS = ['can_create', 'can_read', 'can_write'] as const;
const ABILITY_ACTION = { can_create: 'create', can_read: 'read', can_write: 'write' } as const;

export const callerIsOwner = (auth: AuthContext): boolean => auth.user.roles.some((role) => role.is_owner);

/**
 * Nobody hands out more than they hold: a role may be given (by invitation or assignment) only by
 * someone whose own roles hold each of its grants, and the Owner role only by an owner. Compared on the
 * raw grants (feature id × action), archived ones included, so restoring a feature later cannot turn a
 * harmless-looking role into a stronger one than its granter had; what everyone may do (read Home) or
 * what a grant implies (User Role reads Roles) counts as held too.
 */
export function assertMayGiveRole(auth: AuthContext, role: Role): void {
  if (callerIsOwner(auth)) return;
  if (role.is_owner) throw forbidden(MESSAGES.roles.ownerOnlyByOwner);
  for (const grant of role.feature_permissions) {
    assertHolds(auth, { id: grant.feature_permission_id, name: grant.feature_permission.name }, grant);
  }
}

/** Only the flags a change turns on need to be held; keeping or removing a grant gives nothing. */
export function assertMayAddFlags(
  auth: AuthContext,
  feature: FeatureRef,
  before: Flags | undefined,
  after: Flags,
): void {
  if (callerIsOwner(auth)) return;
  const added = Object.fromEntries(ACTIONS.map((action) => [action, after[action] && !before?.[action]]));
  assertHolds(auth, feature, added as Flags);
}

function assertHolds(auth: AuthContext, feature: FeatureRef, wanted: Flags): void {
  const held = heldFlags(auth, feature.id);
  const lacks = (action: (typeof ACTIONS)[number]) =>
    !held[action] && !auth.ability.can(ABILITY_ACTION[action], feature.name);
  if (ACTIONS.some((action) => wanted[action] && lacks(action))) {
    throw forbidden(MESSAGES.roles.grantBeyondOwn);
  }
}

/** The caller's grants on one feature, added up over all their roles. */
function heldFlags(auth: AuthContext, featureId: number): Flags {
  const held: Flags = { can_create: false, can_read: false, can_write: false };
  for (const role of auth.user.roles) {
    for (const grant of role.feature_permissions) {
      if (grant.feature_permission_id !== featureId) continue;
      for (const action of ACTIONS) held[action] ||= grant[action];
    }
  }
  return held;
}
