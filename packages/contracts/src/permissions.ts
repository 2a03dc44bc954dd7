import { AbilityBuilder, createMongoAbility, type MongoAbility } from '@casl/ability';
import { ADMIN_ROUTE_RULES } from './admin.js';
import { AFFILIATE_ROUTE_RULES } from './affiliates.js';
import { ANALYTICS_ROUTE_RULES } from './analytics.js';
import { BILLING_ROUTE_RULES } from './billing.js';
import { BOT_ROUTE_RULES } from './bots.js';
import { CALENDAR_ROUTE_RULES } from './calendar.js';
import { CHAT_ROUTE_RULES } from './chat.js';
import { CRAWLER_ROUTE_RULES } from './crawler.js';
import { FILE_ROUTE_RULES } from './files.js';
import { HANDOFF_ROUTE_RULES } from './handoff.js';
import { HELPDESK_ROUTE_RULES } from './helpdesk.js';
import { HOME_ROUTE_RULES } from './home.js';
import { INTEGRATION_ROUTE_RULES } from './integrations.js';
import { KNOWLEDGE_ROUTE_RULES, UNANSWERED_ROUTE_RULES } from './knowledge.js';
import { LEAD_ROUTE_RULES } from './leads.js';
import { LLM_ROUTE_RULES } from './llm.js';
import { NOTIFICATION_ROUTE_RULES } from './notifications.js';
import { NOTION_ROUTE_RULES } from './notion.js';
import { PAYMENT_ROUTE_RULES } from './payments.js';
import { type Action, need, open, type RouteRule, type Subject, signedIn } from './rules.js';
import { SHOPIFY_BILLING_ROUTE_RULES } from './shopify-billing.js';
import { SOCIAL_ROUTE_RULES } from './social.js';
import { SHOPIFY_ROUTE_RULES, WOO_ROUTE_RULES } from './stores.js';
import { WHATSAPP_ROUTE_RULES } from './whatsapp.js';

export type { Action, RouteRule, Subject } from './rules.js';

/** Features seeded for every tenant. Later capabilities append theirs here. */
export const SEEDED_FEATURES = [
  'Home',
  'Create Bot',
  'Inbox',
  'Analytics',
  'Profile',
  'Roles',
  'Subscriptions',
  'Upgrade',
  'API Documentation',
  'User Role',
  'Leads',
] as const;
export type SeededFeature = (typeof SEEDED_FEATURES)[number];

type DefaultGrant = { create?: boolean; read?: boolean; write?: boolean };
const ALL: DefaultGrant = { create: true, read: true, write: true };
const READ: DefaultGrant = { read: true };

/**
 * The roles a new workspace starts with besides Owner, each with one line saying what it is for
 * (issue 31: a team can work on day one). Billing (Subscriptions, Upgrade) stays with owners, and
 * deleting the workspace is the Owner role's alone.
 */
export const DEFAULT_ROLES: ReadonlyArray<{
  name: string;
  description: string;
  grants: Partial<Record<SeededFeature, DefaultGrant>>;
}> = [
  {
    name: 'Admin',
    description: 'Everything but billing and deleting the workspace',
    grants: {
      Home: READ,
      'Create Bot': ALL,
      Inbox: ALL,
      Analytics: ALL,
      Profile: ALL,
      Roles: ALL,
      'API Documentation': READ,
      'User Role': READ,
      Leads: READ,
    },
  },
  {
    name: 'Agent',
    description: 'Answers visitors in the inbox for every bot and reads leads; no settings',
    grants: { Home: READ, Profile: READ, Inbox: ALL, Leads: READ },
  },
  {
    name: 'Viewer',
    description: 'Reads the inbox, leads and analytics; changes nothing',
    grants: { Home: READ, Profile: READ, Inbox: READ, Analytics: READ, Leads: READ },
  },
  {
    name: 'Member',
    description: 'Home and their own profile only',
    grants: { Home: READ, Profile: READ },
  },
];

/** The Owner role's line. */
export const OWNER_ROLE_DESCRIPTION = 'Everything, billing and deleting the workspace included';

/** Subjects that are not features themselves but are granted through one (spec console.md section 6). */
export type DerivedSubject = 'Permissions' | 'Admin' | 'Partner';

/**
 * Names no feature may take: CASL's wildcard subject `all` (a grant on it is a grant on everything)
 * and the subjects derived from user_type or User Role. A feature so named would hand its holders
 * those abilities, so the server refuses such names and the ability builder ignores them.
 */
export const RESERVED_SUBJECTS: ReadonlyArray<DerivedSubject | 'all'> = [
  'all',
  'Admin',
  'Partner',
  'Permissions',
];
export const isReservedSubject = (name: string): boolean =>
  RESERVED_SUBJECTS.some((reserved) => reserved.toLowerCase() === name.trim().toLowerCase());

/**
 * Every API route, by method and path (without the `/api` prefix), with what it needs.
 * The server refuses to start with a route missing from this map, and the web builds its menu from
 * the same subjects, so the two can never disagree.
 */
const CORE_ROUTE_RULES = {
  'GET /health': open,
  'GET /auth/config': open,
  'POST /auth/signup': open,
  'POST /auth/login': open,
  'POST /auth/oauth/login': open,
  'POST /auth/refresh': open,
  'POST /auth/logout': open,
  'GET /auth/user': signedIn,
  'GET /auth/invited-user/:token': open,
  'POST /auth/invite-user': need('Roles', 'create'),
  'GET /auth/invitations': need('Roles', 'read'),
  'POST /auth/invitations/:id/resend': need('Roles', 'create'),
  'DELETE /auth/invitations/:id': need('Roles', 'write'),
  'GET /auth/user/all/:tenantId': need('Roles', 'read'),
  'GET /auth/user/teammates/:tenantId': need('Inbox', 'read'),
  'PUT /auth/user/profile/:id': signedIn,
  'PUT /auth/user/password/:id': signedIn,
  'DELETE /auth/user/:id': need('Roles', 'write'),
  'GET /role/roles/:tenantId': need('Roles', 'read'),
  'GET /role/features': need('Roles', 'read'),
  'POST /role/create': need('Roles', 'create'),
  'PATCH /role/:id': need('Roles', 'write'),
  'DELETE /role/:id': need('Roles', 'write'),
  'POST /role/feature-permissions': need('Roles', 'create'),
  'DELETE /role/feature/:id': need('Roles', 'write'),
  'PATCH /role/feature/:id/archive': need('Roles', 'write'),
  'POST /role/assign-feature-permissions': need('Roles', 'write'),
  'POST /role/assign-role': need('Roles', 'write'),
  'POST /notification/generate-otp': open,
  'POST /notification/verify-otp': open,
  'POST /notification/request-password-reset/': open,
  'POST /notification/verify-password-reset/': open,
  'POST /notification/complete-password-reset/': open,
  'POST /contact': open,
  'GET /jobs/:id': signedIn,
} as const satisfies Record<string, RouteRule>;

export const ROUTE_RULES = {
  ...CORE_ROUTE_RULES,
  ...NOTIFICATION_ROUTE_RULES,
  ...FILE_ROUTE_RULES,
  ...CRAWLER_ROUTE_RULES,
  ...NOTION_ROUTE_RULES,
  ...KNOWLEDGE_ROUTE_RULES,
  ...UNANSWERED_ROUTE_RULES,
  ...HANDOFF_ROUTE_RULES,
  ...BOT_ROUTE_RULES,
  ...CHAT_ROUTE_RULES,
  ...HELPDESK_ROUTE_RULES,
  ...LLM_ROUTE_RULES,
  ...CALENDAR_ROUTE_RULES,
  ...LEAD_ROUTE_RULES,
  ...HOME_ROUTE_RULES,
  ...ANALYTICS_ROUTE_RULES,
  ...SOCIAL_ROUTE_RULES,
  ...WHATSAPP_ROUTE_RULES,
  ...SHOPIFY_ROUTE_RULES,
  ...WOO_ROUTE_RULES,
  ...BILLING_ROUTE_RULES,
  ...INTEGRATION_ROUTE_RULES,
  ...ADMIN_ROUTE_RULES,
  ...PAYMENT_ROUTE_RULES,
  ...SHOPIFY_BILLING_ROUTE_RULES,
  ...AFFILIATE_ROUTE_RULES,
} as const satisfies Record<string, RouteRule>;
export type RouteKey = keyof typeof ROUTE_RULES;

/** What the ability builder needs of a user: its type and its roles' grants. */
export type AbilityUser = {
  user_type: string;
  /** A workspace member who is also a partner: both areas. */
  is_partner?: boolean;
  roles: ReadonlyArray<{
    is_owner: boolean;
    feature_permissions: ReadonlyArray<{
      can_create: boolean;
      can_read: boolean;
      can_write: boolean;
      feature_permission: { name: string; is_archived: boolean };
    }>;
  }>;
};

export type AppAbility = MongoAbility<[Action, Subject]>;

/**
 * Abilities from a user's roles (spec console.md section 6): each role's feature permissions grant
 * create, read and write on the named feature. Everyone reads Home; User Role grants read on Roles
 * and Permissions. An archived feature grants nothing.
 */
export function defineAbilityFor(user: AbilityUser): AppAbility {
  const { can, build } = new AbilityBuilder<AppAbility>(createMongoAbility);
  can('read', 'Home');
  const type = user.user_type.toLowerCase();
  // Platform admins read the admin console and change what it manages (plans, add-ons).
  if (type === 'admin') can(['read', 'write'], 'Admin');
  if (type === 'partner') {
    // Partners see only the partner area (spec section 6), where they manage their own links and profile.
    can(['read', 'write'], 'Partner');
    return build();
  }
  // A workspace member who joined the affiliate programme keeps the workspace and has the partner area too.
  if (user.is_partner) can(['read', 'write'], 'Partner');
  for (const role of user.roles) {
    for (const grant of role.feature_permissions) {
      const feature = grant.feature_permission;
      if (feature.is_archived || isReservedSubject(feature.name)) continue;
      if (grant.can_create) can('create', feature.name);
      if (grant.can_read) can('read', feature.name);
      if (grant.can_write) can('write', feature.name);
      if (feature.name === 'User Role' && grant.can_read) {
        can('read', 'Roles');
        can('read', 'Permissions');
      }
    }
  }
  return build();
}

/** Side-menu entries and the subject each needs (spec console.md section 2). */
export const MENU_SUBJECTS = [
  { path: '/bot', label: 'Manage Bots', subject: 'Create Bot' },
  { path: '/integrations', label: 'Integrations', subject: 'Create Bot' },
  { path: '/inbox', label: 'Support Inbox', subject: 'Inbox' },
  // Every bot's leads in one place, for whoever reads leads (an agent does without managing bots).
  { path: '/leads', label: 'Leads', subject: 'Leads' },
  { path: '/analytics', label: 'Analytics', subject: 'Analytics' },
  { path: '/profile', label: 'Profile', subject: 'Profile' },
  { path: '/roles', label: 'Users', subject: 'Roles' },
  { path: '/subscriptions', label: 'Subscriptions', subject: 'Subscriptions' },
  { path: '/upgrade', label: 'Upgrade', subject: 'Upgrade' },
  { path: '/api/docs', label: 'API Documentation', subject: 'API Documentation', external: true },
] as const;
