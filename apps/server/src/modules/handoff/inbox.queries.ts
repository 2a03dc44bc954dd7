import { INBOX_FILTERS, type InboxConversation, type InboxFilter } from '@parley/contracts';
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryPrepared } from '../../core/db/database.js';
import { isoTime } from '../../core/db/json-sql.js';
import { MESSAGE_JSON } from '../chat/chat.queries.js';
import { botScope, type InboxReader } from './inbox-scope.js';

export type InboxQuery = {
  filter: InboxFilter;
  search?: string;
  botId?: number;
  includeTests: boolean;
  limit: number;
};

/** Each filter's condition on conversations `c` of one agent (`me`). */
function filterCondition(filter: InboxFilter, me: number): SQL {
  switch (filter) {
    case 'needs_human':
      return sql`c.handoff_state = 'human_requested'`;
    case 'mine':
      return sql`c.handoff_state <> 'closed' and (c.admin_id = ${me} or c.assignee_id = ${me})`;
    case 'with_agent':
      return sql`c.handoff_state = 'human'`;
    case 'bot':
      return sql`c.handoff_state = 'bot'`;
    case 'closed':
      return sql`c.handoff_state = 'closed'`;
  }
}

/**
 * A teammate of the conversation's tenant by name, else email, as personName in inbox.service.ts
 * names authors of notes (null: no such teammate).
 */
const teammate = (id: string) => `(select coalesce(nullif(btrim(regexp_replace(
    coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, ''), '\\s+', ' ', 'g')), ''),
    nullif(u.email, ''), 'A teammate')
  from users u where u.id = ${id} and u.tenant_id = c.tenant_id)`;
const profile = (key: string) =>
  `case when jsonb_typeof(c.user_profile->'${key}') = 'string' then c.user_profile->>'${key}' end`;

/**
 * A conversation `c` as the inbox lists it, with `lead` its latest lead: the visitor named by the
 * lead, else the channel's profile, else the signed-in user; the last message; when the contact form
 * was last left.
 */
const INBOX_ROW_JSON = `jsonb_build_object(
    'conversation_id', c.id, 'bot_id', c.bot_id, 'bot_name', b.bot_name, 'channel', c.channel,
    'handoff_state', c.handoff_state,
    'visitor_name', coalesce(nullif(lead.name, ''), nullif(${profile('name')}, ''), ${teammate('c.user_id')}),
    'visitor_email', coalesce(nullif(lead.email, ''), ${profile('email')}),
    'page_url', c.page_url, 'is_test', c.is_test, 'first_seen_at', ${isoTime('c.created_at')},
    'last_message_at', ${isoTime('c.last_message_at')},
    'last_message', (select ${MESSAGE_JSON} from messages m where m.conversation_id = c.id and m.seq = c.last_seq),
    'human_requested_at', ${isoTime('c.human_requested_at')},
    'contact_left_at', (select ${isoTime('f.created_at')} from leads f where f.conversation_id = c.id
      and f.tenant_id = c.tenant_id and f.source = 'contact_form' order by f.id desc limit 1),
    'closed_at', ${isoTime('c.closed_at')}, 'admin_id', c.admin_id, 'admin_name', c.admin_name,
    'assignee_id', c.assignee_id, 'assignee_name', ${teammate('c.assignee_id')}, 'unread_count', c.unread_count)`;

/** Inbox rows of the conversations `c` that `from` selects, in `order`, as one JSON list. */
const inboxRows = (
  from: SQL,
  order: SQL,
) => sql`coalesce((select json_agg(${sql.raw(INBOX_ROW_JSON)} order by ${order})
  from ${from} c join bots b on b.id = c.bot_id
  left join lateral (select l.name, l.email from leads l where l.conversation_id = c.id
    and l.tenant_id = c.tenant_id order by l.id desc limit 1) lead on true), '[]'::json)`;

/** Per filter, how many conversations in `scope` and how many with unread messages, as JSON. */
function countsJson(me: number, scope: SQL): SQL {
  const columns = INBOX_FILTERS.map((filter) => {
    const where = filterCondition(filter, me);
    return sql`${filter}::text, json_build_object('total', count(*) filter (where ${where}),
      'unread', count(*) filter (where ${where} and c.unread_count > 0))`;
  });
  return sql`(select json_build_object(${sql.join(columns, sql`, `)}) from conversations c where ${scope})`;
}

/** The search's condition: the conversation's name, the visitor's profile or lead, or a message. */
function searchCondition(search: string | undefined): SQL {
  if (!search) return sql``;
  const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`and (c.name ilike ${pattern}
    or c.user_profile->>'name' ilike ${pattern}
    or exists (select 1 from leads l where l.conversation_id = c.id and l.tenant_id = c.tenant_id
               and (l.name ilike ${pattern} or l.email ilike ${pattern}))
    or exists (select 1 from messages m where m.conversation_id = c.id and m.message ilike ${pattern}))`;
}

/**
 * The tenant's inbox for one agent, as the reply's JSON text, in one statement: the filter's
 * conversations (waiting ones oldest first, the others latest first) and every filter's counts, of
 * the bots the agent works with only.
 */
export async function inboxList(db: DbOrTx, reader: InboxReader, query: InboxQuery): Promise<string> {
  const { tenantId, userId: me } = reader;
  const scope = sql.join(
    [
      sql`c.tenant_id = ${tenantId}`,
      query.includeTests ? undefined : sql`not c.is_test`,
      query.botId ? sql`c.bot_id = ${query.botId}` : undefined,
      botScope(reader, sql`c.bot_id`),
    ].filter((part): part is SQL => part !== undefined),
    sql` and `,
  );
  const order =
    query.filter === 'needs_human'
      ? sql`c.human_requested_at asc, c.id asc`
      : sql`c.last_message_at desc, c.id desc`;
  const page = sql`(select * from conversations c
    where ${scope} and ${filterCondition(query.filter, me)} ${searchCondition(query.search)}
    order by ${order} limit ${query.limit})`;
  const [row] = await queryPrepared<{ body: string }>(
    db,
    sql`select json_build_object('conversations', ${inboxRows(page, order)},
      'counts', ${countsJson(me, scope)})::text as body`,
  );
  return row!.body;
}

/** One conversation of the tenant as the inbox lists it, or null. */
export async function inboxRow(db: DbOrTx, tenantId: number, id: number): Promise<InboxConversation | null> {
  const page = sql`(select * from conversations c where c.id = ${id} and c.tenant_id = ${tenantId})`;
  const [row] = await queryPrepared<{ body: string }>(
    db,
    sql`select ${inboxRows(page, sql`c.id`)}::text as body`,
  );
  const [found] = JSON.parse(row!.body) as InboxConversation[];
  return found ?? null;
}
