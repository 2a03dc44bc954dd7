import {
  AssigneeBody,
  ChatMessage,
  Conversation,
  ConversationNote,
  HandoffEvent,
  IdParams,
  InboxConversation,
  InboxList,
  InboxQuery,
  NoteBody,
  TenantIdParams,
} from '@parley/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../core/http/request-context.js';
import type { ChatService } from '../chat/chat.service.js';
import type { InboxService } from './inbox.service.js';

const tags = ['Hand-off'];

/** The hand-off's REST side (HANDOFF_ROUTE_RULES); visitors ask over the chat socket (request_human). */
export const handoffRoutes =
  (inbox: InboxService, chat: ChatService): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/chat/chats/:id/request-human',
      {
        schema: {
          tags,
          summary:
            'The playground\'s "Talk to a person": the conversation waits for an agent; answers the notice shown',
          params: IdParams,
          response: { 200: ChatMessage },
        },
      },
      async (request) => {
        const auth = requireAuth(request);
        const actor = { kind: 'user' as const, tenantId: auth.tenantId, userId: auth.userId };
        const conversation = await chat.conversationFor(actor, request.params.id);
        return chat.requestHuman(actor, conversation.botId, conversation.id);
      },
    );
    app.get(
      '/chat/helpdesk/inbox/:tenantId',
      {
        schema: {
          tags,
          summary:
            'The inbox by filter (needs a person: oldest waiting first), with search and per-filter counts; test chats only on request',
          params: TenantIdParams,
          querystring: InboxQuery,
          response: { 200: InboxList },
        },
      },
      async (request) => {
        const { filter, search, bot_id, include_tests, limit } = request.query;
        return inbox.list(requireAuth(request), request.params.tenantId, {
          filter,
          search,
          botId: bot_id,
          includeTests: include_tests,
          limit,
        });
      },
    );
    app.post(
      '/chat/helpdesk/conversations/:id/close',
      {
        schema: {
          tags,
          summary: 'Close a conversation (the visitor is told; writing again reopens it)',
          params: IdParams,
          response: { 200: Conversation },
        },
      },
      async (request) => inbox.close(requireAuth(request), request.params.id),
    );
    app.post(
      '/chat/helpdesk/conversations/:id/reopen',
      {
        schema: {
          tags,
          summary: 'Reopen a closed conversation: the bot answers it again',
          params: IdParams,
          response: { 200: Conversation },
        },
      },
      async (request) => inbox.reopen(requireAuth(request), request.params.id),
    );
    app.put(
      '/chat/helpdesk/conversations/:id/assignee',
      {
        schema: {
          tags,
          summary: 'Assign a conversation to a teammate, or to nobody (user_id null)',
          params: IdParams,
          body: AssigneeBody,
          response: { 200: InboxConversation },
        },
      },
      async (request) => inbox.assign(requireAuth(request), request.params.id, request.body.user_id),
    );
    app.get(
      '/chat/helpdesk/conversations/:id/notes',
      {
        schema: {
          tags,
          summary: "A conversation's internal notes, oldest first (agents only)",
          params: IdParams,
          response: { 200: z.array(ConversationNote) },
        },
      },
      async (request) => inbox.notes(requireAuth(request), request.params.id),
    );
    app.post(
      '/chat/helpdesk/conversations/:id/notes',
      {
        schema: {
          tags,
          summary: 'Add an internal note: agents see it, the visitor never does',
          params: IdParams,
          body: NoteBody,
          response: { 201: ConversationNote },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await inbox.addNote(requireAuth(request), request.params.id, request.body.body)),
    );
    app.get(
      '/chat/helpdesk/conversations/:id/events',
      {
        schema: {
          tags,
          summary: "A conversation's hand-off transitions: from, to, why, who and when",
          params: IdParams,
          response: { 200: z.array(HandoffEvent) },
        },
      },
      async (request) => inbox.events(requireAuth(request), request.params.id),
    );
  };
