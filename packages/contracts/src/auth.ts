import { z } from 'zod';
import { BodyId, inputText } from './common.js';
import { Role } from './roles.js';

export const UserType = z.enum(['admin', 'partner', 'user']);
export type UserType = z.infer<typeof UserType>;

export const PASSWORD_MIN_LENGTH = 8;

export const User = z.object({
  id: z.number().int(),
  tenant_id: z.number().int(),
  tenant_name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  username: z.string(),
  user_type: UserType,
  email_verified: z.boolean(),
  created_at: z.string(),
  roles: z.array(Role),
  /** Works with every bot of the workspace, new ones included (false: only the bots assigned to them). */
  all_bots: z.boolean().optional(),
  /** Also a partner of the affiliate programme: the account menu switches to the partner area. */
  is_partner: z.boolean().optional(),
});
export type User = z.infer<typeof User>;

/**
 * A response header of every signed-in request: a digest of the caller as GET /auth/user answers
 * (roles and grants included). When it changes, the console reads the user again, so a permission
 * granted meanwhile shows in the menu without a reload (the help-desk socket says the same at once).
 */
export const SESSION_VERSION_HEADER = 'x-parley-session';

/** A user as listed to teammates: same shape, so the web needs one type. */
export const UserList = z.array(User);

/** A teammate as the inbox lists them (to assign or mail): no roles, nothing Roles readers alone may see. */
export const Teammate = User.pick({ id: true, first_name: true, last_name: true, email: true });
export type Teammate = z.infer<typeof Teammate>;
export const TeammateList = z.array(Teammate);

export const AuthResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  /** Seconds until access_token expires; the web renews before then through the refresh cookie. */
  expires_in: z.number().int(),
  user: User,
});
export type AuthResponse = z.infer<typeof AuthResponse>;

const email = inputText({ error: 'Email is required' })
  .trim()
  .toLowerCase()
  .pipe(z.email('Enter a valid email address').max(254));
const password = inputText({ error: 'Password is required' })
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(256, 'Password must be at most 256 characters');
const personName = (label: string) =>
  inputText({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(100);
export const Username = inputText()
  .trim()
  .min(3, 'Username must be at least 3 characters')
  .max(50, 'Username must be at most 50 characters')
  .regex(/^[A-Za-z0-9_.-]+$/, 'Username may hold only letters, digits, dots, dashes and underscores');

export const SignupBody = z.object({
  first_name: personName('First name'),
  last_name: personName('Last name'),
  email,
  username: Username.optional(),
  password,
  /** Name of the new workspace; defaults to "{first_name}'s workspace". Ignored with an invitation. */
  company_name: inputText().trim().min(1).max(100).optional(),
  /** Invitation token: joins the inviting tenant with the invited role instead of creating one. */
  token: inputText().min(10).max(200).optional(),
});
export type SignupBody = z.infer<typeof SignupBody>;

export const LoginBody = z.object({
  /** Email or username. `email` is accepted as an alias, as older clients send it. */
  username: inputText().trim().min(1, 'Email or username is required').max(254).optional(),
  email: inputText().trim().min(1).max(254).optional(),
  password: inputText({ error: 'Password is required' }).min(1, 'Password is required').max(256),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const OAuthLoginBody = z.object({
  provider: z.literal('google').default('google'),
  id_token: inputText({ error: 'id_token is required' }).min(10).max(8192),
});
export type OAuthLoginBody = z.infer<typeof OAuthLoginBody>;

export const InviteUserBody = z.object({
  email,
  role_id: BodyId('Role'),
});
export type InviteUserBody = z.infer<typeof InviteUserBody>;

export const InviteResponse = z.object({
  /** "Invitation sent successfully", or without SMTP the note to copy the link and send it yourself. */
  message: z.string(),
  email: z.string(),
  expires_at: z.string(),
  /** The sign-up link the invitation mail carries, for the inviter to copy. */
  link: z.string(),
  /** Whether this server mails it (SMTP configured); otherwise the inviter sends the link. */
  mailed: z.boolean(),
});
export type InviteResponse = z.infer<typeof InviteResponse>;

export const InvitedUser = z.object({
  email: z.string(),
  tenant_id: z.number().int(),
  tenant_name: z.string(),
  role_id: z.number().int(),
  role_name: z.string(),
  invited_by: z.string(),
  expires_at: z.string(),
});
export type InvitedUser = z.infer<typeof InvitedUser>;

/** An invitation sent and neither accepted, revoked nor expired, as the users screen lists it. */
export const PendingInvitation = z.object({
  id: z.number().int(),
  email: z.string(),
  role_id: z.number().int(),
  role_name: z.string(),
  invited_by: z.string().nullable(),
  sent_at: z.string(),
  expires_at: z.string(),
  /** Past expires_at and never answered: its link no longer works; Resend gives it a new week. */
  expired: z.boolean(),
  /**
   * The invitation's sign-up link, for whoever may invite (create on Roles); null for others, for an
   * expired invitation and for invitations made before links were kept (Resend gives them one).
   */
  link: z.string().nullable(),
});
export type PendingInvitation = z.infer<typeof PendingInvitation>;

export const UpdateProfileBody = z
  .object({
    first_name: personName('First name').optional(),
    last_name: personName('Last name').optional(),
    username: Username.optional(),
  })
  .refine((v) => Object.keys(v).length > 0, 'Nothing to update');
export type UpdateProfileBody = z.infer<typeof UpdateProfileBody>;

export const ChangePasswordBody = z.object({
  current_password: inputText({ error: 'Current password is required' }).min(
    1,
    'Current password is required',
  ),
  new_password: password,
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

export const Otp = z
  .string({ error: 'Code is required' })
  .trim()
  .regex(/^\d{6}$/, 'The code has six digits');

export const EmailBody = z.object({ email });
export const VerifyOtpBody = z.object({ email, otp: Otp });
export const CompletePasswordResetBody = z.object({ email, otp: Otp, new_password: password });
export type CompletePasswordResetBody = z.infer<typeof CompletePasswordResetBody>;

export const VerifiedResponse = z.object({ verified: z.literal(true), message: z.string() });

export const ContactBody = z.object({
  name: personName('Name'),
  email,
  subject: inputText().trim().max(200).optional(),
  message: inputText({ error: 'Message is required' }).trim().min(1, 'Message is required').max(5000),
});
export type ContactBody = z.infer<typeof ContactBody>;

/** What the sign-in page needs to know of the server's set-up, before anyone is signed in. */
export const AuthConfig = z.object({ google_client_id: z.string().nullable() });
export type AuthConfig = z.infer<typeof AuthConfig>;
