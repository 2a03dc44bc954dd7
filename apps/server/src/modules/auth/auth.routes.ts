import {
  AuthConfig,
  AuthResponse,
  IdParams,
  InvitedUser,
  InviteResponse,
  InviteUserBody,
  LoginBody,
  MESSAGES,
  MessageResponse,
  OAuthLoginBody,
  PendingInvitation,
  SignupBody,
  User,
} from '@parley/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest } from '../../core/errors.js';
import { requireAuth } from '../../core/http/request-context.js';
import type { AuthService, Session } from './auth.service.js';
import type { InvitationService } from './invitations.service.js';
import {
  type CookieOptions,
  clearRefreshCookie,
  REFRESH_COOKIE,
  setRefreshCookie,
} from './refresh-cookie.js';

const tags = ['Auth'];

export const authRoutes =
  (
    auth: AuthService,
    invitations: InvitationService,
    cookie: CookieOptions,
    googleClientId: string | undefined,
    /** A signup or first Google sign-in that made a new workspace (not an invitation's): the affiliate referral is recorded there. */
    onWorkspaceCreated?: (request: FastifyRequest, reply: FastifyReply, tenantId: number) => Promise<void>,
  ): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/auth/config',
      {
        schema: {
          tags,
          summary: 'Sign-in options of this server (Google client id when configured)',
          response: { 200: AuthConfig },
        },
      },
      async () => ({ google_client_id: googleClientId ?? null }),
    );
    /** Sends the session: access token in the body, refresh token in an httpOnly cookie only /api/auth sees. */
    const sendSession = (reply: FastifyReply, session: Session, status = 200) =>
      setRefreshCookie(reply, session.refresh, cookie).status(status).send(session.body);

    app.post(
      '/auth/signup',
      {
        schema: {
          tags,
          summary: 'Create a workspace and its owner, or join one with an invitation token',
          body: SignupBody,
          response: { 201: AuthResponse },
        },
      },
      async (request, reply) => {
        const session = await auth.signup(request.ip, request.body);
        if (!request.body.token) await onWorkspaceCreated?.(request, reply, session.body.user.tenant_id);
        return sendSession(reply, session, 201);
      },
    );
    app.post(
      '/auth/login',
      {
        schema: {
          tags,
          summary: 'Sign in with email or username and password',
          body: LoginBody,
          response: { 200: AuthResponse },
        },
      },
      async (request, reply) => {
        const name = request.body.username ?? request.body.email;
        if (!name) throw badRequest('Email or username is required');
        return sendSession(reply, await auth.login(request.ip, name, request.body.password));
      },
    );
    app.post(
      '/auth/oauth/login',
      {
        schema: {
          tags,
          summary: 'Sign in with a Google ID token',
          body: OAuthLoginBody,
          response: { 200: AuthResponse },
        },
      },
      async (request, reply) => {
        const session = await auth.loginWithGoogle(request.body.id_token);
        // A first Google sign-in creates a workspace, as a signup does.
        if (session.created) await onWorkspaceCreated?.(request, reply, session.body.user.tenant_id);
        return sendSession(reply, session);
      },
    );
    app.post(
      '/auth/refresh',
      {
        schema: {
          tags,
          summary: 'Renew the access token with the refresh cookie (rotates it)',
          response: { 200: AuthResponse },
        },
      },
      async (request, reply) => {
        try {
          return sendSession(reply, await auth.refresh(request.cookies[REFRESH_COOKIE]));
        } catch (error) {
          clearRefreshCookie(reply);
          throw error;
        }
      },
    );
    app.post(
      '/auth/logout',
      {
        schema: { tags, summary: 'Sign out: revokes the refresh token', response: { 200: MessageResponse } },
      },
      async (request, reply) => {
        await auth.logout(request.cookies[REFRESH_COOKIE]);
        return clearRefreshCookie(reply).send({ message: 'Logged out' });
      },
    );
    app.get(
      '/auth/user',
      {
        schema: { tags, summary: 'The signed-in user', security: [{ bearer: [] }], response: { 200: User } },
      },
      async (request) => requireAuth(request).user,
    );
    app.post(
      '/auth/invite-user',
      {
        schema: {
          tags,
          summary: 'Invite someone by email with a role',
          body: InviteUserBody,
          response: { 201: InviteResponse },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await invitations.invite(requireAuth(request), request.body)),
    );
    app.get(
      '/auth/invitations',
      {
        schema: {
          tags,
          summary: "The workspace's pending invitations (not accepted, revoked or expired)",
          response: { 200: z.array(PendingInvitation) },
        },
      },
      async (request) => invitations.listPending(requireAuth(request)),
    );
    app.post(
      '/auth/invitations/:id/resend',
      {
        schema: {
          tags,
          summary: 'Mail a pending invitation again with a new link; the old link stops working',
          params: IdParams,
          response: { 200: InviteResponse },
        },
      },
      async (request) => invitations.resend(requireAuth(request), request.params.id),
    );
    app.delete(
      '/auth/invitations/:id',
      {
        schema: {
          tags,
          summary: 'Revoke a pending invitation: its link no longer signs anyone up',
          params: IdParams,
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        await invitations.revoke(requireAuth(request), request.params.id);
        return { message: MESSAGES.users.inviteRevoked };
      },
    );
    app.get(
      '/auth/invited-user/:token',
      {
        schema: {
          tags,
          summary: 'What an invitation is for (email, workspace, role)',
          params: z.object({ token: z.string().min(10).max(200) }),
          response: { 200: InvitedUser },
        },
      },
      async (request) => invitations.lookup(request.params.token),
    );
  };
