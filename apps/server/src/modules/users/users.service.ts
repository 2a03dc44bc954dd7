import {
  type ChangePasswordBody,
  MESSAGES,
  type Teammate,
  type UpdateProfileBody,
  type User,
} from '@parley/contracts';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../core/db/database.js';
import { isUniqueViolation } from '../../core/db/errors.js';
import { users } from '../../core/db/schema.js';
import { badRequest, conflict, forbidden, notFound } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import { revokeInvitationsSentBy } from '../auth/invitations.service.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import type { SessionResolver } from '../auth/sessions.js';
import type { IssuedRefresh, TokenService } from '../auth/tokens.js';
import { callerIsOwner } from '../roles/grants.js';
import { countOwners, isOwner } from '../roles/roles.queries.js';
import { findUserRow, loadUser, loadUsers, usernameTaken } from './users.queries.js';

/** People of a workspace: listing, profiles, passwords, removal. */
export class UsersService {
  constructor(
    private readonly db: Db,
    private readonly tokens: TokenService,
    private readonly sessions: SessionResolver,
  ) {}

  list(auth: AuthContext): Promise<User[]> {
    return loadUsers(this.db, auth.tenantId);
  }

  /** The workspace's people by name, for the inbox: partners are no one's teammates. */
  teammates(auth: AuthContext): Promise<Teammate[]> {
    return this.db
      .select({ id: users.id, first_name: users.firstName, last_name: users.lastName, email: users.email })
      .from(users)
      .where(and(eq(users.tenantId, auth.tenantId), ne(users.userType, 'partner')))
      .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id));
  }

  /** Anyone edits their own profile; editing a teammate's needs write on Roles. */
  async updateProfile(auth: AuthContext, userId: number, body: UpdateProfileBody): Promise<User> {
    const target = await this.teammate(auth, userId);
    if (target.id !== auth.userId && !auth.ability.can('write', 'Roles')) throw forbidden();
    await this.assertMayManage(auth, target.id);
    if (body.username && (await usernameTaken(this.db, body.username, target.id))) {
      throw conflict(MESSAGES.auth.usernameTaken);
    }
    try {
      await this.db
        .update(users)
        .set({
          firstName: body.first_name,
          lastName: body.last_name,
          username: body.username,
          updatedAt: new Date(),
        })
        .where(and(eq(users.id, target.id), eq(users.tenantId, auth.tenantId)));
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(MESSAGES.auth.usernameTaken);
      throw error;
    }
    await this.sessions.changed(auth.tenantId);
    return (await loadUser(this.db, auth.tenantId, target.id))!;
  }

  /**
   * Only one's own password, with the current one. Every refresh token of the user is revoked and
   * every access token stops working (its password stamp no longer matches), so other devices sign
   * in again; this device gets a fresh refresh cookie and renews its access token with it.
   */
  async changePassword(auth: AuthContext, userId: number, body: ChangePasswordBody): Promise<IssuedRefresh> {
    const target = await this.teammate(auth, userId);
    if (target.id !== auth.userId) throw forbidden(MESSAGES.auth.ownPasswordOnly);
    if (!(await verifyPassword(target.passwordHash, body.current_password))) {
      throw badRequest(MESSAGES.auth.currentPasswordWrong);
    }
    const passwordHash = await hashPassword(body.new_password);
    const refresh = await this.db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, target.id));
      await this.tokens.revokeAllForUser(tx, target.id);
      return this.tokens.issueRefresh(tx, target.id);
    });
    // Cached sessions of every node are dropped, so the old stamp is refused at once; open sockets
    // close as well (this device's client reconnects with its renewed session).
    await this.sessions.changed(auth.tenantId);
    await this.sessions.revoked(target.id);
    return refresh;
  }

  /**
   * Removes a teammate (or oneself), never the workspace's last owner. The invitations they sent
   * that nobody accepted go with them (see revokeInvitationsSentBy); returns how many.
   */
  async remove(auth: AuthContext, userId: number): Promise<{ invitationsWithdrawn: number }> {
    const withdrawn = await this.db.transaction(async (tx) => {
      const target = await findUserRow(tx, auth.tenantId, userId);
      if (!target) throw notFound('User not found');
      await this.assertMayManage(auth, target.id, tx);
      await tx.execute(sql`SELECT id FROM tenants WHERE id = ${auth.tenantId} FOR UPDATE`);
      if ((await isOwner(tx, auth.tenantId, target.id)) && (await countOwners(tx, auth.tenantId)) <= 1) {
        throw badRequest(MESSAGES.auth.lastOwner);
      }
      const revoked = await revokeInvitationsSentBy(tx, auth.tenantId, target.id);
      await tx.delete(users).where(and(eq(users.id, target.id), eq(users.tenantId, auth.tenantId)));
      return revoked;
    });
    await this.sessions.changed(auth.tenantId);
    return { invitationsWithdrawn: withdrawn };
  }

  /** An owner is edited or removed by an owner (or themselves), never by a teammate with Roles write. */
  private async assertMayManage(auth: AuthContext, targetId: number, tx: DbOrTx = this.db): Promise<void> {
    if (targetId === auth.userId || callerIsOwner(auth)) return;
    if (await isOwner(tx, auth.tenantId, targetId)) throw forbidden(MESSAGES.auth.ownerOnlyByOwner);
  }

  private async teammate(auth: AuthContext, userId: number) {
    const row = await findUserRow(this.db, auth.tenantId, userId);
    if (!row) throw notFound('User not found');
    return row;
  }
}
