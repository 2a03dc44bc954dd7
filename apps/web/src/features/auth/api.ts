import type {
  AuthConfig,
  AuthResponse,
  CompletePasswordResetBody,
  InvitedUser,
  LoginBody,
  MessageResponse,
  OAuthLoginBody,
  SignupBody,
  User,
} from '@parley/contracts';
import { api } from '../../shared/api/base-api';
import { storeAuth, storeUser } from '../../shared/lib/session-storage';
import { signedIn, userLoaded, userLoadFailed } from './session-slice';

type Dispatch = (action: unknown) => unknown;

/** Login, signup and social login all end the same way: token stored, session started (spec section 7). */
async function startSession(dispatch: Dispatch, queryFulfilled: Promise<{ data: AuthResponse }>) {
  try {
    const { data } = await queryFulfilled;
    storeAuth(data);
    dispatch(signedIn(data));
  } catch {
    // The failure is shown by the form and the base query.
  }
}

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<AuthResponse, LoginBody>({
      query: (body) => ({ url: '/auth/login', method: 'POST', body }),
      onQueryStarted: (_arg, { dispatch, queryFulfilled }) => startSession(dispatch, queryFulfilled),
    }),
    signup: build.mutation<AuthResponse, SignupBody>({
      query: (body) => ({ url: '/auth/signup', method: 'POST', body }),
      onQueryStarted: (_arg, { dispatch, queryFulfilled }) => startSession(dispatch, queryFulfilled),
    }),
    oauthLogin: build.mutation<AuthResponse, OAuthLoginBody>({
      query: (body) => ({ url: '/auth/oauth/login', method: 'POST', body }),
      onQueryStarted: (_arg, { dispatch, queryFulfilled }) => startSession(dispatch, queryFulfilled),
    }),
    getMe: build.query<User, void>({
      query: () => '/auth/user',
      providesTags: ['Me'],
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          storeUser(data);
          dispatch(userLoaded(data));
        } catch {
          // A 401 has already ended the session in the base query; other failures keep the stored user.
          dispatch(userLoadFailed());
        }
      },
    }),
    authConfig: build.query<AuthConfig, void>({
      query: () => '/auth/config',
      extraOptions: { silent: true },
    }),
    invitedUser: build.query<InvitedUser, string>({
      query: (token) => `/auth/invited-user/${encodeURIComponent(token)}`,
      extraOptions: { silent: true },
    }),
    requestPasswordReset: build.mutation<MessageResponse, { email: string }>({
      query: (body) => ({ url: '/notification/request-password-reset/', method: 'POST', body }),
    }),
    verifyPasswordReset: build.mutation<
      { verified: boolean; message: string },
      { email: string; otp: string }
    >({
      query: (body) => ({ url: '/notification/verify-password-reset/', method: 'POST', body }),
    }),
    completePasswordReset: build.mutation<MessageResponse, CompletePasswordResetBody>({
      query: (body) => ({ url: '/notification/complete-password-reset/', method: 'POST', body }),
    }),
  }),
});

export const {
  useLoginMutation,
  useSignupMutation,
  useOauthLoginMutation,
  useAuthConfigQuery,
  useGetMeQuery,
  useInvitedUserQuery,
  useRequestPasswordResetMutation,
  useVerifyPasswordResetMutation,
  useCompletePasswordResetMutation,
} = authApi;
