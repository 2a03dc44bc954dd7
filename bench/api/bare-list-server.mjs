// The floors of bench/api's list rows: a bare Fastify server in its own process whose routes answer
// what Parley's list routes answer for the workspace's owner, each with one hand-written statement
// that builds the JSON in the database, sent as the database wrote it: no auth, no hooks, no response
// schema, no mapping in JavaScript. The lists: the bots (each with its file groups, web sources,
// Notion workspaces, roles and Instagram accounts), the owner's conversations with a bot, the inbox's
// first filter with its counts, a Shopify store's products and a WhatsApp number's contacts, each
// answered as Parley answers it when asked without a query. On PGlite it opens a copy of Parley's
// data directory (an embedded database admits one process); on PostgreSQL the same database.
// Started by bench/api/run.mjs (BENCH_LIST_SCOPE: the ids the routes name), which checks that both
// answer the same JSON.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { openDatabase, queryRows, sql } from '../../apps/server/dist/core/db/database.js';

const serverRequire = createRequire(new URL('../../apps/server/package.json', import.meta.url));
const { default: Fastify } = await import(pathToFileURL(serverRequire.resolve('fastify')).href);

const url = process.env.BENCH_LIST_DATABASE_URL;
const database = await openDatabase(
  url
    ? { kind: 'postgres', url, poolSize: 10 }
    : { kind: 'pglite', dataDir: process.env.BENCH_LIST_DATA_DIR },
);
const scope = JSON.parse(process.env.BENCH_LIST_SCOPE);

/** A link table's rows of one bot as a JSON list, ordered by id. */
const links = (item, from, id) =>
  `coalesce((select json_agg(${item} order by ${id}) from ${from}), '[]'::json)`;
const iso = (column) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const FILE_GROUPS = links(
  `json_build_object('id', g.id, 'name', g.group_name)`,
  'bot_file_groups l join file_groups g on g.id = l.file_group_id where l.bot_id = b.id',
  'g.id',
);
const WEB_SOURCES = links(
  `json_build_object('source_id', w.id, 'base_url', w.base_url, 'name', w.name, 'description', w.description)`,
  'bot_web_sources l join web_sources w on w.id = l.web_source_id where l.bot_id = b.id',
  'w.id',
);
const NOTION = links(
  `json_build_object('id', n.id, 'name', n.workspace_name)`,
  'bot_notion_workspaces l join notion_workspaces n on n.id = l.notion_workspace_id where l.bot_id = b.id',
  'n.id',
);
const ROLES = links(
  `json_build_object('id', r.id, 'name', r.name)`,
  'bot_roles l join roles r on r.id = l.role_id where l.bot_id = b.id',
  'r.id',
);
const INSTAGRAM = links(
  `json_build_object('id', s.id, 'username', coalesce(s.username, ''))`,
  `social_accounts s where s.bot_id = b.id and s.channel = 'instagram'`,
  's.id',
);
// json_build_object takes at most 100 arguments: the bot's own fields, then its links, merged.
const BOTS = `
  select coalesce(json_agg(bot order by created_at desc, bot_id desc), '[]'::json)::text as body from (
    select b.created_at, b.id as bot_id, jsonb_build_object(
      'bot_id', b.id, 'uuid', b.uuid, 'tenant_id', b.tenant_id, 'user_id', b.user_id,
      'bot_name', b.bot_name, 'description', b.description,
      'profile_image', case when b.profile_image is null then null else '/api/chat/bots/images/' || b.profile_image end,
      'temperature', b.temperature, 'prompt', b.prompt, 'llm_model', b.llm_model, 'internet', b.internet,
      'max_citations', b.max_citations, 'human_button', b.human_button,
      'visitor_language', b.visitor_language,
      'handoff_confidence', b.handoff_confidence, 'analytics', b.analytics, 'is_public', b.is_public,
      'brand_color', b.brand_color, 'welcome_message', coalesce(b.welcome_message, ''),
      'suggestion_questions', b.suggestion_questions, 'lead_form_config', b.lead_form_config,
      'allowed_origins', b.allowed_origins, 'shopify_store_id', b.shopify_store_id,
      'woocommerce_store_id', b.woocommerce_store_id,
      'created_at', ${iso('b.created_at')}, 'updated_at', ${iso('b.updated_at')}
    ) || jsonb_build_object(
      'file_groups', fg, 'web_sources', ws, 'notion_workspaces', nw, 'roles', ro, 'instagram_accounts', ig,
      'file_group_ids', (select coalesce(json_agg(e->'id'), '[]'::json) from json_array_elements(fg) e),
      'web_source_ids', (select coalesce(json_agg(e->'source_id'), '[]'::json) from json_array_elements(ws) e),
      'notion_workspace_ids', (select coalesce(json_agg(e->'id'), '[]'::json) from json_array_elements(nw) e)
    ) as bot
    from bots b,
      lateral (select ${FILE_GROUPS} fg, ${WEB_SOURCES} ws, ${NOTION} nw, ${ROLES} ro, ${INSTAGRAM} ig) l
    where b.tenant_id = ${scope.tenantId}
  ) rows`;

// GET /chat/chats/user/:userId/bot/:botId: the first page (20), latest first; user_profile and
// whatsapp_phone_number_id only when set.
const CONVERSATIONS = `
  select coalesce(json_agg(jsonb_build_object(
      'id', c.id, 'bot_id', c.bot_id, 'name', c.name, 'channel', c.channel, 'user_id', c.user_id,
      'visitor_id', c.visitor_id, 'is_helpdesk_in_control', c.is_helpdesk_in_control, 'admin_id', c.admin_id,
      'admin_name', c.admin_name, 'handoff_state', c.handoff_state, 'unread_count', c.unread_count,
      'last_seq', c.last_seq, 'last_message_at', ${iso('c.last_message_at')}, 'created_at', ${iso('c.created_at')}
    ) || case when c.user_profile is null then '{}'::jsonb else jsonb_build_object('user_profile', c.user_profile) end
      || case when coalesce(c.whatsapp_phone_number_id, '') = '' then '{}'::jsonb
         else jsonb_build_object('whatsapp_phone_number_id', c.whatsapp_phone_number_id) end
    order by c.last_message_at desc, c.id desc), '[]'::json)::text as body
  from (select * from conversations where tenant_id = ${scope.tenantId} and bot_id = ${scope.botId}
        and user_id = ${scope.userId} order by last_message_at desc, id desc limit 20) c`;

/** A teammate's name as the inbox shows it: first and last name, else the email. */
const person = (id) => `(select coalesce(nullif(btrim(regexp_replace(
    coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, ''), '\\s+', ' ', 'g')), ''), nullif(u.email, ''), 'A teammate')
  from users u where u.id = ${id} and u.tenant_id = c.tenant_id)`;
const LAST_MESSAGE = `(select jsonb_build_object(
    'id', m.id, 'chat_id', m.id, 'conversation_id', m.conversation_id, 'bot_id', m.bot_id, 'seq', m.seq,
    'message', m.message, 'message_type', m.message_type, 'message_source', m.message_source,
    'sender_id', m.sender_id, 'recipient_id', m.recipient_id, 'user_id', m.metadata->'user_id',
    'timestamp', ${iso('m.created_at')}, 'sources', m.sources, 'qna_id', m.qna_id, 'attachments', m.attachments,
    'answer_mode', m.metadata->'answer_mode', 'actions', coalesce(m.metadata->'actions', '[]'::jsonb),
    'handoff', m.metadata->'handoff',
    'usage', case when m.prompt_tokens is null and m.completion_tokens is null then null
      else jsonb_build_object('prompt_tokens', coalesce(m.prompt_tokens, 0), 'completion_tokens', coalesce(m.completion_tokens, 0)) end)
    || case when m.metadata->'delivery' is null then '{}'::jsonb else jsonb_build_object('delivery',
      jsonb_build_object('status', m.metadata->'delivery'->'status', 'error', m.metadata->'delivery'->'error')) end
  from messages m where m.conversation_id = c.id and m.seq = c.last_seq)`;
const VISIBLE = `c.tenant_id = ${scope.tenantId} and not c.is_test`;
const filters = {
  needs_human: `c.handoff_state = 'human_requested'`,
  mine: `c.handoff_state <> 'closed' and (c.admin_id = ${scope.userId} or c.assignee_id = ${scope.userId})`,
  with_agent: `c.handoff_state = 'human'`,
  bot: `c.handoff_state = 'bot'`,
  closed: `c.handoff_state = 'closed'`,
};
const COUNTS = Object.entries(filters)
  .map(
    ([name, where]) =>
      `'${name}', json_build_object('total', count(*) filter (where ${where}),
        'unread', count(*) filter (where ${where} and c.unread_count > 0))`,
  )
  .join(', ');
// GET /chat/helpdesk/inbox/:tenantId: needs_human (oldest waiting first, 50), with every filter's counts.
const INBOX = `
  select json_build_object(
    'conversations', coalesce((select json_agg(json_build_object(
        'conversation_id', c.id, 'bot_id', c.bot_id, 'bot_name', b.bot_name, 'channel', c.channel,
        'handoff_state', c.handoff_state,
        'visitor_name', coalesce(nullif(l.name, ''),
          case when jsonb_typeof(c.user_profile->'name') = 'string' then nullif(c.user_profile->>'name', '') end,
          ${person('c.user_id')}),
        'visitor_email', coalesce(nullif(l.email, ''),
          case when jsonb_typeof(c.user_profile->'email') = 'string' then c.user_profile->>'email' end),
        'page_url', c.page_url, 'is_test', c.is_test, 'first_seen_at', ${iso('c.created_at')},
        'last_message_at', ${iso('c.last_message_at')}, 'last_message', ${LAST_MESSAGE},
        'human_requested_at', ${iso('c.human_requested_at')},
        'contact_left_at', (select ${iso('f.created_at')} from leads f where f.conversation_id = c.id
          and f.tenant_id = c.tenant_id and f.source = 'contact_form' order by f.id desc limit 1),
        'closed_at', ${iso('c.closed_at')}, 'admin_id', c.admin_id, 'admin_name', c.admin_name,
        'assignee_id', c.assignee_id, 'assignee_name', ${person('c.assignee_id')}, 'unread_count', c.unread_count
      ) order by c.human_requested_at, c.id)
      from (select * from conversations c where ${VISIBLE} and ${filters.needs_human}
            order by c.human_requested_at, c.id limit 50) c
      join bots b on b.id = c.bot_id
      left join lateral (select name, email from leads l where l.conversation_id = c.id
        and l.tenant_id = c.tenant_id order by l.id desc limit 1) l on true), '[]'::json),
    'counts', (select json_build_object(${COUNTS}) from conversations c where ${VISIBLE})
  )::text as body`;

// GET /shopify/products?store_id=: the first page (50), newest first, with the totals.
const PRODUCTS_OF = `from store_records r where r.tenant_id = ${scope.tenantId} and r.store_id = ${scope.storeId}
  and r.kind = 'product'`;
const PRODUCTS = `
  select json_build_object(
    'items', coalesce((select json_agg(json_build_object(
        'id', r.id, 'store_id', r.store_id, 'kind', r.kind, 'external_id', r.external_id, 'title', r.title,
        'url', r.url, 'status', r.status, 'updated_at', ${iso('r.remote_updated_at')},
        'synced_at', ${iso('r.synced_at')}, 'training_status', r.training_status,
        'trained', coalesce(r.training_status = 'completed', false), 'data', r.data) order by r.id desc)
      from (select * ${PRODUCTS_OF} order by r.id desc limit 50) r), '[]'::json),
    'total', (select count(*) ${PRODUCTS_OF}), 'total_filtered', (select count(*) ${PRODUCTS_OF}),
    'page', 1, 'limit', 50)::text as body`;

// GET /social/whatsapp/contacts?account_id=: the first page (50) by id, the total and the tags in use.
const CONTACTS_OF = `from whatsapp_contacts w where w.account_id = ${scope.accountId}`;
const CONTACTS = `
  select json_build_object(
    'contacts', coalesce((select json_agg(json_build_object(
        'id', w.id, 'account_id', w.account_id, 'phone', w.phone, 'name', w.name, 'email', w.email,
        'tags', w.tags, 'attributes', w.attributes, 'opted_out', w.opted_out_at is not null,
        'opted_out_at', ${iso('w.opted_out_at')}, 'created_at', ${iso('w.created_at')}) order by w.id)
      from (select * ${CONTACTS_OF} order by w.id limit 50) w), '[]'::json),
    'total', (select count(*) ${CONTACTS_OF}),
    'tags', (select coalesce(json_agg(tag order by tag), '[]'::json)
      from (select distinct unnest(w.tags) as tag ${CONTACTS_OF} order by 1 limit 500) t)
  )::text as body`;

/** Each floor: Parley's route (as Fastify names it) and its statement. */
const FLOORS = {
  '/api/chat/bots/user/:id': BOTS,
  '/api/chat/chats/user/:userId/bot/:botId': CONVERSATIONS,
  '/api/chat/helpdesk/inbox/:tenantId': INBOX,
  '/api/shopify/products': PRODUCTS,
  '/api/social/whatsapp/contacts': CONTACTS,
};

const app = Fastify({ logger: false });
for (const [route, text] of Object.entries(FLOORS)) {
  const statement = sql.raw(text);
  app.get(route, async (_request, reply) => {
    const [row] = await queryRows(database.db, statement);
    return reply.type('application/json').send(row.body);
  });
}
await app.listen({ port: 0, host: '127.0.0.1' });

const stop = () =>
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('disconnect', stop);
process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
});
process.send?.({ port: app.server.address().port });
