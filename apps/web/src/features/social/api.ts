import type {
  CreateSocialAccountBody,
  ExchangeTokenResult,
  MessageResponse,
  SocialAccount,
  SocialAuthorize,
  SocialChannel,
} from '@parley/contracts';
import { api } from '../../shared/api/base-api';

type OnChannel<T> = { channel: SocialChannel } & T;

/** Instagram and Messenger accounts (console.md, Social: the same set under each channel). */
export const socialApi = api.enhanceEndpoints({ addTagTypes: ['Social', 'Bots'] }).injectEndpoints({
  endpoints: (build) => ({
    socialAccounts: build.query<SocialAccount[], SocialChannel>({
      query: (channel) => `/social/${channel}/accounts`,
      providesTags: (_result, _error, channel) => [{ type: 'Social', id: channel }],
    }),
    socialAuthorize: build.mutation<SocialAuthorize, SocialChannel>({
      query: (channel) => `/social/${channel}/authorize`,
      extraOptions: { silent: true },
    }),
    exchangeSocialToken: build.mutation<ExchangeTokenResult, OnChannel<{ code: string; state: string }>>({
      query: ({ channel, code, state }) => ({
        url: `/social/${channel}/exchange-token`,
        method: 'POST',
        body: { code, state },
      }),
      extraOptions: { silent: true },
      invalidatesTags: (_result, _error, { channel }) => [{ type: 'Social', id: channel }],
    }),
    createSocialAccount: build.mutation<SocialAccount, OnChannel<{ body: CreateSocialAccountBody }>>({
      query: ({ channel, body }) => ({ url: `/social/${channel}/accounts`, method: 'POST', body }),
      extraOptions: { silent: true },
      invalidatesTags: (_result, _error, { channel }) => [{ type: 'Social', id: channel }, 'Bots'],
    }),
    deleteSocialAccount: build.mutation<MessageResponse, OnChannel<{ id: number }>>({
      query: ({ channel, id }) => ({ url: `/social/${channel}/accounts/${id}`, method: 'DELETE' }),
      extraOptions: { silent: true },
      invalidatesTags: (_result, _error, { channel }) => [{ type: 'Social', id: channel }, 'Bots'],
    }),
    linkSocialBot: build.mutation<MessageResponse, OnChannel<{ accountId: number; botId: number | null }>>({
      query: ({ channel, accountId, botId }) =>
        botId === null
          ? { url: `/social/${channel}/unlink-bot`, method: 'POST', body: { account_id: accountId } }
          : {
              url: `/social/${channel}/link-bot`,
              method: 'POST',
              body: { account_id: accountId, bot_id: botId },
            },
      extraOptions: { silent: true },
      invalidatesTags: (_result, _error, { channel }) => [{ type: 'Social', id: channel }, 'Bots'],
    }),
  }),
});

export const {
  useSocialAccountsQuery,
  useSocialAuthorizeMutation,
  useExchangeSocialTokenMutation,
  useCreateSocialAccountMutation,
  useDeleteSocialAccountMutation,
  useLinkSocialBotMutation,
} = socialApi;
