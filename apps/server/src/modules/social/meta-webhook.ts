import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { safeEqual } from '../../core/crypto.js';
import type { ModuleDeps } from '../../core/module.js';
import { signatureValid } from './webhook.js';

const WebhookVerifyQuery = z.object({
  'hub.mode': z.string().max(50).optional(),
  'hub.verify_token': z.string().max(500).optional(),
  'hub.challenge': z.string().max(500).optional(),
  /** The spec's shorter form (console.md: GET /social/instagram/webhook?verify_token). */
  verify_token: z.string().max(500).optional(),
});

/**
 * A Meta webhook (Instagram, Messenger, WhatsApp). GET answers the subscription check with the
 * verify token; POST checks the signature on the raw bytes before anything else, hands the parsed
 * delivery to `receive` and answers at once (Meta retries slow answers).
 */
export function metaWebhookRoutes(options: {
  path: string;
  tags: string[];
  deps: ModuleDeps;
  receive: (payload: unknown) => Promise<unknown>;
}): FastifyPluginAsyncZod {
  const { path, tags, deps, receive } = options;
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
        await receive(payload);
        return reply.type('text/plain').send('EVENT_RECEIVED');
      },
    );
  };
}
