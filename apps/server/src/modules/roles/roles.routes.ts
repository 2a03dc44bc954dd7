import {
  ArchiveFeatureBody,
  AssignFeaturePermissionsBody,
  AssignRoleBody,
  CreateFeatureBody,
  CreateRoleBody,
  Feature,
  IdParams,
  MESSAGES,
  MessageResponse,
  Role,
  TenantIdParams,
  UpdateRoleBody,
  User,
} from '@parley/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../core/http/request-context.js';
import { sameTenant } from '../../core/http/tenant.js';
import type { RolesService } from './roles.service.js';

const tags = ['Roles'];

export const rolesRoutes =
  (roles: RolesService): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/role/roles/:tenantId',
      {
        schema: {
          tags,
          summary: "The workspace's roles with their feature permissions",
          params: TenantIdParams,
          response: { 200: z.array(Role) },
        },
      },
      async (request) => roles.listRoles(sameTenant(requireAuth(request), request.params.tenantId)),
    );
    app.get(
      '/role/features',
      {
        schema: {
          tags,
          summary: 'Features roles can be granted (platform and own)',
          response: { 200: z.array(Feature) },
        },
      },
      async (request) => roles.listFeatures(requireAuth(request)),
    );
    app.post(
      '/role/create',
      { schema: { tags, summary: 'Create a role', body: CreateRoleBody, response: { 201: Role } } },
      async (request, reply) =>
        reply.status(201).send(await roles.createRole(requireAuth(request), request.body.name)),
    );
    app.patch(
      '/role/:id',
      {
        schema: {
          tags,
          summary: 'Rename a role or rewrite its description (not the Owner role)',
          params: IdParams,
          body: UpdateRoleBody,
          response: { 200: Role },
        },
      },
      async (request) => roles.updateRole(requireAuth(request), request.params.id, request.body),
    );
    app.delete(
      '/role/:id',
      {
        schema: {
          tags,
          summary: 'Delete a role no one holds and no pending invitation offers (not the Owner role)',
          params: IdParams,
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        await roles.deleteRole(requireAuth(request), request.params.id);
        return { message: MESSAGES.roles.deleted };
      },
    );
    app.post(
      '/role/feature-permissions',
      {
        schema: {
          tags,
          summary: 'Create a feature of this workspace',
          body: CreateFeatureBody,
          response: { 201: Feature },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await roles.createFeature(requireAuth(request), request.body)),
    );
    app.delete(
      '/role/feature/:id',
      {
        schema: {
          tags,
          summary: 'Delete a feature no role holds',
          params: IdParams,
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        await roles.deleteFeature(requireAuth(request), request.params.id);
        return { message: 'Feature deleted successfully' };
      },
    );
    app.patch(
      '/role/feature/:id/archive',
      {
        schema: {
          tags,
          summary: 'Archive or restore a feature',
          params: IdParams,
          body: ArchiveFeatureBody,
          response: { 200: Feature },
        },
      },
      async (request) =>
        roles.archiveFeature(requireAuth(request), request.params.id, request.body.is_archived),
    );
    app.post(
      '/role/assign-feature-permissions',
      {
        schema: {
          tags,
          summary: "Set a role's grants",
          body: AssignFeaturePermissionsBody,
          response: { 200: Role },
        },
      },
      async (request) => roles.assignPermissions(requireAuth(request), request.body),
    );
    app.post(
      '/role/assign-role',
      { schema: { tags, summary: 'Give a user a role', body: AssignRoleBody, response: { 200: User } } },
      async (request) => roles.assignRole(requireAuth(request), request.body),
    );
  };
