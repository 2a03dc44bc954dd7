import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryPrepared } from '../../core/db/database.js';
import { isoTime } from '../../core/db/json-sql.js';

export type ContactFilter = { search?: string; tag?: string; skip: number; limit: number };

/** A contact `w` as JSON, as the service's viewOf maps it. */
const CONTACT_JSON = `json_build_object(
    'id', w.id, 'account_id', w.account_id, 'phone', w.phone, 'name', w.name, 'email', w.email,
    'tags', w.tags, 'attributes', w.attributes, 'opted_out', w.opted_out_at is not null,
    'opted_out_at', ${isoTime('w.opted_out_at')}, 'created_at', ${isoTime('w.created_at')})`;

/** The contacts of account `a` that the search and tag match. */
function matching(filter: ContactFilter): SQL {
  const conditions = [sql`w.account_id = a.id`];
  if (filter.search) {
    const like = `%${filter.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    conditions.push(sql`(w.phone ilike ${like} or w.name ilike ${like} or w.email ilike ${like})`);
  }
  if (filter.tag) conditions.push(sql`${filter.tag} = any(w.tags)`);
  return sql`whatsapp_contacts w where ${sql.join(conditions, sql` and `)}`;
}

/**
 * A page of a number's contacts by id, their total and the tags in use on the number, as the
 * reply's JSON text, in one statement that also checks the number is the tenant's: null when not.
 */
export async function contactPage(
  db: DbOrTx,
  tenantId: number,
  accountId: number,
  filter: ContactFilter,
): Promise<string | null> {
  const from = matching(filter);
  const [row] = await queryPrepared<{ body: string }>(
    db,
    sql`select json_build_object(
        'contacts', coalesce((select json_agg(${sql.raw(CONTACT_JSON)} order by w.id)
          from (select w.* from ${from} order by w.id offset ${filter.skip} limit ${filter.limit}) w), '[]'::json),
        'total', (select count(*) from ${from}),
        'tags', (select coalesce(json_agg(tag order by tag), '[]'::json) from (select distinct unnest(w.tags) as tag
          from whatsapp_contacts w where w.account_id = a.id order by 1 limit 500) used))::text as body
      from whatsapp_accounts a where a.id = ${accountId} and a.tenant_id = ${tenantId}`,
  );
  return row?.body ?? null;
}
