// The floor of the list row: a bare Fastify server in its own process whose one route answers what
// Parley's GET /api/chat/bots/user/:id answers for the workspace's owner (every bot of the tenant
// with its file groups, web sources, Notion workspaces, roles and Instagram accounts) with one
// hand-written statement that builds the JSON in the database, sent as the database wrote it: no
// auth, no hooks, no response schema, no mapping in JavaScript. On PGlite it opens a copy of Parley's
// data directory (an embedded database admits one process); on PostgreSQL the same database.
// Started by bench/api/run.mjs, which checks that both answer the same bots.
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
const tenantId = Number(process.env.BENCH_TENANT_ID);

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
const LIST = `
  select coalesce(json_agg(bot order by created_at desc, bot_id desc), '[]'::json)::text as body from (
    select b.created_at, b.id as bot_id, jsonb_build_object(
      'bot_id', b.id, 'uuid', b.uuid, 'tenant_id', b.tenant_id, 'user_id', b.user_id,
      'bot_name', b.bot_name, 'description', b.description,
      'profile_image', case when b.profile_image is null then null else '/api/chat/bots/images/' || b.profile_image end,
      'temperature', b.temperature, 'prompt', b.prompt, 'llm_model', b.llm_model, 'internet', b.internet,
      'max_citations', b.max_citations, 'human_button', b.human_button,
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
    where b.tenant_id = $1
  ) rows`;

const statement = sql.raw(LIST.replace('$1', String(tenantId)));
const app = Fastify({ logger: false });
app.get('/api/chat/bots/user/:id', async (_request, reply) => {
  const [row] = await queryRows(database.db, statement);
  return reply.type('application/json').send(row.body);
});
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
