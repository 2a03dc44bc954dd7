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
import { safeEqual } from '../../core/crypto.js';
import { requireAuth } from '../../core/http/request-context.js';
import type { ModuleDeps } from '../../core/module.js';
import type { AccountsService } from './accounts.service.js';
import type { MessagingService } from './messaging.service.js';
import { eventsOf, signatureValid } from './webhook.js';

const WebhookVerifyQuery = z.object({
  'hub.mode': z.string().max(50).optional(),
  'hub.verify_token': z.string().max(500).optional(),
  'hub.challenge': z.string().max(500).optional(),
  /** The spec's shorter form (console.md: GET /social/instagram/webhook?verify_token). */
  verify_token: z.string().max(500).optional(),
});

/** The same set of routes under /social/instagram and /social/messenger (console.md, Social). */
export const socialRoutes =
  (deps: ModuleDeps, accounts: AccountsService, messaging: MessagingService): FastifyPluginAsyncZod =>
  async (app) => {
    for (const channel of SOCIAL_CHANNELS) {
      await app.register(accountRoutes(channel, accounts));
      await app.register(webhookRoutes(channel, deps, messaging));
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

/**
 * Meta's webhook. GET answers the subscription check; POST checks the signature on the raw bytes
 * before anything else, queues the events and answers at once (Meta retries slow answers).
 */
function webhookRoutes(
  channel: SocialChannel,
  deps: ModuleDeps,
  messaging: MessagingService,
): FastifyPluginAsyncZod {
  const tags = [channel === 'instagram' ? 'Instagram' : 'Messenger'];
  const path = `/social/${channel}/webhook`;
  return async (app) => {
    // Only in this scope: the body stays bytes, as signed.
    app.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: 1024 * 1024 },
      (_req, body, done) => done(null, body),
    );
    app.get(
      path,
      { schema: { tags, summary: "Meta's subscription check", querystring: WebhookVerifyQuery } },
      async (request, reply) => {
        const query = request.query;
        const token = query['hub.verify_token'] ?? query.verify_token ?? '';
        const expected = deps.config.META_VERIFY_TOKEN;
        if (
          !expected ||
          !safeEqual(token, expected) ||
          (query['hub.mode'] && query['hub.mode'] !== 'subscribe')
        )
          return reply.code(403).send({ detail: 'Verification token mismatch' });
        return reply.type('text/plain').send(query['hub.challenge'] ?? '');
      },
    );
    app.post(
      path,
      { schema: { tags, summary: 'Deliveries from Meta, signed with the app secret' } },
      async (request, reply) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = request.headers['x-hub-signature-256'];
        if (
          !signatureValid(
            raw,
            typeof signature === 'string' ? signature : undefined,
            deps.config.META_APP_SECRET,
          )
        )
          return reply.code(401).send({ detail: 'Invalid signature' });
        let payload: unknown;
        try {
          payload = JSON.parse(raw.toString('utf8'));
        } catch {
          return reply.code(400).send({ detail: 'The body is not JSON' });
        }
        await messaging.receive(channel, eventsOf(channel, payload));
        return reply.type('text/plain').send('EVENT_RECEIVED');
      },
    );
  };
}
