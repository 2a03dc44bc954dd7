// Loaded on demand by the sign-in form (useLazyZodForm): zod and the shared schema stay out of the
// /login page's first download.
import { zodResolver } from '@hookform/resolvers/zod';
import { LoginBody } from '@parley/contracts';

/** Email or username is required on this form; the API also takes `email` for older clients. */
export const LoginForm = LoginBody.required({ username: true });

export const loginResolver = zodResolver(LoginForm);
