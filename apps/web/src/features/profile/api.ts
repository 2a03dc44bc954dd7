import type { ChangePasswordBody, MessageResponse, UpdateProfileBody, User } from '@parley/contracts';
import { api } from '../../shared/api/base-api';
import { storeUser } from '../../shared/lib/session-storage';
import { refreshSession } from '../auth/refresh';
import { userLoaded } from '../auth/session-slice';

export const profileApi = api.injectEndpoints({
  endpoints: (build) => ({
    updateProfile: build.mutation<User, { id: number; body: UpdateProfileBody }>({
      query: ({ id, body }) => ({ url: `/auth/user/profile/${id}`, method: 'PUT', body }),
      // 'Me' too: a session load still in flight when the profile was saved (signed up a moment ago)
      // would otherwise put the old name back in the account menu; it is fetched again after it.
      invalidatesTags: ['Users', 'Me'],
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          storeUser(data);
          dispatch(userLoaded(data));
        } catch {
          // The form shows the server's detail.
        }
      },
    }),
    changePassword: build.mutation<MessageResponse, { id: number; body: ChangePasswordBody }>({
      query: ({ id, body }) => ({ url: `/auth/user/password/${id}`, method: 'PUT', body }),
      // The change ends every access token issued under the old password, this tab's too; the
      // answer set a new refresh cookie, so the token is renewed now rather than on the next 401.
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          await queryFulfilled;
        } catch {
          return; // The form shows the server's detail.
        }
        await refreshSession(dispatch);
      },
    }),
  }),
});

export const { useUpdateProfileMutation, useChangePasswordMutation } = profileApi;
