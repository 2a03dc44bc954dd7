import type { Feature, Role } from '@parley/contracts';
import { describe, expect, it } from 'vitest';
import { grantsFromMatrix, matrixFromRole, sameMatrix, toggleFlag } from './permission-matrix';

const feature = (id: number, name: string): Feature => ({
  id,
  name,
  description: null,
  tenant_id: null,
  is_archived: false,
});
const features = [feature(1, 'Home'), feature(4, 'Analytics')];
const role: Role = {
  id: 2,
  tenant_id: 1,
  name: 'Support',
  is_owner: false,
  feature_permissions: [
    {
      role_id: 2,
      feature_permission_id: 1,
      can_create: false,
      can_read: true,
      can_write: false,
      feature_permission: features[0]!,
    },
  ],
};

describe('permission matrix', () => {
  it('holds every feature, unset ones all false', () => {
    expect(matrixFromRole(role, features)).toEqual({
      1: { can_create: false, can_read: true, can_write: false },
      4: { can_create: false, can_read: false, can_write: false },
    });
  });

  it('sends every feature, so a cleared box is sent as false', () => {
    const matrix = toggleFlag(toggleFlag(matrixFromRole(role, features), 1, 'can_read'), 4, 'can_write');
    expect(grantsFromMatrix(matrix, features)).toEqual([
      { feature_permission_id: 1, can_create: false, can_read: false, can_write: false },
      { feature_permission_id: 4, can_create: false, can_read: false, can_write: true },
    ]);
  });

  it('tells a changed draft from the saved one', () => {
    const saved = matrixFromRole(role, features);
    expect(sameMatrix(saved, { ...saved })).toBe(true);
    expect(sameMatrix(saved, toggleFlag(saved, 4, 'can_read'))).toBe(false);
  });
});
