import { z } from 'zod';
import { PlanLimits } from './billing.js';
import { inputText } from './common.js';
import { need, type RouteRule } from './rules.js';

/**
 * The platform admins' console (console.md /admin Admin Dashboard and /capability Capability Demos):
 * every workspace with its plan and usage, the durable job queue, the mail outbox, system health and
 * the demo bots. Platform-wide, so no tenant in the path: the `Admin` subject (user_type admin) is
 * the only gate, and everyone else gets 403 before anything is read.
 */
export const ADMIN_ROUTE_RULES = {
  'GET /admin/workspaces': need('Admin', 'read'),
  'GET /admin/workspaces/:id': need('Admin', 'read'),
  'GET /admin/jobs': need('Admin', 'read'),
  'POST /admin/jobs/:id/retry': need('Admin', 'write'),
  'GET /admin/mail': need('Admin', 'read'),
  'POST /admin/mail/:id/resend': need('Admin', 'write'),
  'GET /admin/health': need('Admin', 'read'),
  'GET /admin/demos': need('Admin', 'read'),
  'POST /admin/demos/:kind': need('Admin', 'write'),
} as const satisfies Record<string, RouteRule>;

export const ADMIN_TEXTS = {
  workspaceNotFound: 'Workspace not found',
  jobNotFound: 'Job not found',
  jobNotFailed: 'Only a failed job can be retried',
  mailNotFound: 'Mail not found',
  mailNotFailed: 'Only a mail that failed can be sent again',
  mailBodyGone: 'This mail has no body left to send',
} as const;

export const ADMIN_PAGE_SIZES = [10, 20, 50, 100] as const;

/** Paging of every admin list: page 1 first, at most 100 rows. */
const paging = {
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
};
const Paged = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  });

// ------------------------------------------------ workspaces ------------------------------------------------

export const AdminWorkspacesQuery = z.object({
  ...paging,
  /** Part of the workspace's name or of a member's email, any case. */
  search: inputText().trim().max(200).optional(),
});
export type AdminWorkspacesQuery = z.input<typeof AdminWorkspacesQuery>;

export const AdminWorkspaceUsage = z.object({
  bots: z.number().int(),
  members: z.number().int(),
  /** Bot answers this calendar month (UTC): what the plan's message credits count. */
  messages_this_month: z.number().int(),
  trained_characters: z.number(),
});
export type AdminWorkspaceUsage = z.infer<typeof AdminWorkspaceUsage>;

export const AdminWorkspace = z.object({
  id: z.number().int(),
  name: z.string(),
  created_at: z.string(),
  owner_email: z.string().nullable(),
  plan: z.object({ id: z.number().int(), name: z.string() }),
  /** The subscription that grants the plan; null on the default plan. */
  subscription_id: z.number().int().nullable(),
  usage: AdminWorkspaceUsage,
  /** The newest message of any of its conversations; null when it never had one. */
  last_activity_at: z.string().nullable(),
  is_demo: z.boolean(),
});
export type AdminWorkspace = z.infer<typeof AdminWorkspace>;
export const AdminWorkspacePage = Paged(AdminWorkspace);
export type AdminWorkspacePage = z.infer<typeof AdminWorkspacePage>;

export const AdminWorkspaceDetail = AdminWorkspace.extend({
  limits: z.object({
    max_chatbots: z.number(),
    max_team_members: z.number(),
    messages_credits_per_month: z.number(),
    trained_characters_per_chatbot: z.number(),
  }),
  unlimited: z.boolean(),
  /** The plan a platform admin gave (no payment), with its end and custom limits; null otherwise. */
  complimentary: z
    .object({
      subscription_id: z.number().int(),
      ends_at: z.string().nullable(),
      custom_limits: PlanLimits.partial().nullable(),
    })
    .nullable(),
  members: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      email: z.string(),
      user_type: z.string(),
      created_at: z.string(),
    }),
  ),
  bots: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      uuid: z.string(),
      is_public: z.boolean(),
      conversations: z.number().int(),
      last_message_at: z.string().nullable(),
    }),
  ),
});
export type AdminWorkspaceDetail = z.infer<typeof AdminWorkspaceDetail>;

// --------------------------------------------------- jobs ---------------------------------------------------

export const ADMIN_JOB_STATES = ['queued', 'active', 'completed', 'failed'] as const;
export const AdminJobsQuery = z.object({
  ...paging,
  status: z.enum(ADMIN_JOB_STATES).optional(),
  /** The job's kind, e.g. `mail.send` or `training.qna-pair`. */
  name: inputText().trim().max(200).optional(),
});
export type AdminJobsQuery = z.input<typeof AdminJobsQuery>;

export const AdminJob = z.object({
  id: z.string(),
  name: z.string(),
  status: z.enum(ADMIN_JOB_STATES),
  tenant_id: z.number().int().nullable(),
  tenant_name: z.string().nullable(),
  attempts: z.number().int(),
  max_attempts: z.number().int(),
  error: z.string().nullable(),
  run_after: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  completed_at: z.string().nullable(),
});
export type AdminJob = z.infer<typeof AdminJob>;

export const AdminJobCounts = z.object({
  queued: z.number().int(),
  active: z.number().int(),
  completed: z.number().int(),
  failed: z.number().int(),
});
export type AdminJobCounts = z.infer<typeof AdminJobCounts>;

export const AdminJobsPage = Paged(AdminJob).extend({
  /** Over the whole queue (not only this page, not filtered by state): the indicator. */
  counts: AdminJobCounts,
  /** Every kind of job present, for the filter. */
  kinds: z.array(z.string()),
});
export type AdminJobsPage = z.infer<typeof AdminJobsPage>;

export const JobIdParams = z.object({ id: z.uuid('must be a job id') });

// --------------------------------------------------- mail ---------------------------------------------------

export const ADMIN_MAIL_STATES = ['queued', 'sent', 'kept', 'failed', 'dropped'] as const;
export const AdminMailQuery = z.object({
  ...paging,
  status: z.enum(ADMIN_MAIL_STATES).optional(),
});
export type AdminMailQuery = z.input<typeof AdminMailQuery>;

export const AdminMail = z.object({
  id: z.number().int(),
  tenant_id: z.number().int().nullable(),
  tenant_name: z.string().nullable(),
  to: z.string(),
  subject: z.string(),
  /**
   * kept: no SMTP server configured, the mail stays in the outbox; failed: its delivery gave up;
   * dropped: not sent on purpose, `error` says why (its teammate was removed before delivery).
   */
  status: z.enum(ADMIN_MAIL_STATES),
  error: z.string().nullable(),
  attempts: z.number().int(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
});
export type AdminMail = z.infer<typeof AdminMail>;
export const AdminMailPage = Paged(AdminMail);
export type AdminMailPage = z.infer<typeof AdminMailPage>;

// -------------------------------------------------- health --------------------------------------------------

export const AdminHealth = z.object({
  database: z.object({
    engine: z.enum(['pglite', 'postgres']),
    version: z.string(),
    size_bytes: z.number(),
    ping_ms: z.number(),
  }),
  workers: z.object({
    /** Jobs that finished (completed or failed for good) in the last hour, in any process. */
    processed_last_hour: z.number().int(),
    failed_last_hour: z.number().int(),
    queued: z.number().int(),
    active: z.number().int(),
    /** How long the oldest due job has waited; null when none waits. */
    oldest_queued_seconds: z.number().nullable(),
    /** Handlers running in the process that answered. */
    running_here: z.number().int(),
  }),
  sockets: z.object({
    /** Open chat sockets (visitors and the playground) on the process that answered. */
    chat: z.number().int(),
    /** Open help-desk sockets on the process that answered. */
    helpdesk: z.number().int(),
    /** Help-desk sockets of every process, from the presence table (heartbeats of the last minute). */
    helpdesk_all_processes: z.number().int(),
  }),
  process: z.object({
    pid: z.number().int(),
    node_version: z.string(),
    uptime_seconds: z.number(),
    rss_bytes: z.number(),
    heap_used_bytes: z.number(),
  }),
});
export type AdminHealth = z.infer<typeof AdminHealth>;

// --------------------------------------------------- demos --------------------------------------------------

export const DEMO_KINDS = ['docs', 'store', 'booking'] as const;
export type DemoKind = (typeof DEMO_KINDS)[number];
export const DemoParams = z.object({ kind: z.enum(DEMO_KINDS, { error: 'must be docs, store or booking' }) });

export const Demo = z.object({
  kind: z.enum(DEMO_KINDS),
  title: z.string(),
  description: z.string(),
  /** What the bot really learnt from, said plainly (a sample catalogue is not a connected store). */
  source: z.string(),
  /** absent: not set up yet; training: its knowledge is being trained; ready; failed: training failed. */
  status: z.enum(['absent', 'training', 'ready', 'failed']),
  trained: z.number().int(),
  total: z.number().int(),
  bot: z.object({ id: z.number().int(), uuid: z.string(), name: z.string() }).nullable(),
  /** The questions to try, shown on the card and as the bot's suggestions. */
  try_asking: z.array(z.string()),
});
export type Demo = z.infer<typeof Demo>;
export const DemoList = z.object({ workspace_id: z.number().int().nullable(), demos: z.array(Demo) });
export type DemoList = z.infer<typeof DemoList>;
