import {
  AddAddonBody,
  AddonCheckoutResponse,
  CancelSubscriptionBody,
  CheckoutResponse,
  CreateSubscriptionBody,
  IdParams,
  InvoiceHistory,
  PAYMENT_TEXTS,
  Subscription,
  SubscriptionAddon,
  TenantIdParams,
  UpgradeSubscriptionBody,
} from '@parley/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest, unauthorized } from '../../../core/errors.js';
import { requireAuth } from '../../../core/http/request-context.js';
import type { ModuleDeps } from '../../../core/module.js';
import { PaymentsService } from './payments.service.js';
import { RazorpayEvent, RazorpayWebhook, verifySignature } from './payments.webhook.js';

const tags = ['Payments'];
const WebhookAck = z.object({ ok: z.boolean() });

/**
 * The spec's /payment calls (integrations-and-billing.md section 7) and Razorpay's webhook.
 * Mounted by the billing module; a server without Razorpay keys answers 400 on each.
 */
export const paymentRoutes =
  (deps: ModuleDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const payments = new PaymentsService(deps);
    app.post(
      '/payment/create-subscription',
      {
        schema: {
          tags,
          summary: 'A Razorpay subscription to a paid plan, with what Checkout needs to pay for it',
          body: CreateSubscriptionBody,
          response: { 201: CheckoutResponse },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await payments.createSubscription(requireAuth(request), request.body)),
    );
    app.post(
      '/payment/add-addon',
      {
        schema: {
          tags,
          summary: 'A Razorpay subscription to an add-on in a quantity, with what Checkout needs',
          body: AddAddonBody,
          response: { 201: AddonCheckoutResponse },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await payments.addAddon(requireAuth(request), request.body)),
    );
    app.post(
      '/payment/subscription/upgrade',
      {
        schema: {
          tags,
          summary: 'Move an active subscription to another plan now (Razorpay prorates)',
          body: UpgradeSubscriptionBody,
          response: { 200: Subscription },
        },
      },
      async (request) => payments.upgrade(requireAuth(request), request.body),
    );
    app.post(
      '/payment/cancel-subscription/:id',
      {
        schema: {
          tags,
          summary: 'Cancel at the end of the paid period (default) or now',
          params: IdParams,
          body: CancelSubscriptionBody.optional(),
          response: { 200: Subscription },
        },
      },
      async (request) =>
        payments.cancelSubscription(
          requireAuth(request),
          request.params.id,
          request.body?.at_period_end ?? true,
        ),
    );
    app.post(
      '/payment/cancel-addon-subscription/:id',
      {
        schema: {
          tags,
          summary: "Cancel an add-on's subscription at the end of the paid period (default) or now",
          params: IdParams,
          body: CancelSubscriptionBody.optional(),
          response: { 200: SubscriptionAddon },
        },
      },
      async (request) =>
        payments.cancelAddon(requireAuth(request), request.params.id, request.body?.at_period_end ?? true),
    );
    app.get(
      '/payment/invoice-history/:tenantId',
      {
        schema: {
          tags,
          summary: 'Every charge, newest first, with a PDF link for each paid one',
          params: TenantIdParams,
          response: { 200: InvoiceHistory },
        },
      },
      async (request) => payments.invoiceHistory(requireAuth(request), request.params.tenantId),
    );
    app.get(
      '/payment/invoices/:id/pdf',
      { schema: { tags, summary: "Parley's PDF invoice for a paid charge", params: IdParams } },
      async (request, reply) => {
        const { fileName, pdf } = await payments.invoicePdf(requireAuth(request), request.params.id);
        return reply
          .type('application/pdf')
          .header('content-disposition', `attachment; filename="${fileName}"`)
          .send(pdf);
      },
    );
    await app.register(webhookRoute(deps, new RazorpayWebhook(deps, payments)));
  };

/** POST /payment/razorpay/webhook: the signature of the raw bytes is checked before anything is parsed or stored. */
const webhookRoute =
  (deps: ModuleDeps, webhook: RazorpayWebhook): FastifyPluginAsyncZod =>
  async (app) => {
    app.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: 1024 * 1024 },
      (_req, body, done) => done(null, body),
    );
    app.post(
      '/payment/razorpay/webhook',
      {
        schema: {
          tags,
          summary: 'Deliveries from Razorpay, signed with the webhook secret',
          response: { 200: WebhookAck },
        },
      },
      async (request) => {
        const secret = deps.config.RAZORPAY_WEBHOOK_SECRET;
        if (!secret) throw badRequest(PAYMENT_TEXTS.notConfigured);
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = request.headers['x-razorpay-signature'];
        if (!verifySignature(raw, typeof signature === 'string' ? signature : undefined, secret))
          throw unauthorized(PAYMENT_TEXTS.invalidSignature);
        const eventId = request.headers['x-razorpay-event-id'];
        if (typeof eventId !== 'string' || !eventId || eventId.length > 100)
          throw badRequest('Missing X-Razorpay-Event-Id');
        const event = RazorpayEvent.safeParse(parseJson(raw));
        if (!event.success) throw badRequest('Not a Razorpay event');
        await webhook.receive(eventId, event.data);
        return { ok: true };
      },
    );
  };

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
}
