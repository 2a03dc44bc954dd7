import {
  type AssignFeaturePermissionsBody,
  type AssignRoleBody,
  type CreateFeatureBody,
  type Feature,
  isReservedSubject,
  MESSAGES,
  type Role,
  type UpdateRoleBody,
  type User,
} from '@parley/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../core/db/database.js';
import { isUniqueViolation } from '../../core/db/errors.js';
import { features, rolePermissions, roles, userRoles } from '../../core/db/schema.js';
import { badRequest, conflict, forbidden, notFound } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import type { SessionResolver } from '../auth/sessions.js';
import { findUserRow, loadUser } from '../users/users.queries.js';
import { assertMayAddFlags, assertMayGiveRole, callerIsOwner } from './grants.js';
import {
  countOwners,
  findFeature,
  findFeatureByName,
  findRole,
  isOwner,
  listFeatures,
  loadRoles,
  roleUse,
  syncOwnerGrants,
  toFeature,
} from './roles.queries.js';

/** Roles, features and grants of a tenant. Every change tells the session cache of every node. */
export class RolesService {
  constructor(
    private readonly db: Db,
    private readonly sessions: SessionResolver,
  ) {}

  listRoles(auth: AuthContext): Promise<Role[]> {
    return loadRoles(this.db, auth.tenantId);
  }

  listFeatures(auth: AuthContext): Promise<Feature[]> {
    return listFeatures(this.db, auth.tenantId);
  }

  async createRole(auth: AuthContext, name: string): Promise<Role> {
    try {
      const [role] = await this.db
        .insert(roles)
        .values({ tenantId: auth.tenantId, name })
        .returning({ id: roles.id });
      const [created] = await loadRoles(this.db, auth.tenantId, [role!.id]);
      return created!;
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(MESSAGES.roles.roleNameTaken);
      throw error;
    }
  }

  /**
   * Renames a role or rewrites its description; grants and holders stay. Not the Owner role, and only
   * a role the caller could give (a stronger role's name is not theirs to make look harmless).
   */
  async updateRole(auth: AuthContext, roleId: number, body: UpdateRoleBody): Promise<Role> {
    const role = await this.editableRole(this.db, auth, roleId);
    if (role.is_owner) throw badRequest(MESSAGES.roles.ownerLocked);
    try {
      await this.db
        .update(roles)
        .set({
          name: body.name,
          description: body.description === undefined ? undefined : body.description || null,
        })
        .where(and(eq(roles.id, role.id), eq(roles.tenantId, auth.tenantId)));
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(MESSAGES.roles.roleNameTaken);
      throw error;
    }
    // Sessions carry their roles' names (the signed-in user, the users list).
    await this.sessions.changed(auth.tenantId);
    const [updated] = await loadRoles(this.db, auth.tenantId, [role.id]);
    return updated!;
  }

  /**
   * Deletes a role nobody holds and no open invitation offers (409 naming them otherwise: deleting
   * it would leave teammates without a role, or an invitation that signs up to nothing). Its grants,
   * the bots' links to it and expired invitations with it go too. Never the Owner role.
   */
  async deleteRole(auth: AuthContext, roleId: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      // The tenant's lock, which assignRole takes too: nobody is given the role between count and delete.
      await tx.execute(sql`SELECT id FROM tenants WHERE id = ${auth.tenantId} FOR UPDATE`);
      const role = await this.editableRole(tx, auth, roleId);
      if (role.is_owner) throw badRequest(MESSAGES.roles.ownerNotDeletable);
      const { holders, invitations } = await roleUse(tx, auth.tenantId, role.id);
      if (holders > 0 || invitations > 0) throw conflict(MESSAGES.roles.inUse(holders, invitations));
      await tx.delete(roles).where(and(eq(roles.id, role.id), eq(roles.tenantId, auth.tenantId)));
    });
    await this.sessions.changed(auth.tenantId);
  }

  /** A role of the caller's workspace that they could give (404 for another workspace's). */
  private async editableRole(db: DbOrTx, auth: AuthContext, roleId: number): Promise<Role> {
    const [role] = await loadRoles(db, auth.tenantId, [roleId]);
    if (!role) throw notFound('Role not found');
    assertMayGiveRole(auth, role);
    return role;
  }

  /** A feature of the tenant's own; its Owner role receives it at once. Reserved names count as taken. */
  async createFeature(auth: AuthContext, body: CreateFeatureBody): Promise<Feature> {
    if (isReservedSubject(body.name) || (await findFeatureByName(this.db, auth.tenantId, body.name))) {
      throw conflict(MESSAGES.features.nameTaken);
    }
    try {
      const feature = await this.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(features)
          .values({ tenantId: auth.tenantId, name: body.name, description: body.description ?? null })
          .returning();
        await syncOwnerGrants(tx, auth.tenantId);
        return row!;
      });
      await this.sessions.changed(auth.tenantId);
      return toFeature(feature);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(MESSAGES.features.nameTaken);
      throw error;
    }
  }

  /** Refused while any role other than Owner holds the feature: archive it instead. */
  async deleteFeature(auth: AuthContext, featureId: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const feature = await this.ownFeature(tx, auth, featureId);
      const [assigned] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(rolePermissions)
        .innerJoin(roles, eq(roles.id, rolePermissions.roleId))
        .where(
          and(
            eq(rolePermissions.featureId, feature.id),
            eq(roles.isOwner, false),
            sql`(${rolePermissions.canCreate} OR ${rolePermissions.canRead} OR ${rolePermissions.canWrite})`,
          ),
        );
      if ((assigned?.n ?? 0) > 0) throw conflict(MESSAGES.features.deleteAssigned);
      await tx.delete(features).where(and(eq(features.id, feature.id), eq(features.tenantId, auth.tenantId)));
    });
    await this.sessions.changed(auth.tenantId);
  }

  async archiveFeature(auth: AuthContext, featureId: number, isArchived: boolean): Promise<Feature> {
    const feature = await this.ownFeature(this.db, auth, featureId);
    const [row] = await this.db
      .update(features)
      .set({ isArchived })
      .where(and(eq(features.id, feature.id), eq(features.tenantId, auth.tenantId)))
      .returning();
    await this.sessions.changed(auth.tenantId);
    return toFeature(row!);
  }

  /**
   * Sets the role's grant for each listed feature (others stay as they are). A grant the caller does not
   * hold themselves cannot be added: editing a role would otherwise be a way round assignRole's check.
   */
  async assignPermissions(auth: AuthContext, body: AssignFeaturePermissionsBody): Promise<Role> {
    await this.db.transaction(async (tx) => {
      const role = await findRole(tx, auth.tenantId, body.role_id);
      if (!role) throw notFound('Role not found');
      if (role.isOwner) throw badRequest(MESSAGES.roles.ownerLocked);
      const [current] = await loadRoles(tx, auth.tenantId, [role.id]);
      for (const grant of body.feature_permissions) {
        const feature = await findFeature(tx, auth.tenantId, grant.feature_permission_id);
        if (!feature) throw notFound('Feature not found');
        const before = current!.feature_permissions.find(
          (held) => held.feature_permission_id === grant.feature_permission_id,
        );
        assertMayAddFlags(auth, feature, before, grant);
        const values = { canCreate: grant.can_create, canRead: grant.can_read, canWrite: grant.can_write };
        await tx
          .insert(rolePermissions)
          .values({
            tenantId: auth.tenantId,
            roleId: role.id,
            featureId: grant.feature_permission_id,
            ...values,
          })
          .onConflictDoUpdate({ target: [rolePermissions.roleId, rolePermissions.featureId], set: values });
      }
    });
    await this.sessions.changed(auth.tenantId);
    const [role] = await loadRoles(this.db, auth.tenantId, [body.role_id]);
    return role!;
  }

  /**
   * Gives the user this role in place of the ones they had; a workspace always keeps an owner. Only a
   * role the caller could have granted, and only an owner takes the Owner role from someone.
   */
  async assignRole(auth: AuthContext, body: AssignRoleBody): Promise<User> {
    await this.db.transaction(async (tx) => {
      // Serialise role changes of a tenant, so two demotions cannot both pass the last-owner check
      // and a role being deleted (deleteRole) is either still there or answers 404 here.
      await tx.execute(sql`SELECT id FROM tenants WHERE id = ${auth.tenantId} FOR UPDATE`);
      const user = await findUserRow(tx, auth.tenantId, body.user_id);
      const [role] = await loadRoles(tx, auth.tenantId, [body.role_id]);
      if (!user || !role) throw notFound(user ? 'Role not found' : 'User not found');
      assertMayGiveRole(auth, role);
      const losesOwnership = !role.is_owner && (await isOwner(tx, auth.tenantId, user.id));
      if (losesOwnership && !callerIsOwner(auth)) throw forbidden(MESSAGES.roles.ownerOnlyByOwner);
      if (losesOwnership && (await countOwners(tx, auth.tenantId)) <= 1) {
        throw badRequest(MESSAGES.auth.lastOwner);
      }
      await tx
        .delete(userRoles)
        .where(and(eq(userRoles.tenantId, auth.tenantId), eq(userRoles.userId, user.id)));
      await tx.insert(userRoles).values({ tenantId: auth.tenantId, userId: user.id, roleId: role.id });
    });
    await this.sessions.changed(auth.tenantId);
    return (await loadUser(this.db, auth.tenantId, body.user_id))!;
  }

  /** A feature the tenant may change: its own. Platform features answer 403, other tenants' 404. */
  private async ownFeature(db: Parameters<typeof findFeature>[0], auth: AuthContext, featureId: number) {
    const feature = await findFeature(db, auth.tenantId, featureId);
    if (!feature) throw notFound('Feature not found');
    if (feature.tenantId === null) throw forbidden(MESSAGES.features.platformFeature);
    return feature;
  }
}
