import type { AssignBotsBody, Bot, BotInput, MessageLimit, MessageResponse } from '@parley/contracts';
import { botFormData } from '@parley/contracts';
import { api } from '../../shared/api/base-api';

const tagged = api.enhanceEndpoints({ addTagTypes: ['Bots', 'AssignedBots'] });

type BotWrite = { input: Partial<BotInput>; image?: Blob | null };

/**
 * Bots (console.md section 7 Bots). Create and update are multipart (the profile image travels with
 * the fields). Mutations are silent: screens show the spec's texts, or the server's detail.
 */
export const botsApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    /** The bots a user may work with: the ones they created, carry their roles or are assigned to them. */
    botsOfUser: build.query<Bot[], number>({
      query: (userId) => `/chat/bots/user/${userId}`,
      providesTags: ['Bots'],
    }),
    bot: build.query<Bot, number>({
      query: (botId) => `/chat/bots/${botId}`,
      providesTags: (_result, _error, botId) => [{ type: 'Bots', id: botId }],
    }),
    botsOfRole: build.query<Bot[], number>({
      query: (roleId) => ({ url: '/chat/bots/role', method: 'POST', body: { role_id: roleId } }),
      providesTags: ['Bots'],
    }),
    createBot: build.mutation<Bot, BotWrite>({
      query: ({ input, image }) => ({ url: '/chat/bots', method: 'POST', body: botFormData(input, image) }),
      extraOptions: { silent: true },
      invalidatesTags: ['Bots'],
    }),
    updateBot: build.mutation<Bot, BotWrite & { botId: number }>({
      query: ({ botId, input, image }) => ({
        url: `/chat/bots/${botId}`,
        method: 'PUT',
        body: botFormData(input, image),
      }),
      extraOptions: { silent: true },
      invalidatesTags: (_result, _error, { botId }) => ['Bots', { type: 'Bots', id: botId }],
    }),
    deleteBot: build.mutation<MessageResponse, number>({
      query: (botId) => ({ url: `/chat/bots/${botId}`, method: 'DELETE' }),
      extraOptions: { silent: true },
      invalidatesTags: ['Bots'],
    }),
    /** Bot answers used this month against the workspace's allowance. */
    messageLimit: build.query<MessageLimit, number>({
      query: (tenantId) => `/chat/message-limit/${tenantId}`,
      extraOptions: { silent: true },
    }),
    botsAssigned: build.query<Bot[], { userId: number; tenantId: number }>({
      query: ({ userId, tenantId }) => `/auth/bots-assigned/${userId}/tenant/${tenantId}`,
      providesTags: ['AssignedBots'],
    }),
    assignBots: build.mutation<Bot[], { userId: number; body: AssignBotsBody }>({
      query: ({ userId, body }) => ({ url: `/auth/bots-assigned/${userId}`, method: 'PUT', body }),
      extraOptions: { silent: true },
      // The users list and the signed-in user carry all_bots.
      invalidatesTags: ['AssignedBots', 'Bots', 'Users', 'Me'],
    }),
  }),
});

export const {
  useBotsOfUserQuery,
  useBotQuery,
  useBotsOfRoleQuery,
  useCreateBotMutation,
  useUpdateBotMutation,
  useDeleteBotMutation,
  useBotsAssignedQuery,
  useMessageLimitQuery,
  useAssignBotsMutation,
} = botsApi;
