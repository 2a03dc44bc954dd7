import {
  CreateSocialAccountBody,
  ExchangeTokenBody,
  ExchangeTokenResult,
  IdParams,
  LinkBotBody,
  MessageResponse,
  SOCIAL_CHANNELS,
  SocialAccount,
  SocialAuthorize,
  type SocialChannel,
  UnlinkBotBody,
} from '@parley/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../core/http/request-context.js';
import type { ModuleDeps } from '../../core/module.js';
import type { AccountsService } from './accounts.service.js';
import type { MessagingService } from './messaging.service.js';
import { metaWebhookRoutes } from './meta-webhook.js';
import { eventsOf } from './webhook.js';

/** The same set of routes under /social/instagram and /social/messenger (console.md, Social). */
export const socialRoutes =
  (deps: ModuleDeps, accounts: AccountsService, messaging: MessagingService): FastifyPluginAsyncZod =>
  async (app) => {
    for (const channel of SOCIAL_CHANNELS) {
      await app.register(accountRoutes(channel, accounts));
      await app.register(
        metaWebhookRoutes({
          path: `/social/${channel}/webhook`,
          tags: [channel === 'instagram' ? 'Instagram' : 'Messenger'],
          deps,
          receive: (payload) => messaging.receive(channel, eventsOf(channel, payload)),
        }),
      );
    }
  };

function accountRoutes(channel: SocialChannel, accounts: AccountsService): FastifyPluginAsyncZod {
  const tags = [channel === 'instagram' ? 'Instagram' : 'Messenger'];
  const base = `/social/${channel}`;
  return async (app) => {
    app.get(
      `${base}/authorize`,
      {
        schema: {
          tags,
          summary: 'The Facebook Login dialog, with a signed single-use state',
          response: { 200: SocialAuthorize },
        },
      },
      async (request) => accounts.authorizeUrl(requireAuth(request), channel),
    );
    app.post(
      `${base}/exchange-token`,
      {
        schema: {
          tags,
          summary: "Facebook Login's code for page tokens; connects and subscribes the pages",
          body: ExchangeTokenBody,
          response: { 200: ExchangeTokenResult },
        },
      },
      async (request) => accounts.exchange(requireAuth(request), channel, request.body),
    );
    app.get(
      `${base}/accounts`,
      { schema: { tags, summary: 'Connected accounts', response: { 200: z.array(SocialAccount) } } },
      async (request) => accounts.list(requireAuth(request), channel),
    );
    app.post(
      `${base}/accounts`,
      {
        schema: {
          tags,
          summary: 'Connects one page with its page access token',
          body: CreateSocialAccountBody,
          response: { 201: SocialAccount },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await accounts.create(requireAuth(request), channel, request.body)),
    );
    app.get(
      `${base}/accounts/:id`,
      {
        schema: {
          tags,
          summary: 'One connected account',
          params: IdParams,
          response: { 200: SocialAccount },
        },
      },
      async (request) => accounts.get(requireAuth(request), channel, request.params.id),
    );
    app.delete(
      `${base}/accounts/:id`,
      {
        schema: {
          tags,
          summary: 'Disconnects an account (unsubscribes its page)',
          params: IdParams,
          response: { 200: MessageResponse },
        },
      },
      async (request) => accounts.remove(requireAuth(request), channel, request.params.id),
    );
    app.post(
      `${base}/link-bot`,
      {
        schema: {
          tags,
          summary: 'Links a bot to the account',
          body: LinkBotBody,
          response: { 200: MessageResponse },
        },
      },
      async (request) => accounts.link(requireAuth(request), channel, request.body),
    );
    app.post(
      `${base}/unlink-bot`,
      {
        schema: {
          tags,
          summary: 'Unlinks the bot of the account',
          body: UnlinkBotBody,
          response: { 200: MessageResponse },
        },
      },
      async (request) => accounts.unlink(requireAuth(request), channel, request.body),
    );
  };
}
