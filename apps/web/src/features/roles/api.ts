import type {
  AssignFeaturePermissionsBody,
  AssignRoleBody,
  CreateFeatureBody,
  CreateRoleBody,
  Feature,
  InviteResponse,
  InviteUserBody,
  MessageResponse,
  PendingInvitation,
  Role,
  UpdateRoleBody,
  User,
} from '@parley/contracts';
import { api } from '../../shared/api/base-api';

/**
 * Users, roles and features of the tenant. Role and feature changes also invalidate 'Me': the
 * signed-in user's own abilities may have changed, and the menu follows them.
 */
export const rolesApi = api.injectEndpoints({
  endpoints: (build) => ({
    tenantUsers: build.query<User[], number>({
      query: (tenantId) => `/auth/user/all/${tenantId}`,
      providesTags: ['Users'],
    }),
    roles: build.query<Role[], number>({
      query: (tenantId) => `/role/roles/${tenantId}`,
      providesTags: ['Roles'],
    }),
    features: build.query<Feature[], void>({
      query: () => '/role/features',
      providesTags: ['Features'],
    }),
    inviteUser: build.mutation<InviteResponse, InviteUserBody>({
      query: (body) => ({ url: '/auth/invite-user', method: 'POST', body }),
      invalidatesTags: ['Invitations'],
    }),
    pendingInvitations: build.query<PendingInvitation[], void>({
      query: () => '/auth/invitations',
      providesTags: ['Invitations'],
    }),
    resendInvitation: build.mutation<InviteResponse, number>({
      query: (id) => ({ url: `/auth/invitations/${id}/resend`, method: 'POST' }),
      invalidatesTags: ['Invitations'],
    }),
    revokeInvitation: build.mutation<MessageResponse, number>({
      query: (id) => ({ url: `/auth/invitations/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Invitations'],
    }),
    assignRole: build.mutation<User, AssignRoleBody>({
      query: (body) => ({ url: '/role/assign-role', method: 'POST', body }),
      invalidatesTags: ['Users', 'Me'],
    }),
    deleteUser: build.mutation<MessageResponse, number>({
      query: (id) => ({ url: `/auth/user/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Users', 'Invitations'],
    }),
    createRole: build.mutation<Role, CreateRoleBody>({
      query: (body) => ({ url: '/role/create', method: 'POST', body }),
      invalidatesTags: ['Roles'],
    }),
    updateRole: build.mutation<Role, { id: number; body: UpdateRoleBody }>({
      query: ({ id, body }) => ({ url: `/role/${id}`, method: 'PATCH', body }),
      // The users list and the signed-in user show role names.
      invalidatesTags: ['Roles', 'Users', 'Me', 'Invitations'],
    }),
    deleteRole: build.mutation<MessageResponse, number>({
      query: (id) => ({ url: `/role/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Roles', 'Invitations'],
    }),
    assignFeaturePermissions: build.mutation<Role, AssignFeaturePermissionsBody>({
      query: (body) => ({ url: '/role/assign-feature-permissions', method: 'POST', body }),
      invalidatesTags: ['Roles', 'Users', 'Me'],
    }),
    createFeature: build.mutation<Feature, CreateFeatureBody>({
      query: (body) => ({ url: '/role/feature-permissions', method: 'POST', body }),
      invalidatesTags: ['Features'],
    }),
    deleteFeature: build.mutation<MessageResponse, number>({
      query: (id) => ({ url: `/role/feature/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Features', 'Roles'],
    }),
    archiveFeature: build.mutation<Feature, { id: number; is_archived: boolean }>({
      query: ({ id, is_archived }) => ({
        url: `/role/feature/${id}/archive`,
        method: 'PATCH',
        body: { is_archived },
      }),
      invalidatesTags: ['Features', 'Roles', 'Users', 'Me'],
    }),
  }),
});

export const {
  useTenantUsersQuery,
  useRolesQuery,
  useFeaturesQuery,
  useInviteUserMutation,
  usePendingInvitationsQuery,
  useResendInvitationMutation,
  useRevokeInvitationMutation,
  useAssignRoleMutation,
  useDeleteUserMutation,
  useCreateRoleMutation,
  useUpdateRoleMutation,
  useDeleteRoleMutation,
  useAssignFeaturePermissionsMutation,
  useCreateFeatureMutation,
  useDeleteFeatureMutation,
  useArchiveFeatureMutation,
} = rolesApi;
