import {
  type ChatMessage,
  type Conversation,
  type ConversationNote,
  type ConversationWithMessages,
  type GroupedChat,
  type HandoffEvent,
  HELPDESK_THREAD_PAGE,
  type HelpdeskControlBody,
  type HelpdeskControlStatus,
  type HelpdeskConversation,
  type InboxConversation,
  type InboxFilter,
  type InboxList,
  type MessageResponse,
  type Teammate,
  type UnreadConversations,
} from '@parley/contracts';
import { api } from '../../shared/api/base-api';
import { refreshedThread, withEarlier } from './thread-pages';

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
    /** The open thread: its newest page (older ones join it through helpdeskEarlier). */
    helpdeskConversation: build.query<HelpdeskConversation, number>({
      query: (id) => ({
        url: `/chat/helpdesk/conversations/${id}`,
        params: { limit: String(HELPDESK_THREAD_PAGE) },
      }),
      providesTags: (_result, _error, id) => [{ type: 'HelpdeskConversation', id }],
      // Read again, it keeps the older messages the agent scrolled to.
      merge: (current, incoming) => refreshedThread(current, incoming),
    }),
    /** A page of older messages, put above the open thread's (it is not kept on its own). */
    helpdeskEarlier: build.query<HelpdeskConversation, { id: number; beforeSeq: number }>({
      query: ({ id, beforeSeq }) => ({
        url: `/chat/helpdesk/conversations/${id}`,
        params: { before_seq: String(beforeSeq), limit: String(HELPDESK_THREAD_PAGE) },
      }),
      keepUnusedDataFor: 0,
      async onQueryStarted({ id }, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(
            inboxApi.util.updateQueryData('helpdeskConversation', id, (draft) => withEarlier(draft, data)),
          );
        } catch {
          // Shown by the shared error toast; scrolling up again tries again.
        }
      },
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
  useLazyHelpdeskEarlierQuery,
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
