import {
  ChangePasswordBody,
  IdParams,
  MESSAGES,
  MessageResponse,
  TeammateList,
  TenantIdParams,
  UpdateProfileBody,
  User,
  UserList,
} from '@parley/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../core/http/request-context.js';
import { sameTenant } from '../../core/http/tenant.js';
import { type CookieOptions, setRefreshCookie } from '../auth/refresh-cookie.js';
import type { UsersService } from './users.service.js';

const tags = ['Users'];

export const usersRoutes =
  (users: UsersService, cookie: CookieOptions): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/auth/user/all/:tenantId',
      {
        schema: {
          tags,
          summary: 'Users of the workspace with their roles',
          params: TenantIdParams,
          response: { 200: UserList },
        },
      },
      async (request) => users.list(sameTenant(requireAuth(request), request.params.tenantId)),
    );
    app.get(
      '/auth/user/teammates/:tenantId',
      {
        schema: {
          tags,
          summary: 'Teammates an agent may assign a conversation to or mail about it',
          params: TenantIdParams,
          response: { 200: TeammateList },
        },
      },
      async (request) => users.teammates(sameTenant(requireAuth(request), request.params.tenantId)),
    );
    app.put(
      '/auth/user/profile/:id',
      {
        schema: {
          tags,
          summary: 'Edit a profile (own, or any with write on Roles)',
          params: IdParams,
          body: UpdateProfileBody,
          response: { 200: User },
        },
      },
      async (request) => users.updateProfile(requireAuth(request), request.params.id, request.body),
    );
    app.put(
      '/auth/user/password/:id',
      {
        schema: {
          tags,
          summary: 'Change your own password',
          params: IdParams,
          body: ChangePasswordBody,
          response: { 200: MessageResponse },
        },
      },
      async (request, reply) => {
        const refresh = await users.changePassword(requireAuth(request), request.params.id, request.body);
        return setRefreshCookie(reply, refresh, cookie).send({ message: MESSAGES.users.passwordChanged });
      },
    );
    app.delete(
      '/auth/user/:id',
      {
        schema: {
          tags,
          summary:
            'Remove a user (never the last owner); the invitations they sent that nobody accepted are withdrawn',
          params: IdParams,
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        const { invitationsWithdrawn } = await users.remove(requireAuth(request), request.params.id);
        if (invitationsWithdrawn === 0) return { message: MESSAGES.users.deleted };
        return {
          message: `${MESSAGES.users.deleted}. ${MESSAGES.users.invitationsWithdrawn(invitationsWithdrawn)}`,
        };
      },
    );
  };
