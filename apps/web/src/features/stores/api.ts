import type {
  GlobalSyncStatus,
  JobProgress,
  MessageResponse,
  Store,
  StoreItem,
  StoreItemList,
  StoreList,
  StorePlatform,
  StoreResponse,
  StoreTaskResponse,
  TrackingResponse as TrackingSchema,
  TrainingStatusResponse,
  WooTestResponse as WooTestSchema,
} from '@parley/contracts';
import { SYNC } from '@parley/contracts';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { z } from 'zod';
import { api } from '../../shared/api/base-api';
import type { CancelReason } from './model';
import { listParams } from './model';

export type WooTestResponse = z.infer<typeof WooTestSchema>;
export type TrackingResponse = z.infer<typeof TrackingSchema>;

export type StoreRef = { platform: StorePlatform; storeId: number };
export type ItemsArgs = StoreRef & { type: string; search: string; page: number; limit: number };
export type ItemArgs = StoreRef & { type: string; itemId: number };

const tagged = api.enhanceEndpoints({
  addTagTypes: ['Stores', 'StoreItems', 'StoreSync', 'StoreTraining', 'StoreOrder', 'Bots'],
});

const key = ({ platform, storeId }: StoreRef) => `${platform}-${storeId}`;
const itemsTag = (ref: StoreRef, type: string) => ({
  type: 'StoreItems' as const,
  id: `${key(ref)}-${type}`,
});

/** The store's base path: Shopify's lists take store_id as a query, WooCommerce's have it in the path. */
const woo = (storeId: number) => `/woocommerce/stores/${storeId}`;

/**
 * Online stores (integrations-and-billing.md section 7, Shopify and WooCommerce; contracts stores.ts).
 * Everything is silent: the screens show the server's detail, else the spec's default text (section 8).
 */
export const storesApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    shopifyStores: build.query<StoreList, void>({
      query: () => '/shopify/stores',
      extraOptions: { silent: true },
      providesTags: ['Stores'],
    }),
    wooStores: build.query<StoreList, void>({
      query: () => '/woocommerce/stores',
      extraOptions: { silent: true },
      providesTags: ['Stores'],
    }),
    /** One store: WooCommerce answers it directly; Shopify's comes from its list. */
    store: build.query<Store, StoreRef>({
      async queryFn(ref, _api, _extra, baseQuery) {
        if (ref.platform === 'woocommerce') {
          const result = await baseQuery(woo(ref.storeId));
          return result.error ? { error: result.error } : { data: result.data as Store };
        }
        const result = await baseQuery('/shopify/stores');
        if (result.error) return { error: result.error };
        const found = (result.data as StoreList).stores.find((s) => s.id === ref.storeId);
        if (found) return { data: found };
        const error: FetchBaseQueryError = { status: 404, data: { detail: 'Store not found' } };
        return { error };
      },
      extraOptions: { silent: true },
      providesTags: ['Stores'],
    }),

    connectShopify: build.mutation<{ authorization_url: string }, { shop_url: string; bot_id?: number }>({
      query: (body) => ({ url: '/shopify/connect', method: 'POST', body }),
      extraOptions: { silent: true },
    }),
    /** All of Shopify's query parameters (its HMAC covers them), plus bot_id. */
    shopifyCallback: build.mutation<StoreResponse, Record<string, string>>({
      query: (body) => ({ url: '/shopify/callback', method: 'POST', body }),
      extraOptions: { silent: true },
      invalidatesTags: ['Stores', 'Bots'],
    }),
    connectWoo: build.mutation<
      StoreResponse,
      { store_url: string; consumer_key: string; consumer_secret: string; name?: string; bot_id?: number }
    >({
      query: (body) => ({ url: '/woocommerce/connect', method: 'POST', body }),
      extraOptions: { silent: true },
      invalidatesTags: ['Stores', 'Bots'],
    }),
    testWoo: build.mutation<WooTestResponse, number>({
      query: (storeId) => ({ url: `${woo(storeId)}/test`, method: 'POST' }),
      extraOptions: { silent: true },
      invalidatesTags: ['Stores'],
    }),
    disconnectStore: build.mutation<MessageResponse, StoreRef>({
      query: ({ platform, storeId }) => ({
        url: platform === 'shopify' ? `/shopify/stores/${storeId}` : woo(storeId),
        method: 'DELETE',
      }),
      extraOptions: { silent: true },
      invalidatesTags: ['Stores', 'Bots'],
    }),
    /** Connects (link) or disconnects (unlink) a bot from the store. */
    linkStoreBot: build.mutation<MessageResponse, StoreRef & { botId: number; link: boolean }>({
      query: ({ platform, storeId, botId, link }) => ({
        url: `${platform === 'shopify' ? `/shopify/stores/${storeId}` : woo(storeId)}/${link ? 'link-bot' : 'unlink-bot'}`,
        method: 'POST',
        body: { bot_id: botId },
      }),
      extraOptions: { silent: true },
      invalidatesTags: ['Stores', 'Bots'],
    }),

    storeItems: build.query<StoreItemList, ItemsArgs>({
      query: (args) => ({
        url: args.platform === 'shopify' ? `/shopify/${args.type}` : `${woo(args.storeId)}/${args.type}`,
        params: listParams(args.platform, args.storeId, args),
      }),
      extraOptions: { silent: true },
      providesTags: (_r, _e, args) => [itemsTag(args, args.type)],
    }),
    storeItem: build.query<StoreItem, ItemArgs>({
      query: ({ platform, storeId, type, itemId }) =>
        platform === 'shopify' ? `/shopify/${type}/${itemId}` : `${woo(storeId)}/${type}/${itemId}`,
      extraOptions: { silent: true },
      providesTags: (_r, _e, { itemId }) => [{ type: 'StoreOrder', id: itemId }],
    }),
    wooTracking: build.query<TrackingResponse, { storeId: number; orderId: number }>({
      query: ({ storeId, orderId }) => `${woo(storeId)}/orders/${orderId}/tracking`,
      extraOptions: { silent: true },
    }),
    deleteStoreItem: build.mutation<MessageResponse, ItemArgs>({
      query: ({ platform, storeId, type, itemId }) =>
        platform === 'shopify'
          ? {
              url: `/shopify/${type}/${itemId}`,
              method: 'DELETE',
              params: { store_id: String(storeId), by_shopify_id: 'false' },
            }
          : { url: `${woo(storeId)}/${type}/${itemId}`, method: 'DELETE' },
      extraOptions: { silent: true },
      invalidatesTags: (_r, _e, args) => [itemsTag(args, args.type), 'Stores', 'StoreTraining'],
    }),

    /** Sync of one content type (orders and customers included). */
    syncType: build.mutation<StoreTaskResponse, StoreRef & { type: string; limit?: number }>({
      query: ({ platform, storeId, type, limit = SYNC.defaultLimit }) =>
        platform === 'shopify'
          ? { url: `/shopify/${type}/sync`, method: 'POST', body: { store_id: storeId, limit } }
          : { url: `${woo(storeId)}/${type}/sync`, method: 'POST', body: { limit } },
      extraOptions: { silent: true },
    }),
    /** Training of one content type. */
    trainType: build.mutation<StoreTaskResponse, StoreRef & { type: string }>({
      query: ({ platform, storeId, type }) =>
        platform === 'shopify'
          ? { url: `/shopify/${type}/train/${storeId}`, method: 'POST' }
          : { url: `${woo(storeId)}/content/train`, method: 'POST', body: { content_type: type } },
      extraOptions: { silent: true },
      invalidatesTags: (_r, _e, args) => [itemsTag(args, args.type), 'StoreTraining'],
    }),
    /** WooCommerce: what the bots learnt from a content type is removed. */
    untrainWooType: build.mutation<MessageResponse, { storeId: number; type: string }>({
      query: ({ storeId, type }) => ({ url: `${woo(storeId)}/content/train/${type}`, method: 'DELETE' }),
      extraOptions: { silent: true },
      invalidatesTags: (_r, _e, { storeId, type }) => [
        itemsTag({ platform: 'woocommerce', storeId }, type),
        'StoreTraining',
      ],
    }),
    /** Shopify: training of several content types at once. */
    shopifyTrain: build.mutation<StoreTaskResponse, { storeId: number; content_types: string[] }>({
      query: ({ storeId, content_types }) => ({
        url: `/shopify/train/${storeId}`,
        method: 'POST',
        body: { content_types },
      }),
      extraOptions: { silent: true },
      invalidatesTags: ['StoreTraining'],
    }),

    globalSync: build.mutation<
      StoreTaskResponse,
      StoreRef & { content_types?: string[]; limit?: number; force_resync?: boolean }
    >({
      query: ({ platform, storeId, content_types, limit = SYNC.defaultLimit, force_resync = false }) => ({
        url:
          platform === 'shopify'
            ? `/integrations/shopify/stores/${storeId}/sync/global`
            : `${woo(storeId)}/sync/global`,
        method: 'POST',
        body: { ...(content_types ? { content_types } : {}), limit, force_resync },
      }),
      extraOptions: { silent: true },
      invalidatesTags: (_r, _e, ref) => [{ type: 'StoreSync', id: key(ref) }],
    }),
    syncStatus: build.query<GlobalSyncStatus, StoreRef>({
      query: ({ platform, storeId }) =>
        platform === 'shopify'
          ? `/integrations/shopify/stores/${storeId}/sync/status`
          : `${woo(storeId)}/sync/status`,
      extraOptions: { silent: true },
      providesTags: (_r, _e, ref) => [{ type: 'StoreSync', id: key(ref) }],
    }),
    globalTraining: build.mutation<
      StoreTaskResponse,
      StoreRef & { content_types?: string[]; retrain?: boolean }
    >({
      query: ({ platform, storeId, content_types, retrain = false }) => ({
        url:
          platform === 'shopify'
            ? `/integrations/shopify/stores/${storeId}/training/global`
            : `${woo(storeId)}/train`,
        method: 'POST',
        body: { ...(content_types ? { content_types } : {}), retrain },
      }),
      extraOptions: { silent: true },
      invalidatesTags: ['StoreTraining'],
    }),
    trainingStatus: build.query<TrainingStatusResponse, StoreRef>({
      query: ({ platform, storeId }) =>
        platform === 'shopify'
          ? `/shopify/stores/training/detailed-status/${storeId}`
          : `${woo(storeId)}/training/status`,
      extraOptions: { silent: true },
      providesTags: ['StoreTraining'],
    }),

    cancelOrder: build.mutation<
      { message: string; order: StoreItem },
      { orderId: number; reason?: CancelReason }
    >({
      query: ({ orderId, reason }) => ({
        url: `/shopify/orders/${orderId}/cancel`,
        method: 'POST',
        body: reason ? { reason } : {},
      }),
      extraOptions: { silent: true },
      invalidatesTags: (_r, _e, { orderId }) => [{ type: 'StoreOrder', id: orderId }, 'StoreItems'],
    }),
    refundOrder: build.mutation<
      { message: string; order: StoreItem },
      { orderId: number; amount?: string; note?: string; notify: boolean }
    >({
      query: ({ orderId, amount, note, notify }) => ({
        url: `/shopify/orders/${orderId}/refund`,
        method: 'POST',
        body: { ...(amount ? { amount } : {}), ...(note ? { note } : {}), notify },
      }),
      extraOptions: { silent: true },
      invalidatesTags: (_r, _e, { orderId }) => [{ type: 'StoreOrder', id: orderId }, 'StoreItems'],
    }),

    /** A background job's progress (GET /jobs/{id}): the sync or training a button started. */
    storeJob: build.query<JobProgress, string>({
      query: (id) => `/jobs/${id}`,
      extraOptions: { silent: true },
      keepUnusedDataFor: 0,
    }),
  }),
});

export const {
  useShopifyStoresQuery,
  useWooStoresQuery,
  useStoreQuery,
  useConnectShopifyMutation,
  useShopifyCallbackMutation,
  useConnectWooMutation,
  useTestWooMutation,
  useDisconnectStoreMutation,
  useLinkStoreBotMutation,
  useStoreItemsQuery,
  useStoreItemQuery,
  useWooTrackingQuery,
  useDeleteStoreItemMutation,
  useSyncTypeMutation,
  useTrainTypeMutation,
  useUntrainWooTypeMutation,
  useShopifyTrainMutation,
  useGlobalSyncMutation,
  useSyncStatusQuery,
  useGlobalTrainingMutation,
  useTrainingStatusQuery,
  useCancelOrderMutation,
  useRefundOrderMutation,
  useStoreJobQuery,
} = storesApi;
