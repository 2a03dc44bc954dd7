import type {
  ChatMessage,
  Conversation,
  ConversationNote,
  ConversationWithMessages,
  GroupedChat,
  HandoffEvent,
  HelpdeskControlBody,
  HelpdeskControlStatus,
  InboxConversation,
  InboxFilter,
  InboxList,
  MessageResponse,
  Teammate,
  UnreadConversations,
} from '@parley/contracts';
import { api } from '../../shared/api/base-api';

const tagged = api.enhanceEndpoints({
  addTagTypes: [
    'HelpdeskGrouped',
    'HelpdeskUnread',
    'HelpdeskConversation',
    'HelpdeskInbox',
    'HelpdeskNotes',
    'HelpdeskEvents',
  ],
});

export type GroupedArgs = {
  tenantId: number;
  channel?: 'bot' | 'instagram' | 'messenger' | 'whatsapp';
  holder?: 'bot' | 'human';
  search?: string;
};

export type InboxArgs = { tenantId: number; filter: InboxFilter; search: string; includeTests: boolean };

/** What POST new-chat answers: the conversation (with or without its seeded messages). */
export type NewChatResult = Partial<ConversationWithMessages> & { id?: number; conversation_id?: number };

function groupedParams({ channel, holder, search }: GroupedArgs): Record<string, string> {
  const params: Record<string, string> = {};
  if (channel) params.channel = channel;
  if (holder) params.holder = holder;
  if (search?.trim()) params.search = search.trim();
  return params;
}

/**
 * The support inbox (console.md section 7 Chat and inbox; contracts helpdesk.ts). Mutations are
 * silent: the screen shows the server's detail itself (a 409 names the agent holding the chat).
 */
export const inboxApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    grouped: build.query<GroupedChat[], GroupedArgs>({
      query: (args) => ({ url: `/chat/helpdesk/grouped/${args.tenantId}`, params: groupedParams(args) }),
      providesTags: ['HelpdeskGrouped'],
    }),
    /** People an agent may assign a conversation to or mail about it (Inbox read; no Roles needed). */
    teammates: build.query<Teammate[], number>({
      query: (tenantId) => `/auth/user/teammates/${tenantId}`,
      providesTags: ['Users'],
    }),
    unread: build.query<UnreadConversations, number>({
      query: (tenantId) => `/chat/helpdesk/unread-conversations/${tenantId}`,
      providesTags: ['HelpdeskUnread'],
    }),
    helpdeskConversation: build.query<ConversationWithMessages, number>({
      query: (id) => `/chat/helpdesk/conversations/${id}`,
      providesTags: (_result, _error, id) => [{ type: 'HelpdeskConversation', id }],
    }),
    controlStatus: build.query<HelpdeskControlStatus, { id: number; tenantId: number }>({
      query: ({ id, tenantId }) => ({
        url: `/chat/conversations/${id}/helpdesk-control-status`,
        params: { tenant_id: String(tenantId) },
      }),
    }),
    setControl: build.mutation<HelpdeskControlStatus, { id: number; body: HelpdeskControlBody }>({
      query: ({ id, body }) => ({ url: `/chat/conversations/${id}/helpdesk-control`, method: 'PATCH', body }),
      extraOptions: { silent: true },
      invalidatesTags: (_result, _error, { id }) => [
        'HelpdeskGrouped',
        'HelpdeskInbox',
        { type: 'HelpdeskEvents', id },
      ],
    }),
    markRead: build.mutation<MessageResponse, number>({
      query: (id) => ({ url: `/chat/helpdesk/mark-conversation-read/${id}`, method: 'POST' }),
      extraOptions: { silent: true },
    }),
    reply: build.mutation<ChatMessage, { id: number; message: string }>({
      query: ({ id, message }) => ({
        url: `/chat/helpdesk/conversations/${id}/reply`,
        method: 'POST',
        body: { message },
      }),
      extraOptions: { silent: true },
    }),
    newChat: build.mutation<NewChatResult, number>({
      query: (botId) => ({ url: '/chat/helpdesk/new-chat', method: 'POST', body: { bot_id: botId } }),
      extraOptions: { silent: true },
      invalidatesTags: ['HelpdeskGrouped'],
    }),
    /** The hand-off inbox: a filter's conversations and every filter's counts. */
    inbox: build.query<InboxList, InboxArgs>({
      query: ({ tenantId, filter, search, includeTests }) => ({
        url: `/chat/helpdesk/inbox/${tenantId}`,
        params: {
          filter,
          include_tests: String(includeTests),
          ...(search.trim() ? { search: search.trim() } : {}),
        },
      }),
      providesTags: ['HelpdeskInbox'],
    }),
    closeConversation: build.mutation<Conversation, { id: number; reopen: boolean }>({
      query: ({ id, reopen }) => ({
        url: `/chat/helpdesk/conversations/${id}/${reopen ? 'reopen' : 'close'}`,
        method: 'POST',
      }),
      extraOptions: { silent: true },
      invalidatesTags: (_result, _error, { id }) => [
        'HelpdeskInbox',
        { type: 'HelpdeskConversation', id },
        { type: 'HelpdeskEvents', id },
      ],
    }),
    assign: build.mutation<InboxConversation, { id: number; userId: number | null }>({
      query: ({ id, userId }) => ({
        url: `/chat/helpdesk/conversations/${id}/assignee`,
        method: 'PUT',
        body: { user_id: userId },
      }),
      extraOptions: { silent: true },
      invalidatesTags: ['HelpdeskInbox'],
    }),
    notes: build.query<ConversationNote[], number>({
      query: (id) => `/chat/helpdesk/conversations/${id}/notes`,
      providesTags: (_result, _error, id) => [{ type: 'HelpdeskNotes', id }],
    }),
    addNote: build.mutation<ConversationNote, { id: number; body: string }>({
      query: ({ id, body }) => ({
        url: `/chat/helpdesk/conversations/${id}/notes`,
        method: 'POST',
        body: { body },
      }),
      extraOptions: { silent: true },
      invalidatesTags: (_result, _error, { id }) => ['HelpdeskInbox', { type: 'HelpdeskNotes', id }],
    }),
    /** Who moved the conversation between the bot, a person and closed; when and why. */
    handoffEvents: build.query<HandoffEvent[], number>({
      query: (id) => `/chat/helpdesk/conversations/${id}/events`,
      providesTags: (_result, _error, id) => [{ type: 'HelpdeskEvents', id }],
    }),
    deleteHelpdeskConversation: build.mutation<MessageResponse, number>({
      query: (id) => ({ url: `/chat/helpdesk/conversations/${id}`, method: 'DELETE' }),
      extraOptions: { silent: true },
      invalidatesTags: ['HelpdeskGrouped', 'HelpdeskUnread'],
    }),
  }),
});

export const {
  useGroupedQuery,
  useUnreadQuery,
  useHelpdeskConversationQuery,
  useSetControlMutation,
  useMarkReadMutation,
  useReplyMutation,
  useNewChatMutation,
  useDeleteHelpdeskConversationMutation,
  useInboxQuery,
  useCloseConversationMutation,
  useAssignMutation,
  useNotesQuery,
  useAddNoteMutation,
  useHandoffEventsQuery,
  useTeammatesQuery,
} = inboxApi;

/** The conversation id of a new-chat answer, whichever way the server names it. */
export function newChatId(result: NewChatResult): number | null {
  const id = result.conversation_id ?? result.id;
  return typeof id === 'number' ? id : null;
}
