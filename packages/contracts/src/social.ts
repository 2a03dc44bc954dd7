import { z } from 'zod';
import { BodyId, inputText } from './common.js';
import { BOTS_SUBJECT, need, open, type RouteRule } from './rules.js';

/** The Meta channels a bot answers on (console.md: Instagram account, Messenger account). */
export const SOCIAL_CHANNELS = ['instagram', 'messenger'] as const;
export type SocialChannel = (typeof SOCIAL_CHANNELS)[number];

/** The same set under /social/instagram and /social/messenger (console.md, Social). */
export const SOCIAL_ROUTE_RULES = {
  'GET /social/instagram/authorize': need(BOTS_SUBJECT, 'create'),
  'POST /social/instagram/exchange-token': need(BOTS_SUBJECT, 'create'),
  'GET /social/instagram/accounts': need(BOTS_SUBJECT, 'read'),
  'POST /social/instagram/accounts': need(BOTS_SUBJECT, 'create'),
  'GET /social/instagram/accounts/:id': need(BOTS_SUBJECT, 'read'),
  'DELETE /social/instagram/accounts/:id': need(BOTS_SUBJECT, 'write'),
  'POST /social/instagram/link-bot': need(BOTS_SUBJECT, 'write'),
  'POST /social/instagram/unlink-bot': need(BOTS_SUBJECT, 'write'),
  /** Meta calls these: the verify token (GET) and the app secret's signature (POST) stand for a login. */
  'GET /social/instagram/webhook': open,
  'POST /social/instagram/webhook': open,
  'GET /social/messenger/authorize': need(BOTS_SUBJECT, 'create'),
  'POST /social/messenger/exchange-token': need(BOTS_SUBJECT, 'create'),
  'GET /social/messenger/accounts': need(BOTS_SUBJECT, 'read'),
  'POST /social/messenger/accounts': need(BOTS_SUBJECT, 'create'),
  'GET /social/messenger/accounts/:id': need(BOTS_SUBJECT, 'read'),
  'DELETE /social/messenger/accounts/:id': need(BOTS_SUBJECT, 'write'),
  'POST /social/messenger/link-bot': need(BOTS_SUBJECT, 'write'),
  'POST /social/messenger/unlink-bot': need(BOTS_SUBJECT, 'write'),
  /** Meta calls these: the verify token (GET) and the app secret's signature (POST) stand for a login. */
  'GET /social/messenger/webhook': open,
  'POST /social/messenger/webhook': open,
} as const satisfies Record<string, RouteRule>;

/** The texts of console.md (Linking, Instagram, Messenger) and the server's details. */
export const SOCIAL_TEXTS = {
  codeMissing: 'Invalid or missing authorization code',
  messengerExchangeFailed: 'Facebook Messenger token exchange failed',
  instagramExchangeFailed: 'Instagram token exchange failed',
  notConfigured: 'Facebook Login is not configured: set META_APP_ID and META_APP_SECRET',
  stateInvalid: 'The Facebook connection link is not valid. Please connect again.',
  stateExpired: 'The Facebook connection link has expired. Please connect again.',
  stateUsed: 'The Facebook connection link was already used. Please connect again.',
  noPages: 'No Facebook page was shared. Please connect again and choose at least one page.',
  noInstagram:
    'None of the shared pages has an Instagram professional account linked. Link one to a page in Meta Business Suite, then connect again.',
  takenByAnother: 'This account is already connected to another workspace',
  accountNotFound: 'Account not found',
  botNotFound: 'Bot not found',
  pageTokenRefused: 'Facebook refused this page access token',
  metaUnavailable: 'Facebook could not be reached. Please try again.',
  linked: {
    instagram: 'Bot linked to Instagram account successfully',
    messenger: 'Bot linked to Messenger account successfully',
  },
  unlinked: {
    instagram: 'Bot unlinked from Instagram account successfully',
    messenger: 'Bot unlinked from Messenger account successfully',
  },
  connected: {
    instagram: 'Instagram account connected successfully',
    messenger: 'Messenger account connected successfully',
  },
  disconnected: {
    instagram: 'Instagram account disconnected successfully',
    messenger: 'Messenger account disconnected successfully',
  },
  exchanged: {
    instagram: 'Instagram token exchanged successfully',
    messenger: 'Messenger token exchanged successfully',
  },
  fetchFailed: { instagram: 'Failed to fetch accounts', messenger: 'Failed to fetch Messenger accounts' },
  connectFailed: { instagram: 'Failed to connect account', messenger: 'Failed to connect Messenger account' },
  disconnectFailed: {
    instagram: 'Failed to disconnect account',
    messenger: 'Failed to disconnect Messenger account',
  },
  exchangeFailed: { instagram: 'Failed to exchange token', messenger: 'Failed to exchange Messenger token' },
  /** Why an account stopped: its page token expired or was revoked. */
  tokenExpired: 'Facebook no longer accepts this page’s access token. Connect the account again.',
  /** The inbox's reply box, per Meta's messaging window. */
  windowTagged:
    'More than 24 hours since this person last wrote: your reply is sent with the Human Agent tag (allowed up to 7 days).',
  windowClosed: 'More than 7 days since this person last wrote: Meta allows no reply until they write again.',
} as const;

/** An Instagram professional account or a Facebook page connected to the workspace. Tokens never leave the server. */
export const SocialAccount = z.object({
  id: z.number().int(),
  channel: z.enum(SOCIAL_CHANNELS),
  tenant_id: z.number().int(),
  page_id: z.string(),
  page_name: z.string(),
  /** Instagram only: the professional account's id and username. */
  instagram_account_id: z.string().nullable(),
  username: z.string().nullable(),
  bot_id: z.number().int().nullable(),
  bot_name: z.string().nullable(),
  is_active: z.boolean(),
  /** Why the account is inactive (its token expired...), or null. */
  inactive_reason: z.string().nullable(),
  created_at: z.string(),
});
export type SocialAccount = z.infer<typeof SocialAccount>;

export const SocialAuthorize = z.object({ url: z.string() });
export type SocialAuthorize = z.infer<typeof SocialAuthorize>;

export const ExchangeTokenBody = z.object({
  code: inputText().trim().max(2000).optional(),
  state: inputText().trim().max(2000).optional(),
  bot_id: BodyId('Bot').optional(),
});
export type ExchangeTokenBody = z.infer<typeof ExchangeTokenBody>;

export const ExchangeTokenResult = z.object({
  message: z.string(),
  accounts: z.array(SocialAccount),
});
export type ExchangeTokenResult = z.infer<typeof ExchangeTokenResult>;

/** Connects one page with a page access token (the manual path beside Facebook Login). */
export const CreateSocialAccountBody = z.object({
  page_id: inputText({ error: 'Page id is required' }).trim().min(1, 'Page id is required').max(64),
  access_token: inputText({ error: 'Page access token is required' })
    .trim()
    .min(1, 'Page access token is required')
    .max(1000),
  bot_id: BodyId('Bot').optional(),
});
export type CreateSocialAccountBody = z.infer<typeof CreateSocialAccountBody>;

export const LinkBotBody = z.object({ account_id: BodyId('Account'), bot_id: BodyId('Bot') });
export type LinkBotBody = z.infer<typeof LinkBotBody>;
export const UnlinkBotBody = z.object({ account_id: BodyId('Account'), bot_id: BodyId('Bot').optional() });
export type UnlinkBotBody = z.infer<typeof UnlinkBotBody>;

/**
 * Whether an agent may write to a channel user now (Meta: free within 24 h of their last message,
 * with the HUMAN_AGENT tag up to 7 days, then closed until they write again).
 */
export const ReplyWindow = z.object({
  state: z.enum(['open', 'tagged', 'closed']),
  /** When the current state ends (null for a channel without a window). */
  until: z.string().nullable(),
  /** What the reply box says, or null while replies are free. */
  reason: z.string().nullable(),
});
export type ReplyWindow = z.infer<typeof ReplyWindow>;

/** A message sent to a channel: its delivery, shown on the message in the inbox. */
export const Delivery = z.object({
  status: z.enum(['queued', 'sent', 'delivered', 'read', 'failed']),
  error: z.string().nullable(),
});
export type Delivery = z.infer<typeof Delivery>;
