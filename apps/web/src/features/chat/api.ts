import type {
  ChatMessage,
  Conversation,
  ConversationWithMessages,
  LeadCreated,
  LeadSubmission,
  LeftContactBody,
  MessageResponse,
  PublicBot,
  VisitorIdentity,
} from '@parley/contracts';
import { api } from '../../shared/api/base-api';

const tagged = api.enhanceEndpoints({ addTagTypes: ['Conversations', 'PublicBot'] });

/**
 * Chat calls of the playground and the widget (console.md section 7 Chat and inbox). The stream
 * itself is `streamChat` (a fetch read as it arrives); the socket is `ChatSocket`.
 */
export const chatApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    conversation: build.query<ConversationWithMessages, number>({
      query: (id) => `/chat/chats/${id}`,
      extraOptions: { silent: true },
      providesTags: (_result, _error, id) => [{ type: 'Conversations', id }],
    }),
    conversationsOfUserBot: build.query<Conversation[], { userId: number; botId: number }>({
      query: ({ userId, botId }) => `/chat/chats/user/${userId}/bot/${botId}`,
      providesTags: ['Conversations'],
    }),
    deleteConversation: build.mutation<MessageResponse, number>({
      query: (id) => ({ url: `/chat/chats/conversation/${id}`, method: 'DELETE' }),
      extraOptions: { silent: true },
      invalidatesTags: ['Conversations'],
    }),
    /** The playground's "Talk to a person": the notice the conversation gets. */
    requestHuman: build.mutation<ChatMessage, number>({
      query: (id) => ({ url: `/chat/chats/${id}/request-human`, method: 'POST' }),
      extraOptions: { silent: true },
    }),
    /** The contact form of a visitor nobody could come to: the thank-you stored in the conversation. */
    leaveContact: build.mutation<ChatMessage, { conversationId: number; body: LeftContactBody }>({
      query: ({ conversationId, body }) => ({
        url: `/chat/conversations/${conversationId}/contact`,
        method: 'POST',
        body,
      }),
      extraOptions: { silent: true },
    }),
    publicBot: build.query<PublicBot, string>({
      query: (uuid) => `/auth/bot/uuid/${encodeURIComponent(uuid)}`,
      extraOptions: { silent: true },
      providesTags: (_result, _error, uuid) => [{ type: 'PublicBot', id: uuid }],
    }),
    visitorIdentity: build.mutation<VisitorIdentity, { bot_uuid: string; visitor_token?: string }>({
      query: (body) => ({ url: '/chat/visitor', method: 'POST', body }),
      extraOptions: { silent: true },
    }),
    submitLead: build.mutation<LeadCreated, { uuid: string; body: LeadSubmission }>({
      query: ({ uuid, body }) => ({
        url: `/auth/bot/uuid/${encodeURIComponent(uuid)}/lead`,
        method: 'POST',
        body,
      }),
      extraOptions: { silent: true },
    }),
  }),
});

export const {
  useConversationQuery,
  useLazyConversationQuery,
  useConversationsOfUserBotQuery,
  useDeleteConversationMutation,
  useRequestHumanMutation,
  usePublicBotQuery,
  useVisitorIdentityMutation,
  useSubmitLeadMutation,
  useLeaveContactMutation,
} = chatApi;
