import { and, eq, ilike, or } from 'drizzle-orm';
import { alias, PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { bots } from '../../modules/bots/bots.schema.js';
import { compile, compileDirect, sql } from './database.js';
import { jobs } from './schema.js';

const drizzle = new PgDialect();

describe('compile: a statement as Drizzle compiles it', () => {
  const cases = {
    'nested fragments, joins and raw text': sql`select ${sql.raw('a, b')} from t where ${sql.join(
      [sql`x = ${1}`, sql`y = ${'two'}`, sql`z is ${null}`, undefined],
      sql` and `,
    )} ${sql``} and ok = ${true} limit ${50}`,
    'a fragment reused twice': (() => {
      const scope = sql`c.tenant_id = ${7}`;
      return sql`select (select count(*) from c where ${scope}), (select 1 from c where ${scope} and id = ${9})`;
    })(),
    'columns, tables and conditions': sql`select ${bots.id} from ${bots} where ${and(
      eq(bots.tenantId, 3),
      or(ilike(bots.botName, '%a\\_b%'), eq(bots.isPublic, true)),
    )} order by ${bots.id} desc`,
    "a json column's value, encoded": sql`select 1 from ${jobs} where ${eq(jobs.data, { n: 1 })}`,
    'an aliased table': (() => {
      const other = alias(bots, 'other');
      return sql`select ${other.id} from ${other} where ${eq(other.id, 1)}`;
    })(),
    'inlined values (through Drizzle)': sql`select ${sql`${"it's"}`.inlineParams()}, ${4}`,
    'a date and a list (through Drizzle)': sql`select ${new Date('2026-01-02T00:00:00Z')} where id in ${[1, 2]}`,
  };

  /** What the direct walk leaves to Drizzle. */
  const throughDrizzle = new Set(['inlined values (through Drizzle)', 'a date and a list (through Drizzle)']);

  for (const [name, query] of Object.entries(cases)) {
    it(name, () => {
      expect(compileDirect(query) === null).toBe(throughDrizzle.has(name));
      const expected = drizzle.sqlToQuery(query);
      const compiled = compile(query);
      expect({ sql: compiled.sql, params: compiled.params }).toEqual({
        sql: expected.sql,
        params: expected.params,
      });
    });
  }
});
