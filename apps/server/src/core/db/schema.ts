import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const tenantRef = () =>
  integer('tenant_id')
    .notNull()
    .references(() => tenants.id, { onDelete: 'cascade' });

export const tenants = pgTable('tenants', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: createdAt(),
});

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    tenantId: tenantRef(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    username: text('username').notNull(),
    /** argon2id; null for an account that only signs in with Google. */
    passwordHash: text('password_hash'),
    userType: text('user_type', { enum: ['admin', 'partner', 'user'] })
      .notNull()
      .default('user'),
    emailVerified: boolean('email_verified').notNull().default(false),
    /** Works only with the bots assigned to them (bot_users); otherwise with every bot, new ones included. */
    botsRestricted: boolean('bots_restricted').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_username_key').on(sql`lower(${t.username})`),
    index('users_tenant_idx').on(t.tenantId),
    check('users_user_type_check', sql`${t.userType} in ('admin', 'partner', 'user')`),
  ],
);

export const oauthAccounts = pgTable(
  'oauth_accounts',
  {
    id: serial('id').primaryKey(),
    tenantId: tenantRef(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('oauth_accounts_provider_subject_key').on(t.provider, t.subject)],
);

/** Features roles are granted. tenant_id null: the platform's own (seeded); else made by that tenant. */
export const features = pgTable(
  'features',
  {
    id: serial('id').primaryKey(),
    tenantId: integer('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    isArchived: boolean('is_archived').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('features_scope_name_key').on(sql`coalesce(${t.tenantId}, 0)`, sql`lower(${t.name})`)],
);

export const roles = pgTable(
  'roles',
  {
    id: serial('id').primaryKey(),
    tenantId: tenantRef(),
    name: text('name').notNull(),
    /** One line saying what the role is for (the default roles have one), shown where a role is picked. */
    description: text('description'),
    isOwner: boolean('is_owner').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('roles_tenant_name_key').on(t.tenantId, sql`lower(${t.name})`)],
);

export const rolePermissions = pgTable(
  'role_permissions',
  {
    tenantId: tenantRef(),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    featureId: integer('feature_id')
      .notNull()
      .references(() => features.id, { onDelete: 'cascade' }),
    canCreate: boolean('can_create').notNull().default(false),
    canRead: boolean('can_read').notNull().default(false),
    canWrite: boolean('can_write').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.roleId, t.featureId] }),
    index('role_permissions_feature_idx').on(t.featureId),
  ],
);

export const userRoles = pgTable(
  'user_roles',
  {
    tenantId: tenantRef(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] }), index('user_roles_role_idx').on(t.roleId)],
);

/** Refresh tokens, stored as hashes. A family is one sign-in; reuse of a rotated token revokes it. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_key').on(t.tokenHash),
    index('refresh_tokens_family_idx').on(t.familyId),
  ],
);

export const invitations = pgTable(
  'invitations',
  {
    id: serial('id').primaryKey(),
    tenantId: tenantRef(),
    email: text('email').notNull(),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    invitedBy: integer('invited_by').references(() => users.id, { onDelete: 'set null' }),
    tokenHash: text('token_hash').notNull(),
    /** The token itself, sealed (AES-256-GCM), so the inviter can copy the link again; null before 0025. */
    tokenSealed: text('token_sealed'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('invitations_token_key').on(t.tokenHash),
    index('invitations_tenant_idx').on(t.tenantId),
  ],
);

/** One-time codes (email verification and password reset), keyed-hashed at rest. */
export const otpCodes = pgTable(
  'otp_codes',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    purpose: text('purpose', { enum: ['verify', 'reset'] }).notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('otp_codes_email_idx').on(t.email, t.purpose)],
);

/** Every mail Parley sends. Without SMTP it stays here (status 'kept') for a local user to read. */
export const mailOutbox = pgTable('mail_outbox', {
  id: serial('id').primaryKey(),
  tenantId: integer('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
  toAddress: text('to_address').notNull(),
  subject: text('subject').notNull(),
  /** Cleared once delivered over SMTP, so codes and links do not linger. */
  textBody: text('text_body'),
  htmlBody: text('html_body'),
  /** Where a reply goes (a lead's own address, so the owner answers them by replying); cleared with the body. */
  replyTo: text('reply_to'),
  /**
   * Queued to a user of the tenant, as a teammate (a lead, a conversation link, a billing notice):
   * delivery drops it (status 'dropped') once that address is no longer a user of the tenant.
   */
  toTeammate: boolean('to_teammate').notNull().default(false),
  /** dropped: not sent on purpose, the reason in `error` (a teammate removed before delivery). */
  status: text('status', { enum: ['queued', 'sent', 'kept', 'failed', 'dropped'] })
    .notNull()
    .default('queued'),
  error: text('error'),
  createdAt: createdAt(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
});

export const contactMessages = pgTable('contact_messages', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull(),
  subject: text('subject'),
  message: text('message').notNull(),
  createdAt: createdAt(),
});

/** The durable job queue (see core/jobs/queue.ts): claim with SKIP LOCKED, lease, retry, progress. */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: integer('tenant_id').references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    data: jsonb('data').notNull().default({}),
    status: text('status', { enum: ['queued', 'active', 'completed', 'failed'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    runAfter: timestamp('run_after', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lockedBy: text('locked_by'),
    current: integer('current').notNull().default(0),
    total: integer('total').notNull().default(0),
    error: text('error'),
    result: jsonb('result'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('jobs_claim_idx').on(t.name, t.status, t.runAfter),
    index('jobs_tenant_idx').on(t.tenantId),
    // A mail's delivery jobs by its outbox id: the admin console's outbox shows each mail's last run.
    index('jobs_mail_outbox_idx').on(sql`(${t.data}->>'outboxId')`).where(sql`${t.name} = 'mail.send'`),
  ],
);

// Feature modules keep their tables beside their code; migrations are generated from all of them.
export * from '../../modules/admin/admin.schema.js';
export * from '../../modules/affiliates/affiliates.schema.js';
export * from '../../modules/analytics/analytics.schema.js';
export * from '../../modules/billing/billing.schema.js';
export * from '../../modules/bots/bots.schema.js';
export * from '../../modules/chat/chat.schema.js';
export * from '../../modules/crawler/crawler.schema.js';
export * from '../../modules/files/files.schema.js';
export * from '../../modules/helpdesk/helpdesk.schema.js';
export * from '../../modules/knowledge/knowledge.schema.js';
export * from '../../modules/llm/llm.schema.js';
export * from '../../modules/notifications/notifications.schema.js';
export * from '../../modules/notion/notion.schema.js';
export * from '../../modules/qna/qna.schema.js';
export * from '../../modules/social/social.schema.js';
export * from '../../modules/stores/stores.schema.js';
export * from '../../modules/unanswered/unanswered.schema.js';
export * from '../../modules/whatsapp/whatsapp.schema.js';
