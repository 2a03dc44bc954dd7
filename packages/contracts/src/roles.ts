import { z } from 'zod';
import { BodyId, inputText } from './common.js';

/** A named feature that roles are granted (spec: "feature permission"). */
export const Feature = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  /** null for the platform's own features, else the tenant that created it. */
  tenant_id: z.number().int().nullable(),
  is_archived: z.boolean(),
});
export type Feature = z.infer<typeof Feature>;

export const RoleFeaturePermission = z.object({
  role_id: z.number().int(),
  feature_permission_id: z.number().int(),
  can_create: z.boolean(),
  can_read: z.boolean(),
  can_write: z.boolean(),
  feature_permission: Feature,
});
export type RoleFeaturePermission = z.infer<typeof RoleFeaturePermission>;

export const Role = z.object({
  id: z.number().int(),
  tenant_id: z.number().int(),
  name: z.string(),
  /** One line saying what the role is for (the default roles have one); null when nobody wrote one. */
  description: z.string().nullable().optional(),
  /** The Owner role always holds every feature; its permissions cannot be edited. */
  is_owner: z.boolean(),
  feature_permissions: z.array(RoleFeaturePermission),
});
export type Role = z.infer<typeof Role>;

const name = (label: string, max: number) =>
  inputText({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

export const CreateRoleBody = z.object({ name: name('Role name', 60) });
export type CreateRoleBody = z.infer<typeof CreateRoleBody>;

/** Renames a role and/or rewrites its one-line description (an empty description clears it). */
export const UpdateRoleBody = z
  .object({
    name: name('Role name', 60).optional(),
    description: inputText().trim().max(200, 'Description must be at most 200 characters').optional(),
  })
  .refine((v) => v.name !== undefined || v.description !== undefined, 'Nothing to update');
export type UpdateRoleBody = z.infer<typeof UpdateRoleBody>;

export const CreateFeatureBody = z.object({
  name: name('Feature name', 60),
  description: inputText().trim().max(500).optional(),
});
export type CreateFeatureBody = z.infer<typeof CreateFeatureBody>;

export const PermissionGrant = z.object({
  feature_permission_id: BodyId('Feature'),
  can_create: z.boolean(),
  can_read: z.boolean(),
  can_write: z.boolean(),
});
export type PermissionGrant = z.infer<typeof PermissionGrant>;

export const AssignFeaturePermissionsBody = z.object({
  role_id: BodyId('Role'),
  feature_permissions: z.array(PermissionGrant).max(500),
});
export type AssignFeaturePermissionsBody = z.infer<typeof AssignFeaturePermissionsBody>;

export const AssignRoleBody = z.object({ user_id: BodyId('User'), role_id: BodyId('Role') });
export type AssignRoleBody = z.infer<typeof AssignRoleBody>;

export const ArchiveFeatureBody = z.object({ is_archived: z.boolean() });
export type ArchiveFeatureBody = z.infer<typeof ArchiveFeatureBody>;
