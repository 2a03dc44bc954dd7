import { AUTH_LIMITS, type InvitedUser, type InviteUserBody, MESSAGES } from '@parley/contracts';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { randomToken, sha256 } from '../../core/crypto.js';
import type { Db, DbOrTx } from '../../core/db/database.js';
import { invitations, roles, tenants, users } from '../../core/db/schema.js';
import { AppError, conflict, notFound } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import type { MailService } from '../mail/mail.service.js';
import { assertMayGiveRole } from '../roles/grants.js';
import { loadRoles } from '../roles/roles.queries.js';
import { findUserByEmail } from '../users/users.queries.js';

const pending = (tokenHash: string) =>
  and(
    eq(invitations.tokenHash, tokenHash),
    isNull(invitations.acceptedAt),
    isNull(invitations.revokedAt),
    gt(invitations.expiresAt, new Date()),
  );

/** Invitations: a single-use token, valid 7 days, mailed to the person; stored only as a hash. */
export class InvitationService {
  constructor(
    private readonly db: Db,
    private readonly mail: MailService,
    private readonly publicUrl: string,
  ) {}

  async invite(auth: AuthContext, body: InviteUserBody) {
    const token = randomToken();
    const expiresAt = new Date(Date.now() + AUTH_LIMITS.invitationTtlDays * 86_400_000);
    await this.db.transaction(async (tx) => {
      const [role] = await loadRoles(tx, auth.tenantId, [body.role_id]);
      if (!role) throw notFound('Role not found');
      assertMayGiveRole(auth, role);
      if (await findUserByEmail(tx, body.email)) throw conflict(MESSAGES.auth.emailTaken);
      // A newer invitation replaces any earlier one for the same person in this workspace.
      await tx
        .update(invitations)
        .set({ revokedAt: new Date() })
        .where(
          and(
            eq(invitations.tenantId, auth.tenantId),
            eq(invitations.email, body.email),
            isNull(invitations.acceptedAt),
          ),
        );
      await tx.insert(invitations).values({
        tenantId: auth.tenantId,
        email: body.email,
        roleId: role.id,
        invitedBy: auth.userId,
        tokenHash: sha256(token),
        expiresAt,
      });
      await this.mail.send(
        invitationMail(auth, body.email, role.name, `${this.publicUrl}/signup?token=${token}`),
        tx,
      );
    });
    return { message: MESSAGES.users.inviteSent, email: body.email, expires_at: expiresAt.toISOString() };
  }

  async lookup(token: string): Promise<InvitedUser> {
    const [row] = await this.db
      .select({ invitation: invitations, tenantName: tenants.name, roleName: roles.name, inviter: users })
      .from(invitations)
      .innerJoin(tenants, eq(tenants.id, invitations.tenantId))
      .innerJoin(roles, eq(roles.id, invitations.roleId))
      .leftJoin(users, eq(users.id, invitations.invitedBy))
      .where(pending(sha256(token)));
    if (!row) throw notFound(MESSAGES.auth.invitationInvalid);
    return {
      email: row.invitation.email,
      tenant_id: row.invitation.tenantId,
      tenant_name: row.tenantName,
      role_id: row.invitation.roleId,
      role_name: row.roleName,
      invited_by: row.inviter ? `${row.inviter.firstName} ${row.inviter.lastName}`.trim() : row.tenantName,
      expires_at: row.invitation.expiresAt.toISOString(),
    };
  }

  /** Marks the invitation used, inside the signup's transaction; refuses a used, expired or foreign one. */
  async claim(tx: DbOrTx, token: string, email: string) {
    const [row] = await tx
      .select()
      .from(invitations)
      .where(pending(sha256(token)))
      .for('update');
    if (!row) throw new AppError('bad_request', MESSAGES.auth.invitationInvalid);
    if (row.email.toLowerCase() !== email.toLowerCase()) {
      throw new AppError('bad_request', MESSAGES.auth.invitationEmailMismatch);
    }
    const claimed = await tx
      .update(invitations)
      .set({ acceptedAt: new Date() })
      .where(and(eq(invitations.id, row.id), isNull(invitations.acceptedAt)))
      .returning({ id: invitations.id });
    if (claimed.length === 0) throw new AppError('bad_request', MESSAGES.auth.invitationInvalid);
    return row;
  }
}

function invitationMail(auth: AuthContext, to: string, roleName: string, link: string) {
  const inviter = `${auth.user.first_name} ${auth.user.last_name}`.trim();
  return {
    to,
    tenantId: auth.tenantId,
    subject: `${inviter} invited you to ${auth.user.tenant_name} on Parley`,
    text: [
      `${inviter} invited you to join ${auth.user.tenant_name} on Parley as ${roleName}.`,
      '',
      `Accept the invitation: ${link}`,
      '',
      `The link works once and expires in ${AUTH_LIMITS.invitationTtlDays} days.`,
    ].join('\n'),
  };
}
