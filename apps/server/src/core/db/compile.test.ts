import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { compile, sql } from './database.js';
import { bots } from './schema.js';

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
    'a column and a table (through Drizzle)': sql`select ${bots.id} from ${bots} where ${bots.tenantId} = ${3}`,
    'inlined values (through Drizzle)': sql`select ${sql`${"it's"}`.inlineParams()}, ${4}`,
    'a date and a list (through Drizzle)': sql`select ${new Date('2026-01-02T00:00:00Z')} where id in ${[1, 2]}`,
  };

  for (const [name, query] of Object.entries(cases)) {
    it(name, () => {
      const expected = drizzle.sqlToQuery(query);
      const compiled = compile(query);
      expect({ sql: compiled.sql, params: compiled.params }).toEqual({
        sql: expected.sql,
        params: expected.params,
      });
    });
  }
});
