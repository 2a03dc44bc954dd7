import {
  ActivateShopifySubscriptionQuery,
  CancelShopifySubscriptionBody,
  CreateShopifySubscriptionBody,
  IdParams,
  ShopifySubscriptionCheckout,
  ShopifySubscriptionList,
  Subscription,
} from '@parley/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../../core/http/request-context.js';
import type { ModuleDeps } from '../../../core/module.js';
import { ShopifyBillingService } from './shopify-billing.service.js';

const tags = ['Shopify billing'];

/**
 * The spec's /shopify/subscriptions calls (integrations-and-billing.md section 7 "Shopify billing"):
 * a plan paid through Shopify's app billing on the workspace's connected shop. Shopify's
 * app_subscriptions/update webhook arrives with the store's others (POST /shopify/webhooks).
 */
export const shopifyBillingRoutes =
  (deps: ModuleDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const billing = new ShopifyBillingService(deps);
    app.post(
      '/shopify/subscriptions/create',
      {
        schema: {
          tags,
          summary: "A recurring app charge for the plan and cycle, with Shopify's page to approve it",
          body: CreateShopifySubscriptionBody,
          response: { 201: ShopifySubscriptionCheckout },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await billing.create(requireAuth(request), request.body)),
    );
    app.get(
      '/shopify/subscriptions/activate',
      {
        schema: {
          tags,
          summary: 'On return from Shopify: the subscription takes the state Shopify gives its charge',
          querystring: ActivateShopifySubscriptionQuery,
          response: { 200: Subscription },
        },
      },
      async (request) =>
        billing.activate(requireAuth(request), request.query.subscription_id, request.query.store_id),
    );
    app.post(
      '/shopify/subscriptions/cancel',
      {
        schema: {
          tags,
          summary: 'Cancel the app charge at Shopify now; auto_renew becomes false',
          body: CancelShopifySubscriptionBody,
          response: { 200: Subscription },
        },
      },
      async (request) =>
        billing.cancel(requireAuth(request), request.body.subscription_id, request.body.store_id),
    );
    app.get(
      '/shopify/subscriptions/user/:id',
      {
        schema: {
          tags,
          summary: "The workspace's subscriptions billed through Shopify (the caller's own user id)",
          params: IdParams,
          response: { 200: ShopifySubscriptionList },
        },
      },
      async (request) => billing.ofUser(requireAuth(request), request.params.id),
    );
  };
