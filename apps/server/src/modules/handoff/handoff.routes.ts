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
  LeftContactBody,
  NoteBody,
  TenantIdParams,
} from '@parley/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../core/errors.js';
import { perIpLimit } from '../../core/http/ip-limit.js';
import { requireAuth } from '../../core/http/request-context.js';
import type { Actor, ChatService } from '../chat/chat.service.js';
import type { InboxService } from './inbox.service.js';

/** A widget visitor from their token and the page's Origin; null when the token is not valid. */
export type VisitorResolver = (token: string, origin: string | undefined) => Promise<Actor | null>;

/** Contact forms one IP address may send per window (a person sends one, maybe a correction). */
const CONTACT_PER_IP = { points: 10, seconds: 600 };

const tags = ['Hand-off'];

/** The hand-off's REST side (HANDOFF_ROUTE_RULES); visitors ask over the chat socket (request_human). */
export const handoffRoutes =
  (inbox: InboxService, chat: ChatService, visitorOf: VisitorResolver): FastifyPluginAsyncZod =>
  async (app) => {
    const contactLimit = perIpLimit('contact', CONTACT_PER_IP.points, CONTACT_PER_IP.seconds);
    app.post(
      '/chat/conversations/:id/contact',
      {
        schema: {
          tags,
          summary:
            'The contact form of a visitor nobody could come to: kept as a lead of the conversation, told to both sides, announced to the inbox (400 when it was not offered)',
          security: [],
          params: IdParams,
          body: LeftContactBody,
          response: { 201: ChatMessage },
        },
        preHandler: contactLimit,
      },
      async (request, reply) => {
        const { visitor_token, ...details } = request.body;
        const visitor = visitor_token ? await visitorOf(visitor_token, request.headers.origin) : null;
        const actor: Actor | null =
          visitor ??
          (request.auth && !visitor_token
            ? { kind: 'user', tenantId: request.auth.tenantId, userId: request.auth.userId }
            : null);
        if (!actor) throw notFound('Conversation not found');
        return reply.status(201).send(await chat.leaveContact(actor, request.params.id, details));
      },
    );
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
