// bench/inbox/ceiling.mjs: how many messages per second this PostgreSQL server can store and
// announce, the way Parley does (INSERT and pg_notify in one statement, so the NOTIFY leaves at the
// commit), beside the same INSERT with the NOTIFY sent after its commit, and the INSERT alone.
// PostgreSQL serialises the commits of transactions that NOTIFY (a cluster-wide lock held through
// the commit's WAL flush), so the first is bounded by one flush at a time, while plain commits share
// flushes (group commit). The figure is a ceiling for all of Parley's nodes on that server together.
//
//   node bench/inbox/ceiling.mjs        CEILING_WRITERS (32) concurrent writers, CEILING_SECONDS (5) each
import { pg, postgresDatabase } from '../shared/postgres.mjs';

const WRITERS = Number(process.env.CEILING_WRITERS ?? 32);
const SECONDS = Number(process.env.CEILING_SECONDS ?? 5);

const database = await postgresDatabase('ceiling');
if (!database) process.exit(0);
const pool = new pg.Pool({ connectionString: database.url, max: WRITERS });
try {
  await pool.query('CREATE TABLE relay (id bigserial PRIMARY KEY, body text NOT NULL)');
  const body = JSON.stringify({ message: 'How do refunds work?', conversation_id: 1, seq: 2 });
  const ways = [
    [
      'INSERT and NOTIFY in one statement (Parley)',
      () =>
        pool.query(
          "WITH m AS (INSERT INTO relay (body) VALUES ($1) RETURNING id) SELECT pg_notify('relay', $1) FROM m",
          [body],
        ),
    ],
    [
      'INSERT, then NOTIFY after its commit',
      async () => {
        await pool.query('INSERT INTO relay (body) VALUES ($1)', [body]);
        await pool.query("SELECT pg_notify('relay', $1)", [body]);
      },
    ],
    ['INSERT alone (nothing announced)', () => pool.query('INSERT INTO relay (body) VALUES ($1)', [body])],
  ];
  console.log(`${WRITERS} concurrent writers, ${SECONDS} s each, on ${new URL(database.url).host}:`);
  for (const [name, write] of ways) {
    let count = 0;
    const end = Date.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: WRITERS }, async () => {
        while (Date.now() < end) {
          await write();
          count += 1;
        }
      }),
    );
    console.log(`  ${name.padEnd(46)} ${Math.round(count / SECONDS).toLocaleString('en')} messages/s`);
  }
} finally {
  await pool.end();
  await database.drop();
}
