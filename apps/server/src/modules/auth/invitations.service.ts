import {
  AUTH_LIMITS,
  type InvitedUser,
  type InviteResponse,
  type InviteUserBody,
  MESSAGES,
  type PendingInvitation,
} from '@parley/contracts';
import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import { decryptSecret, deriveKey, encryptSecret, randomToken, sha256 } from '../../core/crypto.js';
import type { Db, DbOrTx } from '../../core/db/database.js';
import { invitations, roles, tenants, users } from '../../core/db/schema.js';
import { AppError, conflict, notFound } from '../../core/errors.js';
import type { AuthContext } from '../../core/http/request-context.js';
import type { Entitlements } from '../billing/entitlements.js';
import type { MailService } from '../mail/mail.service.js';
import { assertMayGiveRole } from '../roles/grants.js';
import { loadRoles } from '../roles/roles.queries.js';
import { findUserByEmail } from '../users/users.queries.js';

/** Never answered: neither accepted nor revoked (possibly expired). */
const unanswered = () => and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt));
const stillOpen = () => and(unanswered(), gt(invitations.expiresAt, new Date()));
const pending = (tokenHash: string) => and(eq(invitations.tokenHash, tokenHash), stillOpen());
/** The workspace's unanswered invitation: an expired one too, which may be resent or revoked. */
const unansweredInTenant = (tenantId: number, id: number) =>
  and(eq(invitations.id, id), eq(invitations.tenantId, tenantId), unanswered());
const newExpiry = () => new Date(Date.now() + AUTH_LIMITS.invitationTtlDays * 86_400_000);

/**
 * Invitations: a single-use token, valid 7 days, mailed to the person. Looked up by its hash; also
 * kept sealed with a key of its own, so whoever may invite can copy the link again (a server without
 * SMTP mails nothing, and the inviter sends the link themselves).
 */
export class InvitationService {
  private readonly linkKey: Buffer;

  constructor(
    private readonly db: Db,
    private readonly mail: Pick<MailService, 'send' | 'delivers'>,
    private readonly publicUrl: string,
    /** The plan's team size, checked in the transaction that invites. */
    private readonly entitlements: Pick<Entitlements, 'requireTeamSlot'>,
    appSecret: string,
  ) {
    this.linkKey = deriveKey(appSecret, 'invitation-links');
  }

  private linkOf(token: string): string {
    return `${this.publicUrl}/signup?token=${token}`;
  }

  /** What the inviter is told: sent, or (no SMTP) to send the link themselves. */
  private answer(sentMessage: string, email: string, token: string, expiresAt: Date): InviteResponse {
    const mailed = this.mail.delivers;
    return {
      message: mailed ? sentMessage : MESSAGES.users.inviteNotMailed,
      email,
      expires_at: expiresAt.toISOString(),
      link: this.linkOf(token),
      mailed,
    };
  }

  async invite(auth: AuthContext, body: InviteUserBody): Promise<InviteResponse> {
    const token = randomToken();
    const expiresAt = newExpiry();
    await this.db.transaction(async (tx) => {
      const [role] = await loadRoles(tx, auth.tenantId, [body.role_id]);
      if (!role) throw notFound('Role not found');
      assertMayGiveRole(auth, role);
      const existing = await findUserByEmail(tx, body.email);
      if (existing) {
        throw conflict(
          existing.tenantId === auth.tenantId
            ? MESSAGES.users.alreadyMember
            : MESSAGES.users.inOtherWorkspace,
        );
      }
      await this.entitlements.requireTeamSlot(tx, auth.tenantId, body.email);
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
        tokenSealed: encryptSecret(this.linkKey, token),
        expiresAt,
      });
      await this.mail.send(invitationMail(auth, body.email, role.name, this.linkOf(token)), tx);
    });
    return this.answer(MESSAGES.users.inviteSent, body.email, token, expiresAt);
  }

  /**
   * The workspace's invitations nobody answered, newest first: waiting ones, and expired ones (so the
   * inviter sees that the person never joined, and can resend), until resent, revoked or replaced.
   * Links of waiting ones for whoever may invite (the same rule as sending one).
   */
  async listPending(auth: AuthContext): Promise<PendingInvitation[]> {
    const mayInvite = auth.ability.can('create', 'Roles');
    const now = Date.now();
    const rows = await this.db
      .select({ invitation: invitations, roleName: roles.name, inviter: users })
      .from(invitations)
      .innerJoin(roles, eq(roles.id, invitations.roleId))
      .leftJoin(users, eq(users.id, invitations.invitedBy))
      .where(and(eq(invitations.tenantId, auth.tenantId), unanswered()))
      .orderBy(desc(invitations.createdAt), desc(invitations.id));
    return rows.map(({ invitation, roleName, inviter }) => {
      const expired = invitation.expiresAt.getTime() <= now;
      return {
        id: invitation.id,
        email: invitation.email,
        role_id: invitation.roleId,
        role_name: roleName,
        invited_by: inviter ? fullName(inviter) : null,
        sent_at: invitation.createdAt.toISOString(),
        expires_at: invitation.expiresAt.toISOString(),
        expired,
        link:
          mayInvite && !expired && invitation.tokenSealed
            ? this.linkOf(decryptSecret(this.linkKey, invitation.tokenSealed))
            : null,
      };
    });
  }

  /**
   * Mails the invitation again with a new token and a new week; the old link stops working. The
   * caller must be able to give its role, as for a new invitation; an expired invitation takes a
   * seat of the plan again, so it needs a free one. The caller becomes its inviter: the mail says
   * they invited the person, and it stands on their word if the first inviter leaves.
   */
  async resend(auth: AuthContext, id: number): Promise<InviteResponse> {
    const token = randomToken();
    const expiresAt = newExpiry();
    const email = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(invitations)
        .where(unansweredInTenant(auth.tenantId, id))
        .for('update');
      if (!row) throw notFound(MESSAGES.users.invitationNotFound);
      const [role] = await loadRoles(tx, auth.tenantId, [row.roleId]);
      assertMayGiveRole(auth, role!);
      if (row.expiresAt.getTime() <= Date.now()) {
        await this.entitlements.requireTeamSlot(tx, auth.tenantId, row.email);
      }
      await tx
        .update(invitations)
        .set({
          tokenHash: sha256(token),
          tokenSealed: encryptSecret(this.linkKey, token),
          expiresAt,
          invitedBy: auth.userId,
        })
        .where(eq(invitations.id, row.id));
      await this.mail.send(invitationMail(auth, row.email, role!.name, this.linkOf(token)), tx);
      return row.email;
    });
    return this.answer(MESSAGES.users.inviteResent, email, token, expiresAt);
  }

  /** Withdraws an unanswered invitation (an expired one leaves the list): its link signs no one up. */
  async revoke(auth: AuthContext, id: number): Promise<void> {
    const revoked = await this.db
      .update(invitations)
      .set({ revokedAt: new Date() })
      .where(unansweredInTenant(auth.tenantId, id))
      .returning({ id: invitations.id });
    if (revoked.length === 0) throw notFound(MESSAGES.users.invitationNotFound);
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
      invited_by: row.inviter ? fullName(row.inviter) : row.tenantName,
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

/**
 * Withdraws the unanswered invitations a person sent, in the transaction that removes them from the
 * workspace: they were sent on that person's word, and someone let go must not be able to bring a
 * friend in after they left. Returns how many were withdrawn, for the remover to be told.
 */
export async function revokeInvitationsSentBy(tx: DbOrTx, tenantId: number, userId: number): Promise<number> {
  const revoked = await tx
    .update(invitations)
    .set({ revokedAt: new Date() })
    .where(and(eq(invitations.tenantId, tenantId), eq(invitations.invitedBy, userId), unanswered()))
    .returning({ id: invitations.id });
  return revoked.length;
}

const fullName = (user: { firstName: string; lastName: string }) =>
  `${user.firstName} ${user.lastName}`.trim();

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
