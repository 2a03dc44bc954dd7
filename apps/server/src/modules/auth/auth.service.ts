import { type AuthResponse, MESSAGES, type SignupBody } from '@parley/contracts';
import { eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../core/db/database.js';
import { isUniqueViolation } from '../../core/db/errors.js';
import { oauthAccounts, tenants, userRoles, users } from '../../core/db/schema.js';
import { conflict, unauthorized } from '../../core/errors.js';
import { createTenantRoles } from '../roles/roles.seed.js';
import {
  findUserByEmail,
  findUserBySignInName,
  freeUsername,
  loadSessionUser,
  usernameTaken,
} from '../users/users.queries.js';
import { type AttemptLimiter, accountKey } from './attempt-limiter.js';
import type { GoogleVerifier } from './google.js';
import type { InvitationService } from './invitations.service.js';
import { hashPassword, verifyPassword } from './passwords.js';
import type { SessionResolver } from './sessions.js';
import type { IssuedRefresh, TokenService } from './tokens.js';

/** What a sign-in produces: the API body and the refresh cookie to set. */
export type Session = { body: AuthResponse; refresh: IssuedRefresh };

type NewAccount = {
  firstName: string;
  lastName: string;
  email: string;
  username?: string;
  passwordHash: string | null;
  emailVerified: boolean;
  companyName?: string;
};

export class AuthService {
  constructor(
    private readonly db: Db,
    private readonly tokens: TokenService,
    private readonly invitations: InvitationService,
    private readonly limiter: AttemptLimiter,
    private readonly google: GoogleVerifier,
    private readonly sessions: SessionResolver,
  ) {}

  /** Creates a workspace and its owner, or with an invitation token joins the inviting workspace. */
  async signup(ip: string, body: SignupBody): Promise<Session> {
    await this.limiter.signupFromIp(ip);
    const passwordHash = await hashPassword(body.password);
    const userId = await this.inTransaction(async (tx) => {
      const invitation = body.token ? await this.invitations.claim(tx, body.token, body.email) : undefined;
      const account = {
        firstName: body.first_name,
        lastName: body.last_name,
        email: body.email,
        username: body.username,
        passwordHash,
        // Accepting an invitation proves the address: the link was mailed to it.
        emailVerified: invitation !== undefined,
        companyName: body.company_name,
      };
      return invitation
        ? this.createUser(tx, account, invitation.tenantId, invitation.roleId)
        : this.createWorkspace(tx, account);
    });
    return this.startSession(userId);
  }

  /**
   * Failures count against the account the name resolves to; a name that matches no account is keyed
   * by itself, so unknown and known names are limited alike and the limit reveals nothing.
   */
  async login(ip: string, name: string, password: string): Promise<Session> {
    await this.limiter.attemptFromIp(ip);
    const user = await findUserBySignInName(this.db, name);
    const key = user ? accountKey(user.id) : name;
    await this.limiter.ensureAccountAllowed(key);
    const valid = await verifyPassword(user?.passwordHash ?? null, password);
    if (!user || !valid) {
      await this.limiter.countAgainstAccount(key);
      throw unauthorized(MESSAGES.auth.invalidCredentials);
    }
    await this.limiter.clearAccount(key);
    return this.startSession(user.id);
  }

  /**
   * Google sign-in: verified ID token; links by subject, then by verified email, else a new workspace
   * (`created`, so a first sign-in counts as a signup: a referral, for one).
   */
  async loginWithGoogle(idToken: string): Promise<Session & { created: boolean }> {
    const identity = await this.google.verify(idToken);
    const { userId, created } = await this.inTransaction(async (tx) => {
      const [linked] = await tx
        .select({ userId: oauthAccounts.userId })
        .from(oauthAccounts)
        .where(eq(oauthAccounts.subject, identity.subject));
      if (linked) return { userId: linked.userId, created: false };
      const existing = await findUserByEmail(tx, identity.email);
      const id =
        existing?.id ??
        (await this.createWorkspace(tx, {
          firstName: identity.firstName,
          lastName: identity.lastName,
          email: identity.email,
          passwordHash: null,
          emailVerified: true,
        }));
      const [owner] = await tx.select({ tenantId: users.tenantId }).from(users).where(eq(users.id, id));
      await tx
        .insert(oauthAccounts)
        .values({ tenantId: owner!.tenantId, userId: id, provider: 'google', subject: identity.subject });
      return { userId: id, created: !existing };
    });
    return { ...(await this.startSession(userId)), created };
  }

  async refresh(token: string | undefined): Promise<Session> {
    if (!token) throw unauthorized(MESSAGES.auth.sessionExpired);
    const rotated = await this.db.transaction((tx) => this.tokens.rotateRefresh(tx, token));
    if (!rotated) throw unauthorized(MESSAGES.auth.sessionExpired);
    const body = await this.authResponse(rotated.userId);
    if (!body) throw unauthorized(MESSAGES.auth.sessionExpired);
    return { body, refresh: rotated.next };
  }

  async logout(token: string | undefined): Promise<void> {
    const userId = token ? await this.tokens.revokeByToken(this.db, token) : undefined;
    // The signed-out user's sockets close too, on every node.
    if (userId !== undefined) await this.sessions.revoked(userId);
  }

  private async startSession(userId: number): Promise<Session> {
    const body = await this.authResponse(userId);
    if (!body) throw unauthorized();
    const refresh = await this.tokens.issueRefresh(this.db, userId);
    return { body, refresh };
  }

  private async authResponse(userId: number): Promise<AuthResponse | null> {
    const [row] = await this.db.select({ tenantId: users.tenantId }).from(users).where(eq(users.id, userId));
    const loaded = row && (await loadSessionUser(this.db, row.tenantId, userId));
    if (!loaded) return null;
    const { user, passwordHash } = loaded;
    const stamp = this.tokens.stampOf(passwordHash);
    const access_token = await this.tokens.signAccess({ userId, tenantId: user.tenant_id, stamp });
    return { access_token, token_type: 'bearer', expires_in: this.tokens.accessTtl, user };
  }

  private async createWorkspace(tx: DbOrTx, account: NewAccount): Promise<number> {
    const name = account.companyName ?? `${account.firstName}'s workspace`;
    const [tenant] = await tx.insert(tenants).values({ name }).returning({ id: tenants.id });
    const { ownerRoleId } = await createTenantRoles(tx, tenant!.id);
    return this.createUser(tx, account, tenant!.id, ownerRoleId);
  }

  private async createUser(
    tx: DbOrTx,
    account: NewAccount,
    tenantId: number,
    roleId: number,
  ): Promise<number> {
    if (await findUserByEmail(tx, account.email)) throw conflict(MESSAGES.auth.emailTaken);
    const username = account.username ?? (await freeUsername(tx, account.email));
    if (account.username && (await usernameTaken(tx, account.username)))
      throw conflict(MESSAGES.auth.usernameTaken);
    const [user] = await tx
      .insert(users)
      .values({
        tenantId,
        firstName: account.firstName,
        lastName: account.lastName,
        email: account.email,
        username,
        passwordHash: account.passwordHash,
        emailVerified: account.emailVerified,
      })
      .returning({ id: users.id });
    await tx.insert(userRoles).values({ tenantId, userId: user!.id, roleId });
    return user!.id;
  }

  /** Runs a signup-like transaction, turning a lost race on a unique email or username into a 409. */
  private async inTransaction<T>(work: (tx: DbOrTx) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction(work);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(MESSAGES.auth.emailTaken);
      throw error;
    }
  }
}
