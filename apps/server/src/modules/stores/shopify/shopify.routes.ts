import type { StoreKind } from '@parley/contracts';
import {
  CancelOrderBody,
  GlobalTrainingBody,
  Id,
  IdParams,
  MessageResponse,
  RefundOrderBody,
  ShopifyCallbackBody,
  ShopifyConnectBody,
  ShopifyConnectResponse,
  ShopifyCustomersQuery,
  ShopifyDeleteParams,
  ShopifyDeleteQuery,
  ShopifyListQuery,
  ShopifyOrdersQuery,
  ShopifySyncBody,
  ShopifyTrainBody,
  ShopifyTypeParams,
  STORE_TEXTS,
  StoreItem,
  StoreItemList,
  StoreList,
  StoreResponse,
  StoreTaskResponse,
  TrainingStatusResponse,
} from '@parley/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../../core/http/request-context.js';
import { sharedStoreRoutes, taskReply } from '../core/store-routes.js';
import { verifyWebhook } from './shopify.hmac.js';
import type { ShopifyService } from './shopify.service.js';

const tags = ['Shopify'];
const OrderResponse = z.object({ message: z.string(), order: StoreItem });
const StoreIdParams = z.object({ storeId: Id });
/** A list asked with force_refresh reads up to this many records from Shopify first (a bounded request). */
const REFRESH_LIMIT = 1000;

/** The spec's calls under /shopify and /integrations/shopify (integrations-and-billing.md section 7). */
export const shopifyRoutes =
  (shopify: ShopifyService): FastifyPluginAsyncZod =>
  async (app) => {
    const { core } = shopify;
    const list = async (tenantId: number, kind: StoreKind, query: z.output<typeof ShopifyListQuery>) => {
      if (query.force_refresh)
        await core.refreshNow(await core.own(tenantId, 'shopify', query.store_id), kind, REFRESH_LIMIT);
      return core.records(tenantId, 'shopify', query.store_id, kind, {
        search: query.query,
        page: query.page,
        limit: query.limit,
      });
    };

    app.post(
      '/shopify/connect',
      {
        schema: {
          tags,
          summary: "Shopify's consent page for a shop, with a signed single-use state",
          body: ShopifyConnectBody,
          response: { 200: ShopifyConnectResponse },
        },
      },
      async (request) => ({ authorization_url: await shopify.connect(requireAuth(request), request.body) }),
    );
    app.post(
      '/shopify/callback',
      {
        schema: {
          tags,
          summary: 'Finish OAuth: HMAC and state checked, code exchanged, webhooks registered',
          body: ShopifyCallbackBody,
          response: { 201: StoreResponse },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await shopify.callback(requireAuth(request), request.body)),
    );
    app.get(
      '/shopify/stores',
      { schema: { tags, summary: 'Connected Shopify stores', response: { 200: StoreList } } },
      async (request) => ({
        stores: await core.list(requireAuth(request).tenantId, 'shopify'),
      }),
    );
    app.delete(
      '/shopify/stores/:id',
      {
        schema: {
          tags,
          summary: 'Disconnect a store: its records and their knowledge are deleted',
          params: IdParams,
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        await core.deleteStore(requireAuth(request).tenantId, 'shopify', request.params.id);
        return { message: STORE_TEXTS.shopifyDisconnected };
      },
    );

    app.get(
      '/shopify/orders',
      {
        schema: {
          tags,
          summary: 'Synced orders, newest first',
          querystring: ShopifyOrdersQuery,
          response: { 200: StoreItemList },
        },
      },
      async (request) => {
        const { tenantId } = requireAuth(request);
        const q = request.query;
        return core.records(tenantId, 'shopify', q.store_id, 'order', {
          search: q.query,
          status: q.status,
          page: q.page,
          limit: q.limit,
        });
      },
    );
    app.get(
      '/shopify/orders/:id',
      { schema: { tags, summary: 'One order', params: IdParams, response: { 200: StoreItem } } },
      async (request) => shopify.getOrder(requireAuth(request), request.params.id),
    );
    app.post(
      '/shopify/orders/:id/cancel',
      {
        schema: {
          tags,
          summary: 'Cancel an order on Shopify (an optional reason)',
          params: IdParams,
          body: CancelOrderBody.optional(),
          response: { 200: OrderResponse },
        },
      },
      async (request) => shopify.cancelOrder(requireAuth(request), request.params.id, request.body?.reason),
    );
    app.post(
      '/shopify/orders/:id/refund',
      {
        schema: {
          tags,
          summary: 'Refund an amount, or all that is left, on Shopify',
          params: IdParams,
          body: RefundOrderBody,
          response: { 200: OrderResponse },
        },
      },
      async (request) => shopify.refundOrder(requireAuth(request), request.params.id, request.body),
    );
    for (const kind of ['order', 'customer'] as const) {
      app.post(
        `/shopify/${kind}s/sync`,
        {
          schema: {
            tags,
            summary: `Sync ${kind}s (a job)`,
            body: ShopifySyncBody,
            response: { 202: StoreTaskResponse },
          },
        },
        async (request, reply) => {
          const { tenantId } = requireAuth(request);
          const taskId = await core.startSync(
            tenantId,
            'shopify',
            request.body.store_id,
            [kind],
            request.body.limit,
            false,
          );
          return reply.status(202).send(taskReply(STORE_TEXTS.syncStarted, taskId));
        },
      );
    }
    app.get(
      '/shopify/customers',
      {
        schema: {
          tags,
          summary: 'Synced customers',
          querystring: ShopifyCustomersQuery,
          response: { 200: StoreItemList },
        },
      },
      async (request) => list(requireAuth(request).tenantId, 'customer', request.query),
    );

    app.get(
      '/shopify/:type',
      {
        schema: {
          tags,
          summary: 'Synced records of a content type',
          params: ShopifyTypeParams,
          querystring: ShopifyListQuery,
          response: { 200: StoreItemList },
        },
      },
      async (request) =>
        list(requireAuth(request).tenantId, shopify.kindOf(request.params.type), request.query),
    );
    app.post(
      '/shopify/:type/sync',
      {
        schema: {
          tags,
          summary: 'Sync a content type (a job)',
          params: ShopifyTypeParams,
          body: ShopifySyncBody,
          response: { 202: StoreTaskResponse },
        },
      },
      async (request, reply) => {
        const { tenantId } = requireAuth(request);
        const kind = shopify.kindOf(request.params.type);
        const taskId = await core.startSync(
          tenantId,
          'shopify',
          request.body.store_id,
          [kind],
          request.body.limit,
          false,
        );
        return reply.status(202).send(taskReply(STORE_TEXTS.syncStarted, taskId));
      },
    );
    app.post(
      '/shopify/:type/train/:storeId',
      {
        schema: {
          tags,
          summary: 'Train a content type into the store knowledge (a job)',
          params: ShopifyTypeParams.extend({ storeId: Id }),
          response: { 202: StoreTaskResponse },
        },
      },
      async (request, reply) => {
        const { tenantId } = requireAuth(request);
        const kind = shopify.kindOf(request.params.type);
        const taskId = await core.startTraining(tenantId, 'shopify', request.params.storeId, [kind], false);
        return reply.status(202).send(taskReply(STORE_TEXTS.trainingStarted, taskId));
      },
    );
    app.delete(
      '/shopify/:type/:id',
      {
        schema: {
          tags,
          summary: "Delete a record by Parley's id, or by Shopify's with by_shopify_id",
          params: ShopifyDeleteParams,
          querystring: ShopifyDeleteQuery,
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        const { tenantId } = requireAuth(request);
        const kind = shopify.kindOf(request.params.type);
        const store = await core.own(tenantId, 'shopify', request.query.store_id);
        await core.deleteRecord(
          tenantId,
          store.id,
          kind,
          recordKey(request.params.id, request.query.by_shopify_id, kind),
        );
        return { message: STORE_TEXTS.deleted };
      },
    );
    app.post(
      '/shopify/train/:storeId',
      {
        schema: {
          tags,
          summary: 'Train content types (a job)',
          params: StoreIdParams,
          body: ShopifyTrainBody,
          response: { 202: StoreTaskResponse },
        },
      },
      async (request, reply) => {
        const { tenantId } = requireAuth(request);
        const kinds = shopify.kindsOf(request.body.content_types, true);
        const taskId = await core.startTraining(tenantId, 'shopify', request.params.storeId, kinds, false);
        return reply.status(202).send(taskReply(STORE_TEXTS.trainingStarted, taskId));
      },
    );
    app.post(
      '/integrations/shopify/stores/:id/training/global',
      {
        schema: {
          tags,
          summary: 'Train every content type, or the ones given',
          params: IdParams,
          body: GlobalTrainingBody,
          response: { 202: StoreTaskResponse },
        },
      },
      async (request, reply) => {
        const { tenantId } = requireAuth(request);
        const kinds = shopify.kindsOf(request.body.content_types, true);
        const taskId = await core.startTraining(
          tenantId,
          'shopify',
          request.params.id,
          kinds,
          request.body.retrain,
        );
        return reply.status(202).send(taskReply(STORE_TEXTS.trainingStarted, taskId));
      },
    );
    app.get(
      '/shopify/stores/training/detailed-status/:storeId',
      {
        schema: {
          tags,
          summary: 'Training per content type and the global flags',
          params: StoreIdParams,
          response: { 200: TrainingStatusResponse },
        },
      },
      async (request) =>
        core.trainingStatus(requireAuth(request).tenantId, 'shopify', request.params.storeId),
    );

    await app.register(
      sharedStoreRoutes({
        platform: 'shopify',
        core,
        tags,
        storePath: '/shopify/stores/:id',
        syncPath: '/integrations/shopify/stores/:id',
        kindsOf: (types) => shopify.kindsOf(types, false),
      }),
    );
    await app.register(webhookRoute(shopify));
  };

/** Shopify's ids: "gid://shopify/Product/123" or the number alone. */
function recordKey(
  id: string,
  byShopifyId: boolean,
  kind: StoreKind,
): { id: number } | { externalId: string } {
  if (!byShopifyId) {
    if (!/^[1-9]\d{0,9}$/.test(id) || Number(id) > 2_147_483_647) return { id: 0 };
    return { id: Number(id) };
  }
  if (id.startsWith('gid://')) return { externalId: id };
  return { externalId: `gid://shopify/${GID_TYPES[kind] ?? kind}/${id}` };
}

const GID_TYPES: Partial<Record<StoreKind, string>> = {
  product: 'Product',
  collection: 'Collection',
  blog_article: 'Article',
  policy: 'ShopPolicy',
  discount: 'DiscountCodeNode',
  order: 'Order',
  customer: 'Customer',
};

/** POST /shopify/webhooks: the HMAC of the raw bytes is checked before anything is parsed or stored. */
const webhookRoute =
  (shopify: ShopifyService): FastifyPluginAsyncZod =>
  async (app) => {
    app.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer', bodyLimit: 2 * 1024 * 1024 },
      (_req, body, done) => done(null, body),
    );
    app.post(
      '/shopify/webhooks',
      { schema: { tags, summary: 'Deliveries from Shopify, signed with the app secret' } },
      async (request, reply) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const header = (name: string) => {
          const value = request.headers[name];
          return typeof value === 'string' ? value : undefined;
        };
        const secret = shopify.deps.config.SHOPIFY_API_SECRET;
        if (!secret || !verifyWebhook(raw, header('x-shopify-hmac-sha256'), secret)) {
          return reply.code(401).send({ detail: 'Invalid signature' });
        }
        const topic = header('x-shopify-topic');
        const shop = header('x-shopify-shop-domain');
        const eventId = header('x-shopify-event-id') ?? header('x-shopify-webhook-id');
        if (!topic || !shop || !eventId)
          return reply.code(400).send({ detail: 'Missing Shopify webhook headers' });
        let payload: unknown;
        try {
          payload = JSON.parse(raw.toString('utf8'));
        } catch {
          return reply.code(400).send({ detail: 'The body is not JSON' });
        }
        await shopify.receiveWebhook({ topic, shop: shop.toLowerCase(), eventId }, payload);
        return reply.send({ ok: true });
      },
    );
  };
