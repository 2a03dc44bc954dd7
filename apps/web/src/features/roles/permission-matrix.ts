import type { Feature, PermissionGrant, Role } from '@parley/contracts';

export const PERMISSION_FLAGS = ['can_create', 'can_read', 'can_write'] as const;
export type PermissionFlag = (typeof PERMISSION_FLAGS)[number];
export type Flags = Record<PermissionFlag, boolean>;
/** Feature id to the role's flags on it. */
export type Matrix = Record<number, Flags>;

const NONE: Flags = { can_create: false, can_read: false, can_write: false };

/** The role's current grants, with every feature present (unset ones all false). */
export function matrixFromRole(role: Role, features: readonly Feature[]): Matrix {
  const matrix: Matrix = {};
  for (const feature of features) matrix[feature.id] = { ...NONE };
  for (const grant of role.feature_permissions) {
    matrix[grant.feature_permission_id] = {
      can_create: grant.can_create,
      can_read: grant.can_read,
      can_write: grant.can_write,
    };
  }
  return matrix;
}

export function toggleFlag(matrix: Matrix, featureId: number, flag: PermissionFlag): Matrix {
  const current = matrix[featureId] ?? NONE;
  return { ...matrix, [featureId]: { ...current, [flag]: !current[flag] } };
}

/**
 * The body of POST /role/assign-feature-permissions: every feature with its flags, so a cleared box
 * is sent as false rather than left out.
 */
export function grantsFromMatrix(matrix: Matrix, features: readonly Feature[]): PermissionGrant[] {
  return features.map((feature) => ({ feature_permission_id: feature.id, ...(matrix[feature.id] ?? NONE) }));
}

export function sameMatrix(a: Matrix, b: Matrix): boolean {
  const ids = new Set([...Object.keys(a), ...Object.keys(b)].map(Number));
  for (const id of ids) {
    const x = a[id] ?? NONE;
    const y = b[id] ?? NONE;
    if (PERMISSION_FLAGS.some((flag) => x[flag] !== y[flag])) return false;
  }
  return true;
}
