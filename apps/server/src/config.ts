import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
const positiveInt = z.coerce.number().int().positive();

/** Every environment variable Parley reads. The README's table mirrors this list. */
const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_POOL_SIZE: positiveInt.max(200).default(10),
  APP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CORS_ORIGINS: z.string().default(''),
  TRUST_PROXY: bool.default(false),
  COOKIE_SECURE: bool.optional(),
  BODY_LIMIT_BYTES: positiveInt.default(1_048_576),
  ACCESS_TOKEN_TTL_SECONDS: positiveInt.max(900, 'must be 900 seconds (15 minutes) or less').default(900),
  REFRESH_TOKEN_TTL_DAYS: positiveInt.max(365).default(30),
  AUTH_RATE_LIMIT_PER_IP: positiveInt.default(30),
  AUTH_RATE_LIMIT_PER_ACCOUNT: positiveInt.default(10),
  AUTH_SIGNUP_LIMIT_PER_IP: positiveInt.default(10),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().default('Parley <no-reply@parley.local>'),
  CONTACT_EMAIL: z.email().optional(),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_JWKS_URL: z.url().default('https://www.googleapis.com/oauth2/v3/certs'),
  JOB_POLL_MS: positiveInt.default(1000),
  JOB_LEASE_SECONDS: positiveInt.default(60),
  WORKER_CONCURRENCY: positiveInt.max(64).default(4),
  SCHEDULER_TICK_MS: positiveInt.default(60_000),
  WEB_DIST_DIR: z.string().optional(),
  WIDGET_DIST_DIR: z.string().optional(),
  FILE_MAX_BYTES: positiveInt.default(20 * 1024 * 1024),
  UPLOAD_MAX_FILES: positiveInt.max(100).default(20),
  EXTRACT_MAX_UNPACKED_BYTES: positiveInt.default(50 * 1024 * 1024),
  EXTRACT_MAX_ARCHIVE_ENTRIES: positiveInt.default(10_000),
  EXTRACT_TIMEOUT_MS: positiveInt.default(60_000),
  EXTRACT_WORKER_MEMORY_MB: positiveInt.min(32).default(512),
  EXTRACT_WORKERS: positiveInt.max(16).default(1),
  CRAWLER_ALLOW_PRIVATE: bool.default(false),
  CRAWLER_USER_AGENT: z.string().min(1).default('ParleyBot/1.0 (+https://parley.local/bot)'),
  CRAWLER_TIMEOUT_MS: positiveInt.default(15_000),
  CRAWLER_MAX_PAGE_BYTES: positiveInt.default(5 * 1024 * 1024),
  CRAWLER_CONCURRENCY: positiveInt.max(16).default(4),
  NOTION_API_URL: z.url().default('https://api.notion.com'),
  NOTION_CLIENT_ID: z.string().optional(),
  NOTION_CLIENT_SECRET: z.string().optional(),
  /** Meta (Instagram and Messenger): the app, the webhook's verify token, the Graph API (version pinned). */
  META_APP_ID: z.string().optional(),
  META_APP_SECRET: z.string().optional(),
  META_VERIFY_TOKEN: z.string().optional(),
  META_GRAPH_URL: z.url().default('https://graph.facebook.com/v21.0'),
  META_LOGIN_URL: z.url().default('https://www.facebook.com/v21.0/dialog/oauth'),
  /** WhatsApp: the embedded signup's configuration (Facebook Login for Business) and the campaign send rate. */
  WHATSAPP_CONFIG_ID: z.string().optional(),
  WHATSAPP_SEND_RATE: positiveInt.max(1000).default(80),
  /** Shopify: the app's key and secret (OAuth, webhook HMAC), the Admin API version, and where a shop answers. */
  SHOPIFY_API_KEY: z.string().optional(),
  SHOPIFY_API_SECRET: z.string().optional(),
  SHOPIFY_API_VERSION: z
    .string()
    .regex(/^\d{4}-\d{2}$/)
    .default('2025-01'),
  SHOPIFY_SCOPES: z
    .string()
    .default(
      'read_products,read_content,read_online_store_pages,read_discounts,read_legal_policies,read_customers,read_orders,write_orders',
    ),
  /** `{shop}` is replaced by the shop domain; tests point it at the fake on loopback. */
  SHOPIFY_SHOP_URL: z.string().includes('{shop}').default('https://{shop}'),
  /**
   * Razorpay: the API key pair (Basic auth) and the webhook secret (X-Razorpay-Signature). Unset:
   * payments answer 400 'Payments are not configured on this server'.
   */
  RAZORPAY_KEY_ID: z.string().min(1).optional(),
  RAZORPAY_KEY_SECRET: z.string().min(1).optional(),
  RAZORPAY_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** Where Razorpay's REST API answers; tests point it at the fake on loopback. */
  RAZORPAY_API_URL: z.url().default('https://api.razorpay.com'),
  /**
   * Razorpay's Checkout script, which the console loads to take a payment. A URL holding
   * `{subscription_id}` is a checkout page to open instead (the test fake's).
   */
  RAZORPAY_CHECKOUT_URL: z.url().default('https://checkout.razorpay.com/v1/checkout.js'),
  /** Affiliates: days a referral link's attribution cookie lasts; a signup within it is a referral. */
  AFFILIATE_COOKIE_DAYS: positiveInt.max(365).default(30),
  /** Percent of each payment (net of tax) a referred workspace makes that its partner earns. */
  AFFILIATE_COMMISSION_PERCENT: z.coerce.number().min(0).max(100).default(20),
  /** Months after the signup during which a referred workspace's payments earn commissions. */
  AFFILIATE_COMMISSION_MONTHS: positiveInt.max(120).default(12),
  /** Days a commission stays pending (a refund reverses it) before it is approved for payout. */
  AFFILIATE_REFUND_WINDOW_DAYS: z.coerce.number().int().min(0).max(365).default(30),
  EMBEDDING_BASE_URL: z.url().optional(),
  EMBEDDING_MODEL: z.string().min(1).optional(),
  EMBEDDING_API_KEY: z.string().optional(),
  EMBEDDING_DIMENSIONS: positiveInt.max(16_000).default(1536),
  /**
   * off (the default): nothing is limited, a fresh install is not a Free-plan trial. on: the operator
   * turns plans on; each workspace's plan (and add-ons, or what an admin gave it) limits bots, team,
   * messages, trained characters, history and features.
   */
  PLAN_LIMITS: z.enum(['on', 'off']).default('off'),
  /** With PLAN_LIMITS off: the bot answers every workspace gets per calendar month (UTC). */
  MONTHLY_MESSAGE_LIMIT: positiveInt.default(10_000),
  CHAT_HISTORY_TURNS: positiveInt.max(50).default(10),
  VISITOR_MESSAGES_PER_MINUTE: positiveInt.default(20),
  LLM_TIMEOUT_MS: positiveInt.default(60_000),
  RETRIEVAL_INDEX_MB: z.coerce.number().int().min(0).default(256),
  HELPDESK_AWAY_SECONDS: positiveInt.default(120),
  HELPDESK_SWEEP_MS: positiveInt.default(15_000),
  HANDOFF_WAIT_SECONDS: positiveInt.default(300),
  CONVERSATION_IDLE_SECONDS: positiveInt.default(86_400),
  /** Both WebSocket channels: ws ping interval (a socket that misses one is dropped), opening-frame limit, caps. */
  SOCKET_PING_MS: positiveInt.default(30_000),
  SOCKET_OPENING_FRAME_MS: positiveInt.default(10_000),
  SOCKET_LIMIT_PER_ADDRESS: positiveInt.default(500),
  SOCKET_LIMIT_PER_IDENTITY: positiveInt.default(20),
});

export type Env = z.infer<typeof EnvSchema>;

export type Config = Env & {
  publicUrl: string;
  appSecret: string;
  cookieSecure: boolean;
  corsOrigins: string[];
};

/** Thrown when the environment is invalid; main prints it and exits without starting. */
export class ConfigError extends Error {}

/**
 * Reads and validates the environment. A bad value stops the start with a message naming the
 * variable. Without APP_SECRET a random one is generated once and kept under DATA_DIR, so a local
 * `npm start` works with no set-up while sessions survive restarts.
 */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  if (!env.APP_SECRET && env.NODE_ENV === 'production') {
    throw new ConfigError('Invalid configuration:\n  APP_SECRET: is required when NODE_ENV=production');
  }
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '');
  return {
    ...env,
    publicUrl,
    appSecret: env.APP_SECRET ?? localSecret(env.DATA_DIR),
    cookieSecure: env.COOKIE_SECURE ?? publicUrl.startsWith('https://'),
    corsOrigins: env.CORS_ORIGINS.split(',')
      .map((o) => o.trim())
      .filter(Boolean),
  };
}

function localSecret(dataDir: string): string {
  const file = path.join(dataDir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}
