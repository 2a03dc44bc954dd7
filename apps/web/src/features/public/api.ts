import type { ContactBody, MessageResponse } from '@parley/contracts';
import { api } from '../../shared/api/base-api';

export const publicApi = api.injectEndpoints({
  endpoints: (build) => ({
    sendContact: build.mutation<MessageResponse, ContactBody>({
      query: (body) => ({ url: '/contact', method: 'POST', body }),
    }),
  }),
});

export const { useSendContactMutation } = publicApi;
