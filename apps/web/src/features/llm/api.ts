import type {
  CreateLlmBody,
  LlmSetting,
  LlmSettingResponse,
  LlmTestResult,
  MessageResponse,
  UpdateLlmBody,
} from '@parley/contracts';
import { api } from '../../shared/api/base-api';

// Bots: deleting a model clears it from the bots that answered with it.
const tagged = api.enhanceEndpoints({ addTagTypes: ['Llms', 'Bots'] });

/**
 * LLM settings (console.md section 7 LLM settings): the workspace's models, keys only ever masked.
 * Mutations are silent: the screen shows its own texts ('Failed to activate LLM', the server's detail).
 */
export const llmApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    /** Every model of the workspace, active or not (filter on `is_active` to offer a picker). */
    companyLlms: build.query<LlmSetting[], void>({
      query: () => '/settings/llm/company',
      providesTags: ['Llms'],
    }),
    llm: build.query<LlmSetting, number>({
      query: (id) => `/settings/llm/${id}`,
      providesTags: ['Llms'],
    }),
    createLlm: build.mutation<LlmSettingResponse, CreateLlmBody>({
      query: (body) => ({ url: '/settings/llm', method: 'POST', body }),
      extraOptions: { silent: true },
      invalidatesTags: ['Llms'],
    }),
    updateLlm: build.mutation<LlmSettingResponse, { id: number; body: UpdateLlmBody }>({
      query: ({ id, body }) => ({ url: `/settings/llm/${id}`, method: 'PUT', body }),
      extraOptions: { silent: true },
      invalidatesTags: ['Llms'],
    }),
    toggleLlm: build.mutation<LlmSettingResponse, { id: number; active: boolean }>({
      query: ({ id, active }) => ({ url: `/settings/llm/${id}/toggle/${active}`, method: 'PATCH' }),
      extraOptions: { silent: true },
      invalidatesTags: ['Llms'],
    }),
    deleteLlm: build.mutation<MessageResponse, number>({
      query: (id) => ({ url: `/settings/llm/${id}`, method: 'DELETE' }),
      extraOptions: { silent: true },
      invalidatesTags: ['Llms', 'Bots'],
    }),
    testLlm: build.mutation<LlmTestResult, number>({
      query: (id) => ({ url: `/settings/llm/${id}/test`, method: 'POST' }),
      extraOptions: { silent: true },
      // The result is stored as the model's last_test (its Status).
      invalidatesTags: ['Llms'],
    }),
  }),
});

export const {
  useCompanyLlmsQuery,
  useLlmQuery,
  useCreateLlmMutation,
  useUpdateLlmMutation,
  useToggleLlmMutation,
  useDeleteLlmMutation,
  useTestLlmMutation,
} = llmApi;
