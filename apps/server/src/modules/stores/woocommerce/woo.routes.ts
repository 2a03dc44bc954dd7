import {
  Id,
  MessageResponse,
  STORE_TEXTS,
  Store,
  StoreItem,
  StoreItemList,
  StoreList,
  StoreResponse,
  StoreTaskResponse,
  TrackingResponse,
  TrainingStatusResponse,
  WOO_TYPES,
  WooConnectBody,
  WooContentTrainBody,
  WooItemParams,
  WooListQuery,
  WooStoreParams,
  WooSyncBody,
  WooTestResponse,
  WooTrainBody,
  type WooType,
  WooTypeParams,
} from '@parley/contracts';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../../core/http/request-context.js';
import { sharedStoreRoutes, taskReply } from '../core/store-routes.js';
import { toItem as toItemOf } from '../stores.queries.js';
import { storeRecords } from '../stores.schema.js';
import { verifyWooSignature } from './woo.adapter.js';
import type { WooService } from './woo.service.js';

const tags = ['WooCommerce'];
const TrainTypeParams = WooStoreParams.extend({
  type: z.enum(Object.keys(WOO_TYPES) as [WooType, ...WooType[]], { error: 'Unknown content type' }),
});

/** The spec's calls under /woocommerce (integrations-and-billing.md section 7). */
export const wooRoutes =
  (woo: WooService): FastifyPluginAsyncZod =>
  async (app) => {
    const { core } = woo;

    app.get(
      '/woocommerce/stores',
      { schema: { tags, summary: 'Connected WooCommerce stores', response: { 200: StoreList } } },
      async (request) => ({
        stores: await core.list(requireAuth(request).tenantId, 'woocommerce'),
      }),
    );
    app.post(
      '/woocommerce/connect',
      {
        schema: {
          tags,
          summary: 'Connect a store with its REST API keys (tried first, sealed at rest)',
          body: WooConnectBody,
          response: { 201: StoreResponse },
        },
      },
      async (request, reply) => reply.status(201).send(await woo.connect(requireAuth(request), request.body)),
    );
    app.post(
      '/woocommerce/stores/:id/test',
      {
        schema: {
          tags,
          summary: "Try the store's keys now",
          params: WooStoreParams,
          response: { 200: WooTestResponse },
        },
      },
      async (request) => woo.test(requireAuth(request), request.params.id),
    );
    app.get(
      '/woocommerce/stores/:id',
      { schema: { tags, summary: 'One store', params: WooStoreParams, response: { 200: Store } } },
      async (request) => core.describe(requireAuth(request).tenantId, 'woocommerce', request.params.id),
    );
    app.delete(
      '/woocommerce/stores/:id',
      {
        schema: {
          tags,
          summary: 'Disconnect a store: its records and their knowledge are deleted',
          params: WooStoreParams,
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        await core.deleteStore(requireAuth(request).tenantId, 'woocommerce', request.params.id);
        return { message: STORE_TEXTS.wooDisconnected };
      },
    );

    app.post(
      '/woocommerce/stores/:id/:type/sync',
      {
        schema: {
          tags,
          summary: 'Sync one content type (a job)',
          params: WooTypeParams,
          body: WooSyncBody.optional(),
          response: { 202: StoreTaskResponse },
        },
      },
      async (request, reply) => {
        const { tenantId } = requireAuth(request);
        const kind = woo.kindOf(request.params.type);
        const limit = request.body?.limit ?? WooSyncBody.parse({}).limit;
        const taskId = await core.startSync(tenantId, 'woocommerce', request.params.id, [kind], limit, false);
        return reply.status(202).send(taskReply(STORE_TEXTS.syncStarted, taskId));
      },
    );

    app.post(
      '/woocommerce/stores/:id/content/train',
      {
        schema: {
          tags,
          summary: 'Train one content type (a job)',
          params: WooStoreParams,
          body: WooContentTrainBody,
          response: { 202: StoreTaskResponse },
        },
      },
      async (request, reply) => {
        const { tenantId } = requireAuth(request);
        const kind = woo.kindOf(request.body.content_type);
        const taskId = await core.startTraining(tenantId, 'woocommerce', request.params.id, [kind], false);
        return reply.status(202).send(taskReply(STORE_TEXTS.trainingStarted, taskId));
      },
    );
    app.delete(
      '/woocommerce/stores/:id/content/train/:type',
      {
        schema: {
          tags,
          summary: "Forget a content type's training",
          params: TrainTypeParams,
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        await core.clearTraining(
          requireAuth(request).tenantId,
          'woocommerce',
          request.params.id,
          woo.kindOf(request.params.type),
        );
        return { message: STORE_TEXTS.trainingCleared };
      },
    );
    app.post(
      '/woocommerce/stores/:id/train',
      {
        schema: {
          tags,
          summary: 'Train content types (products, categories, pages, coupons by default)',
          params: WooStoreParams,
          body: WooTrainBody,
          response: { 202: StoreTaskResponse },
        },
      },
      async (request, reply) => {
        const { tenantId } = requireAuth(request);
        const kinds = woo.kindsOf(request.body.content_types, true);
        const taskId = await core.startTraining(
          tenantId,
          'woocommerce',
          request.params.id,
          kinds,
          request.body.retrain,
        );
        return reply.status(202).send(taskReply(STORE_TEXTS.trainingStarted, taskId));
      },
    );
    for (const path of [
      '/woocommerce/stores/:id/training/status',
      '/woocommerce/stores/training/detailed-status/:id',
    ]) {
      app.get(
        path,
        {
          schema: {
            tags,
            summary: 'Training per content type and the global flags',
            params: WooStoreParams,
            response: { 200: TrainingStatusResponse },
          },
        },
        async (request) =>
          core.trainingStatus(requireAuth(request).tenantId, 'woocommerce', request.params.id),
      );
    }

    app.get(
      '/woocommerce/stores/:id/:type',
      {
        schema: {
          tags,
          summary: 'Synced records of a content type',
          params: WooTypeParams,
          querystring: WooListQuery,
          response: { 200: StoreItemList },
        },
      },
      async (request) => {
        const { tenantId } = requireAuth(request);
        const q = request.query;
        return core.records(tenantId, 'woocommerce', request.params.id, woo.kindOf(request.params.type), {
          search: q.search,
          status: q.status,
          where: dataFilters(q),
          page: q.page,
          limit: q.per_page,
        });
      },
    );
    app.get(
      '/woocommerce/stores/:id/orders/:itemId/tracking',
      {
        schema: {
          tags,
          summary: "An order's tracking: shipment-tracking meta and the order's notes",
          params: WooStoreParams.extend({ itemId: Id }),
          response: { 200: TrackingResponse },
        },
      },
      async (request) => woo.tracking(requireAuth(request), request.params.id, request.params.itemId),
    );
    app.get(
      '/woocommerce/stores/:id/:type/:itemId',
      { schema: { tags, summary: 'One record', params: WooItemParams, response: { 200: StoreItem } } },
      async (request) => {
        const { tenantId } = requireAuth(request);
        const store = await core.own(tenantId, 'woocommerce', request.params.id);
        return toItemOf(
          await core.record(tenantId, store.id, woo.kindOf(request.params.type), {
            id: request.params.itemId,
          }),
        );
      },
    );
    app.delete(
      '/woocommerce/stores/:id/:type/:itemId',
      {
        schema: {
          tags,
          summary: 'Delete a product, page, category or coupon and its knowledge',
          params: WooItemParams,
          response: { 200: MessageResponse },
        },
      },
      async (request) => {
        const { tenantId } = requireAuth(request);
        const kind = woo.deletable(request.params.type);
        const store = await core.own(tenantId, 'woocommerce', request.params.id);
        await core.deleteRecord(tenantId, store.id, kind, { id: request.params.itemId });
        return { message: STORE_TEXTS.deleted };
      },
    );

    await app.register(
      sharedStoreRoutes({
        platform: 'woocommerce',
        core,
        tags,
        storePath: '/woocommerce/stores/:id',
        syncPath: '/woocommerce/stores/:id',
        kindsOf: (types) => woo.kindsOf(types, false),
      }),
    );
    await app.register(webhookRoute(woo));
  };

/** WooCommerce's own list filters that live in the record's data: featured products, a customer's orders. */
function dataFilters(query: z.output<typeof WooListQuery>): SQL[] {
  const filters: SQL[] = [];
  if (query.featured)
    filters.push(
      sql`coalesce((${storeRecords.data}->>'featured')::boolean, false) = ${query.featured === 'true'}`,
    );
  if (query.customer) {
    const customer = query.customer.toLowerCase();
    filters.push(
      sql`(${storeRecords.data}->>'customer_id' = ${customer} OR lower(${storeRecords.data}->>'email') = ${customer})`,
    );
  }
  return filters;
}

/**
 * POST /woocommerce/webhooks/{storeId}: signed with the store's own secret, checked on the raw
 * bytes before anything is parsed or stored. WooCommerce's creation ping (a form body without a
 * signature) is acknowledged and ignored.
 */
const webhookRoute =
  (woo: WooService): FastifyPluginAsyncZod =>
  async (app) => {
    const raw = { parseAs: 'buffer' as const, bodyLimit: 2 * 1024 * 1024 };
    app.addContentTypeParser('application/json', raw, (_req, body, done) => done(null, body));
    app.addContentTypeParser('application/x-www-form-urlencoded', raw, (_req, body, done) =>
      done(null, body),
    );
    app.post(
      '/woocommerce/webhooks/:id',
      {
        schema: {
          tags,
          summary: 'Deliveries from a store, signed with its webhook secret',
          params: z.object({ id: Id }),
        },
      },
      async (request, reply) => {
        const header = (name: string) => {
          const value = request.headers[name];
          return typeof value === 'string' ? value : undefined;
        };
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const store = await woo.storeForWebhook(request.params.id);
        const secret = store ? woo.core.webhookSecret(store) : null;
        const topic = header('x-wc-webhook-topic');
        if (!topic && /^webhook_id=\d+$/.test(body.toString('utf8'))) return reply.send({ ok: true });
        if (!store || !secret || !verifyWooSignature(body, header('x-wc-webhook-signature'), secret)) {
          return reply.code(401).send({ detail: 'Invalid signature' });
        }
        const deliveryId = header('x-wc-webhook-delivery-id');
        if (!topic || !deliveryId)
          return reply.code(400).send({ detail: 'Missing WooCommerce webhook headers' });
        let payload: unknown;
        try {
          payload = JSON.parse(body.toString('utf8'));
        } catch {
          return reply.code(400).send({ detail: 'The body is not JSON' });
        }
        await woo.receiveWebhook(store, { topic, deliveryId }, payload);
        return reply.send({ ok: true });
      },
    );
  };
