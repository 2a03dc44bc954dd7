import type {
  CampaignAnalytics,
  CampaignInput,
  CampaignLogList,
  ContactInput,
  ContactList,
  ConversationTemplateBody,
  EmbeddedSignupConfig,
  ImportPreview,
  MediaUploadResult,
  MessageResponse,
  MetaTemplateList,
  OnboardBody,
  OnboardResult,
  RecipientStatus,
  TemplateInput,
  TemplateUpdate,
  WhatsAppAccount,
  WhatsAppCampaign,
  WhatsAppContact,
  WhatsAppTemplate,
} from '@parley/contracts';
import { api } from '../../shared/api/base-api';

const tagged = api.enhanceEndpoints({
  addTagTypes: ['WhatsAppAccounts', 'WhatsAppTemplates', 'WhatsAppContacts', 'WhatsAppCampaigns', 'Bots'],
});

const base = '/social/whatsapp';

export type ContactsArgs = { accountId: number; search?: string; tag?: string; skip: number; limit: number };
export type LogsArgs = { id: number; status?: RecipientStatus; skip: number; limit: number };
export type MediaUploadArgs = {
  tenantId: number;
  accountId: number;
  mediaType: MediaUploadResult['media_type'];
  file: File;
};

/**
 * WhatsApp numbers, templates, contacts and campaigns (integrations-and-billing.md, WhatsApp;
 * contracts whatsapp.ts). Mutations are silent: the screens show the server's detail or the
 * spec's text themselves. Multipart fields go before the file: the server reads them first.
 */
export const whatsappApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    signupConfig: build.query<EmbeddedSignupConfig, void>({
      query: () => `${base}/embedded-signup/config`,
    }),
    onboard: build.mutation<OnboardResult, OnboardBody>({
      query: (body) => ({ url: `${base}/embedded-signup/onboard`, method: 'POST', body }),
      extraOptions: { silent: true },
      invalidatesTags: ['WhatsAppAccounts'],
    }),
    /** A 404 reads as no accounts (spec). */
    whatsappAccounts: build.query<WhatsAppAccount[], void>({
      async queryFn(_arg, _api, _extra, baseQuery) {
        const result = await baseQuery(`${base}/accounts`);
        if (result.error?.status === 404) return { data: [] };
        if (result.error) return { error: result.error };
        return { data: result.data as WhatsAppAccount[] };
      },
      providesTags: ['WhatsAppAccounts'],
    }),
    removeWhatsAppAccount: build.mutation<MessageResponse, number>({
      query: (id) => ({ url: `${base}/accounts/${id}`, method: 'DELETE' }),
      extraOptions: { silent: true },
      invalidatesTags: ['WhatsAppAccounts', 'Bots'],
    }),
    linkWhatsAppBot: build.mutation<MessageResponse, { accountId: number; botId: number | null }>({
      query: ({ accountId, botId }) =>
        botId === null
          ? { url: `${base}/accounts/unlink-bot`, method: 'POST', body: { account_id: accountId } }
          : {
              url: `${base}/accounts/link-bot`,
              method: 'POST',
              body: { account_id: accountId, bot_id: botId },
            },
      extraOptions: { silent: true },
      invalidatesTags: ['WhatsAppAccounts', 'Bots'],
    }),

    templates: build.query<WhatsAppTemplate[], number>({
      query: (accountId) => ({ url: `${base}/templates`, params: { account_id: String(accountId) } }),
      extraOptions: { silent: true },
      providesTags: (_r, _e, accountId) => [{ type: 'WhatsAppTemplates', id: accountId }],
    }),
    /** Meta's list read again (force_refresh); the local list follows from it. */
    refreshTemplates: build.mutation<MetaTemplateList, number>({
      query: (accountId) => ({
        url: `${base}/templates/meta`,
        params: { account_id: String(accountId), force_refresh: 'true' },
      }),
      extraOptions: { silent: true },
      invalidatesTags: (_r, _e, accountId) => [{ type: 'WhatsAppTemplates', id: accountId }],
    }),
    createTemplate: build.mutation<WhatsAppTemplate, TemplateInput>({
      query: (body) => ({ url: `${base}/templates`, method: 'POST', body }),
      extraOptions: { silent: true },
      invalidatesTags: (_r, _e, body) => [{ type: 'WhatsAppTemplates', id: body.account_id }],
    }),
    updateTemplate: build.mutation<WhatsAppTemplate, { id: number; accountId: number; body: TemplateUpdate }>(
      {
        query: ({ id, body }) => ({ url: `${base}/templates/${id}`, method: 'PUT', body }),
        extraOptions: { silent: true },
        invalidatesTags: (_r, _e, { accountId }) => [{ type: 'WhatsAppTemplates', id: accountId }],
      },
    ),
    submitTemplate: build.mutation<WhatsAppTemplate, { id: number; accountId: number }>({
      query: ({ id }) => ({ url: `${base}/templates/${id}/submit`, method: 'POST' }),
      extraOptions: { silent: true },
      invalidatesTags: (_r, _e, { accountId }) => [{ type: 'WhatsAppTemplates', id: accountId }],
    }),
    deleteTemplate: build.mutation<MessageResponse, { id: number; accountId: number }>({
      query: ({ id }) => ({ url: `${base}/templates/${id}`, method: 'DELETE' }),
      extraOptions: { silent: true },
      invalidatesTags: (_r, _e, { accountId }) => [{ type: 'WhatsAppTemplates', id: accountId }],
    }),
    uploadTemplateMedia: build.mutation<MediaUploadResult, MediaUploadArgs>({
      query: ({ tenantId, accountId, mediaType, file }) => {
        const form = new FormData();
        form.append('tenant_id', String(tenantId));
        form.append('media_type', mediaType);
        form.append('account_id', String(accountId));
        form.append('file', file, file.name);
        return { url: `${base}/templates/media-upload`, method: 'POST', body: form };
      },
      extraOptions: { silent: true },
    }),

    contacts: build.query<ContactList, ContactsArgs>({
      query: ({ accountId, search, tag, skip, limit }) => {
        const params: Record<string, string> = {
          account_id: String(accountId),
          skip: String(skip),
          limit: String(limit),
        };
        if (search?.trim()) params.search = search.trim();
        if (tag) params.tag = tag;
        return { url: `${base}/contacts`, params };
      },
      providesTags: (_r, _e, { accountId }) => [{ type: 'WhatsAppContacts', id: accountId }],
    }),
    createContact: build.mutation<{ message: string; contact: WhatsAppContact }, ContactInput>({
      query: (body) => ({ url: `${base}/contacts`, method: 'POST', body }),
      extraOptions: { silent: true },
      invalidatesTags: (_r, _e, body) => [{ type: 'WhatsAppContacts', id: body.account_id }],
    }),
    updateContact: build.mutation<
      { message: string; contact: WhatsAppContact },
      {
        id: number;
        accountId: number;
        body: { opted_out?: boolean; name?: string; email?: string; tags?: string[] };
      }
    >({
      query: ({ id, body }) => ({ url: `${base}/contacts/${id}`, method: 'PATCH', body }),
      extraOptions: { silent: true },
      invalidatesTags: (_r, _e, { accountId }) => [{ type: 'WhatsAppContacts', id: accountId }],
    }),
    deleteContact: build.mutation<MessageResponse, { id: number; accountId: number }>({
      query: ({ id }) => ({ url: `${base}/contacts/${id}`, method: 'DELETE' }),
      extraOptions: { silent: true },
      invalidatesTags: (_r, _e, { accountId }) => [{ type: 'WhatsAppContacts', id: accountId }],
    }),
    importPreview: build.mutation<ImportPreview, { accountId: number; file: File }>({
      query: ({ accountId, file }) => {
        const form = new FormData();
        form.append('account_id', String(accountId));
        form.append('file', file, file.name);
        return { url: `${base}/contacts/import/preview`, method: 'POST', body: form };
      },
      extraOptions: { silent: true },
    }),

    campaigns: build.query<WhatsAppCampaign[], number>({
      query: (accountId) => ({ url: `${base}/campaigns`, params: { account_id: String(accountId) } }),
      providesTags: (_r, _e, accountId) => [{ type: 'WhatsAppCampaigns', id: accountId }],
    }),
    createCampaign: build.mutation<{ message: string; campaign: WhatsAppCampaign }, CampaignInput>({
      query: (body) => ({ url: `${base}/campaigns`, method: 'POST', body }),
      extraOptions: { silent: true },
      invalidatesTags: (_r, _e, body) => [{ type: 'WhatsAppCampaigns', id: body.account_id }],
    }),
    campaignAction: build.mutation<
      MessageResponse,
      { id: number; accountId: number; action: 'send' | 'pause' | 'resume' | 'delete' }
    >({
      query: ({ id, action }) =>
        action === 'delete'
          ? { url: `${base}/campaigns/${id}`, method: 'DELETE' }
          : { url: `${base}/campaigns/${id}/${action}`, method: 'POST' },
      extraOptions: { silent: true },
      invalidatesTags: (_r, _e, { accountId }) => [{ type: 'WhatsAppCampaigns', id: accountId }],
    }),
    campaignLogs: build.query<CampaignLogList, LogsArgs>({
      query: ({ id, status, skip, limit }) => ({
        url: `${base}/campaigns/${id}/logs`,
        params: { skip: String(skip), limit: String(limit), ...(status ? { status } : {}) },
      }),
    }),
    campaignAnalytics: build.query<CampaignAnalytics, number>({
      query: (id) => `${base}/campaigns/${id}/analytics`,
    }),

    sendConversationTemplate: build.mutation<
      { message: string; message_id: number },
      { conversationId: number; body: ConversationTemplateBody }
    >({
      query: ({ conversationId, body }) => ({
        url: `${base}/conversations/${conversationId}/template`,
        method: 'POST',
        body,
      }),
      extraOptions: { silent: true },
    }),
  }),
});

export const {
  useSignupConfigQuery,
  useLazySignupConfigQuery,
  useOnboardMutation,
  useWhatsappAccountsQuery,
  useRemoveWhatsAppAccountMutation,
  useLinkWhatsAppBotMutation,
  useTemplatesQuery,
  useRefreshTemplatesMutation,
  useCreateTemplateMutation,
  useUpdateTemplateMutation,
  useSubmitTemplateMutation,
  useDeleteTemplateMutation,
  useUploadTemplateMediaMutation,
  useContactsQuery,
  useCreateContactMutation,
  useUpdateContactMutation,
  useDeleteContactMutation,
  useImportPreviewMutation,
  useCampaignsQuery,
  useCreateCampaignMutation,
  useCampaignActionMutation,
  useCampaignLogsQuery,
  useCampaignAnalyticsQuery,
  useSendConversationTemplateMutation,
} = whatsappApi;
