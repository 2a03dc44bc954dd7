// bench/whatsapp: a WhatsApp campaign's send rate and a contacts CSV import, through the real API of
// the built server, against a fake WhatsApp Cloud API on loopback (fake-cloud.mjs). Per database:
//
// 1. CSV import: WHATSAPP_BENCH_ROWS (50,000) rows (phone in E.164, name, email, tags) posted to
//    POST /api/social/whatsapp/contacts/import, timed from sending the request to reading its
//    answer; beside csv-parse alone reading the same file from disk with the same options, in this
//    process (the floor: no upload, no validation, no database). Target: import ≤ 3 × csv-parse.
// 2. Campaign: WHATSAPP_BENCH_RECIPIENTS (20,000) of those contacts sent an approved template at
//    WHATSAPP_BENCH_RATE (80) messages a second (the server's WHATSAPP_SEND_RATE). The achieved rate
//    is measured at the fake: (sends − 1) / (last send accepted − first). Target: ≥ 0.95 × the
//    configured rate. Also the server process's CPU time per message (/proc/<pid>/stat, from the
//    send request to the last recipient settled) and, on a local PostgreSQL, its backends' CPU; and
//    duplicates: the fake counts sends per recipient number and per biz_opaque_callback_data, none
//    may arrive twice (exit 1 otherwise). Baseline: the fake's own accept rate, a tight loop of the
//    same requests from this process with the runner's concurrency (64 in flight), to show the
//    configured rate is reachable on this machine.
//
//   npm run build && node bench/run.mjs whatsapp
//   WHATSAPP_BENCH_RECIPIENTS=2000 WHATSAPP_BENCH_ROWS=5000 node bench/whatsapp/run.mjs      # quick
//
// The account is created as a person would: an owner signs up, Meta's embedded signup hands a code
// (POST /embedded-signup/onboard), the template is created, submitted and approved by Meta's signed
// review webhook. The built server runs on a fresh PGlite directory, then on a fresh PostgreSQL
// database when one is reachable (BENCH_DATABASE_URL, else the local server; BENCH_DATABASES picks
// one: pglite or postgres).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, openAsBlob, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startBuiltServer } from '../shared/built-server.mjs';
import { call } from '../shared/http.mjs';
import { measuresPglite, pg, postgresDatabase } from '../shared/postgres.mjs';
import { fmt, printTable } from '../shared/report.mjs';
import { duplicatesOf, startFakeCloud } from './fake-cloud.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const serverRequire = createRequire(path.join(root, 'apps/server/package.json'));
const { parse } = await import(pathToFileURL(serverRequire.resolve('csv-parse')).href);
const { parsePhoneNumberFromString } = serverRequire('libphonenumber-js');

/** Smoke mode (CI) only shows the benchmark still runs: tiny sizes, no warm-up, no target judged. */
const SMOKE = process.env.BENCH_SMOKE === '1';
const RECIPIENTS = Number(process.env.WHATSAPP_BENCH_RECIPIENTS ?? (SMOKE ? 400 : 20_000));
const RATE = Number(process.env.WHATSAPP_BENCH_RATE ?? (SMOKE ? 200 : 80));
const ROWS = Math.max(RECIPIENTS, Number(process.env.WHATSAPP_BENCH_ROWS ?? (SMOKE ? 2_000 : 50_000)));
/** The campaign runner's sends in flight (campaign.runner.ts IN_FLIGHT): the baseline uses as many. */
const CONCURRENCY = Number(process.env.WHATSAPP_BENCH_CONCURRENCY ?? 64);
const BASELINE_SENDS = Number(process.env.WHATSAPP_BENCH_BASELINE_SENDS ?? (SMOKE ? 500 : 10_000));
const WARM_ROWS = SMOKE ? 0 : 1_000;
const RATE_TARGET = 0.95;
const IMPORT_TARGET = 3;
const APP = { appId: '5550002', appSecret: `bench-${randomBytes(8).toString('hex')}` };
const TEMPLATE = { name: 'bench_spring_sale', language: 'en' };
const CAMPAIGN_TAG = 'bench-campaign';
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const digits = (n) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join('');

// UK mobile numbers +44 7700 0xxxxx: 100,000 distinct numbers, each valid for libphonenumber-js
// (the +44 7700 9xxxxx drama range is not), so every row is imported.
if (ROWS + WARM_ROWS > 100_000) throw new Error('WHATSAPP_BENCH_ROWS may be at most 99,000');
const phoneOf = (n) => `+447700${String(n).padStart(6, '0')}`;

/** A CSV of `count` contacts from number `from`: the first `tagged` rows carry the campaign's tag. */
function writeCsv(file, from, count, tagged, extraTag) {
  const lines = ['phone,name,email,tags'];
  for (let i = 0; i < count; i++) {
    const n = from + i;
    const tags = [i < tagged ? CAMPAIGN_TAG : null, n % 3 === 0 ? 'vip' : 'newsletter', extraTag]
      .filter(Boolean)
      .join(';');
    lines.push(`${phoneOf(n)},Customer ${n},customer${n}@example.com,${tags}`);
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
}

/**
 * csv-parse alone: the file streamed from disk with the import's options; resolves with ms and rows.
 * With `validate`, each phone is also checked as the import checks it (libphonenumber-js, E.164):
 * the floor of any import that validates numbers, measured beside the target's baseline.
 */
async function parseAlone(file, validate = false) {
  const started = performance.now();
  let rows = 0;
  const parser = createReadStream(file).pipe(
    parse({
      bom: true,
      columns: true,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
      info: true,
    }),
  );
  for await (const { record } of parser) {
    if (!record.phone) continue;
    if (validate && !parsePhoneNumberFromString(record.phone)?.isValid()) continue;
    rows += 1;
  }
  return { ms: performance.now() - started, rows };
}

/** The import as the console posts it: multipart, the mapping field before the file. */
async function importCsv(baseUrl, token, account, file) {
  const form = new FormData();
  form.append('mapping', JSON.stringify({ phone: 'phone', name: 'name', email: 'email', tags: 'tags' }));
  form.append('file', await openAsBlob(file, { type: 'text/csv' }), path.basename(file));
  const started = performance.now();
  const result = await call(
    baseUrl,
    'POST',
    `/api/social/whatsapp/contacts/import?whatsapp_account_id=${account.id}&tenant_id=${account.tenant_id}`,
    { token, form },
  );
  return { ms: performance.now() - started, result };
}

// ---- CPU time ------------------------------------------------------------------------------

const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** A process's user + system CPU time in ms (/proc/<pid>/stat), or NaN where /proc is not there. */
function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
  } catch {
    return Number.NaN;
  }
}

/**
 * The CPU of a local PostgreSQL's backends serving one database (those this process can read in
 * /proc; a backend that ended between two snapshots is missed). Null when the server is not local.
 */
async function backendsCpu(databaseUrl) {
  const url = new URL(databaseUrl);
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(url.hostname)) return null;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const snapshot = async () => {
    const { rows } = await client.query(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
    return new Map(rows.map((r) => [r.pid, cpuMs(r.pid)]).filter(([, ms]) => !Number.isNaN(ms)));
  };
  return {
    snapshot,
    /** CPU ms spent between two snapshots by the backends alive at the second. */
    spent: (before, after) => {
      if (after.size === 0) return Number.NaN;
      let total = 0;
      for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
      return total;
    },
    close: () => client.end(),
  };
}

// ---- The fake's own accept rate -------------------------------------------------------------

/** `count` template sends to the fake, `CONCURRENCY` in flight, as the server's CloudClient sends them. */
async function tightLoop(fake, number, token, count, label) {
  let next = 0;
  const url = `${fake.url}/${number.phoneNumberId}/messages`;
  async function lane() {
    while (next < count) {
      const n = next++;
      const response = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to: phoneOf(n).slice(1),
          type: 'template',
          template: {
            name: TEMPLATE.name,
            language: { code: TEMPLATE.language },
            components: [{ type: 'body', parameters: [{ type: 'text', text: `Customer ${n}` }] }],
          },
          biz_opaque_callback_data: `bench-${label}:${n}`,
        }),
      });
      const answer = await response.json();
      if (!answer.messages?.[0]?.id) throw new Error(`fake-cloud refused a send: ${JSON.stringify(answer)}`);
    }
  }
  fake.resetSends(number.phoneNumberId);
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, count) }, lane));
  const sent = fake.sendsOf(number.phoneNumberId);
  return ((sent.count - 1) * 1000) / (sent.last - sent.first);
}

// ---- One database ---------------------------------------------------------------------------

/** Owner, number (embedded signup), and the approved template; resolves with what the runs need. */
async function setUp(server, fake, number) {
  const signup = await call(server.baseUrl, 'POST', '/api/auth/signup', {
    body: {
      first_name: 'Bench',
      last_name: 'WhatsApp',
      email: `bench-whatsapp-${randomBytes(4).toString('hex')}@example.com`,
      password: 'bench-password-123',
      company_name: 'Bench WhatsApp',
    },
  });
  const token = signup.access_token;
  const code = `code-${randomBytes(6).toString('hex')}`;
  fake.addSignup(code, number);
  const { account } = await call(server.baseUrl, 'POST', '/api/social/whatsapp/embedded-signup/onboard', {
    token,
    body: { code, waba_id: number.wabaId, phone_number_id: number.phoneNumberId },
  });
  return { token, account };
}

/** A template created, submitted to Meta, and approved by Meta's signed review webhook. */
async function approvedTemplate(server, fake, token, account) {
  const template = await call(server.baseUrl, 'POST', '/api/social/whatsapp/templates', {
    token,
    body: {
      account_id: account.id,
      name: TEMPLATE.name,
      language: TEMPLATE.language,
      category: 'MARKETING',
      body: 'Hello {{1}}, our spring sale starts today: everything 20% off until Sunday.',
      body_examples: ['Ana'],
      footer: 'Reply STOP to unsubscribe',
    },
  });
  const submitted = await call(
    server.baseUrl,
    'POST',
    `/api/social/whatsapp/templates/${template.id}/submit`,
    {
      token,
    },
  );
  const status = await fake.approve(
    submitted.meta_template_id,
    `${server.baseUrl}/api/social/whatsapp/webhook`,
  );
  if (status !== 200) throw new Error(`the signed template review webhook answered ${status}`);
  const deadline = performance.now() + 10_000;
  for (;;) {
    const now = await call(server.baseUrl, 'GET', `/api/social/whatsapp/templates/${template.id}`, { token });
    if (now.status === 'APPROVED') return now;
    if (performance.now() > deadline)
      throw new Error(`template still ${now.status} 10 s after Meta's APPROVED review webhook`);
    await sleep(100);
  }
}

/** The import, bracketed by csv-parse alone on the same file (before and after; their mean). */
async function importRun(server, token, account, file, warmFile) {
  if (warmFile) {
    await parseAlone(warmFile);
    await importCsv(server.baseUrl, token, account, warmFile);
  }
  const before = await parseAlone(file);
  const run = await importCsv(server.baseUrl, token, account, file);
  const after = await parseAlone(file);
  if (before.rows !== ROWS || after.rows !== ROWS) throw new Error(`csv-parse read ${before.rows} rows`);
  const validated = await parseAlone(file, true);
  const exported = await exportCsv(server.baseUrl, token, account);
  return {
    parseMs: (before.ms + after.ms) / 2,
    validateMs: validated.ms,
    importMs: run.ms,
    result: run.result,
    exportMs: exported.ms,
    exportedRows: exported.rows,
  };
}

/** The contacts' export as the console fetches it (its time-out is 10 s): ms and data rows. */
async function exportCsv(baseUrl, token, account) {
  const started = performance.now();
  const response = await fetch(`${baseUrl}/api/social/whatsapp/contacts/export?account_id=${account.id}`, {
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  return { ms: performance.now() - started, rows: text.trimEnd().split('\n').length - 1 };
}

/** The campaign to the tagged contacts; resolves once every recipient is sent or failed. */
async function campaignRun(server, fake, token, account, template, number, databaseUrl) {
  const { campaign } = await call(server.baseUrl, 'POST', '/api/social/whatsapp/campaigns', {
    token,
    body: {
      account_id: account.id,
      name: 'Bench spring sale',
      template_id: template.id,
      audience_tags: [CAMPAIGN_TAG],
      variables: [{ type: 'field', field: 'name', fallback: 'there' }],
    },
  });
  fake.resetSends(number.phoneNumberId);
  const backends = databaseUrl ? await backendsCpu(databaseUrl) : null;
  const pgBefore = await backends?.snapshot();
  const cpuBefore = cpuMs(server.pid);
  const started = await call(server.baseUrl, 'POST', `/api/social/whatsapp/campaigns/${campaign.id}/send`, {
    token,
  });
  const recipients = started.campaign.counts.recipients;
  const sent = fake.sendsOf(number.phoneNumberId);
  // Waits at the fake (no load on the server), asking the server only every few seconds and at the end.
  const deadline = performance.now() + (recipients / RATE) * 2000 + 60_000;
  let counts = started.campaign.counts;
  let lastAsked = performance.now();
  for (;;) {
    const asking = sent.count >= recipients || performance.now() - lastAsked > 5_000;
    if (asking) {
      lastAsked = performance.now();
      counts = (
        await call(server.baseUrl, 'GET', `/api/social/whatsapp/campaigns/${campaign.id}/analytics`, {
          token,
        })
      ).counts;
      if (counts.sent + counts.delivered + counts.read + counts.failed >= recipients) break;
    }
    if (performance.now() > deadline)
      throw new Error(
        `campaign not done in time: the fake accepted ${sent.count} of ${recipients}; counts ${JSON.stringify(counts)}`,
      );
    await sleep(SMOKE ? 50 : 250);
  }
  const cpu = cpuMs(server.pid) - cpuBefore;
  const pgCpu = backends ? backends.spent(pgBefore, await backends.snapshot()) : Number.NaN;
  await backends?.close();
  return {
    recipients,
    counts,
    accepted: sent.count,
    achieved: ((sent.count - 1) * 1000) / (sent.last - sent.first),
    seconds: (sent.last - sent.first) / 1000,
    cpuPerMessage: cpu / recipients,
    pgCpuPerMessage: pgCpu / recipients,
    duplicates: duplicatesOf(sent),
  };
}

async function measure(label, fake, files, env, databaseUrl) {
  const wabaId = `1${digits(14)}`;
  const number = {
    wabaId,
    phoneNumberId: `2${digits(14)}`,
    displayPhoneNumber: '+44 20 7946 0000',
    verifiedName: `Bench shop ${label}`,
  };
  // The baseline's own number: same business account (so the template is approved for it), own token.
  const bare = { ...number, phoneNumberId: `3${digits(14)}` };
  const bareToken = fake.addSignup(`unused-${randomBytes(6).toString('hex')}`, bare);
  const server = await startBuiltServer({
    label: 'whatsapp',
    env: {
      META_APP_ID: APP.appId,
      META_APP_SECRET: APP.appSecret,
      META_VERIFY_TOKEN: 'bench',
      META_GRAPH_URL: fake.url,
      WHATSAPP_CONFIG_ID: '1234567890',
      WHATSAPP_SEND_RATE: String(RATE),
      ...env,
    },
  });
  try {
    const { token, account } = await setUp(server, fake, number);
    const imported = await importRun(server, token, account, files.main, files.warm);
    const template = await approvedTemplate(server, fake, token, account);
    if (!SMOKE) await tightLoop(fake, bare, bareToken, Math.min(1000, BASELINE_SENDS), `warm-${label}`);
    const fakeRate = await tightLoop(fake, bare, bareToken, BASELINE_SENDS, label);
    const campaign = await campaignRun(server, fake, token, account, template, number, databaseUrl);
    return { label, imported, fakeRate, campaign };
  } finally {
    await server.stop();
  }
}

// ---- Main -----------------------------------------------------------------------------------

const dir = mkdtempSync(path.join(os.tmpdir(), 'parley-bench-whatsapp-'));
const files = { main: path.join(dir, 'contacts.csv'), warm: WARM_ROWS ? path.join(dir, 'warm.csv') : null };
writeCsv(files.main, 0, ROWS, RECIPIENTS, null);
if (files.warm) writeCsv(files.warm, ROWS, WARM_ROWS, 0, 'warm');
const fake = await startFakeCloud(APP);
const postgres = await postgresDatabase('whatsapp');
const results = [];
try {
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  console.log(
    `\nbench/whatsapp: import of ${fmt(ROWS)} CSV rows; campaign to ${fmt(RECIPIENTS)} recipients at ` +
      `${RATE}/s; node ${process.version}, ${os.cpus().length} CPUs, load ${load}`,
  );
  if (measuresPglite) results.push(await measure('PGlite', fake, files, {}, null));
  if (postgres)
    results.push(await measure('PostgreSQL', fake, files, { DATABASE_URL: postgres.url }, postgres.url));
} finally {
  await fake.close();
  await postgres?.drop();
  rmSync(dir, { recursive: true, force: true });
}

const verdict = (met) => (SMOKE ? '' : met ? ' met' : ' MISSED');
const cpu = (ms) => (Number.isNaN(ms) ? '-' : ms.toFixed(2));
console.log('\nCSV import');
printTable(
  [
    'database',
    'csv-parse alone',
    'csv-parse + E.164 check',
    'import',
    `import vs csv-parse (target ≤ ${IMPORT_TARGET}×)`,
    'rows/s',
    'created / updated / rejected',
    'export (10 s time-out)',
  ],
  results.map(({ label, imported: i }) => {
    const ratio = i.importMs / i.parseMs;
    return [
      label,
      `${fmt(i.parseMs)} ms`,
      `${fmt(i.validateMs)} ms = ${(i.validateMs / i.parseMs).toFixed(1)}×`,
      `${fmt(i.importMs)} ms`,
      `${ratio.toFixed(1)}×${verdict(ratio <= IMPORT_TARGET)}`,
      fmt((ROWS * 1000) / i.importMs),
      `${fmt(i.result.created)} / ${fmt(i.result.updated)} / ${fmt(i.result.rejected_count)}`,
      `${fmt(i.exportMs)} ms, ${fmt(i.exportedRows)} rows`,
    ];
  }),
  1,
);
console.log('\nCampaign');
printTable(
  [
    'database',
    `fake accepts (${CONCURRENCY} in flight)`,
    'configured',
    `achieved at the fake (target ≥ ${RATE_TARGET}×)`,
    'server CPU ms/msg',
    'PostgreSQL CPU ms/msg',
    'sent / failed / duplicates',
  ],
  results.map(({ label, fakeRate, campaign: c }) => {
    const ratio = c.achieved / RATE;
    const sent = c.counts.sent + c.counts.delivered + c.counts.read;
    return [
      label,
      `${fmt(fakeRate)}/s`,
      `${RATE}/s`,
      `${c.achieved.toFixed(1)}/s = ${ratio.toFixed(3)}×${verdict(ratio >= RATE_TARGET)} (${c.seconds.toFixed(1)} s)`,
      cpu(c.cpuPerMessage),
      label === 'PGlite' ? 'in the server' : cpu(c.pgCpuPerMessage),
      `${fmt(sent)} / ${fmt(c.counts.failed)} / ${c.duplicates.to + c.duplicates.callback}`,
    ];
  }),
  1,
);

// Correctness, judged in smoke mode too: every row imported, every recipient sent once and only once.
const problems = [];
for (const { label, imported: i, campaign: c } of results) {
  if (i.result.created + i.result.updated !== ROWS || i.result.rejected_count !== 0)
    problems.push(
      `${label}: import of ${ROWS} rows answered ${JSON.stringify({ ...i.result, rejected: i.result.rejected.slice(0, 3) })}`,
    );
  if (i.exportedRows < ROWS) problems.push(`${label}: the export has ${i.exportedRows} rows, not ${ROWS}`);
  if (c.recipients !== RECIPIENTS)
    problems.push(`${label}: the campaign has ${c.recipients} recipients, not ${RECIPIENTS}`);
  if (c.counts.failed > 0) problems.push(`${label}: ${c.counts.failed} recipients failed`);
  if (c.accepted !== c.recipients)
    problems.push(`${label}: the fake accepted ${c.accepted} sends for ${c.recipients} recipients`);
  if (c.duplicates.to > 0 || c.duplicates.callback > 0)
    problems.push(
      `${label}: ${c.duplicates.to} numbers and ${c.duplicates.callback} callbacks were sent the campaign more than once`,
    );
}
if (problems.length > 0) {
  for (const problem of problems) console.error(`bench/whatsapp: ${problem}`);
  process.exit(1);
}
