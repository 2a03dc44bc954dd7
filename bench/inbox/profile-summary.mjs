// bench/inbox: reads V8 CPU profiles (written with BENCH_CPU_PROF_DIR) and prints where each process
// spent its CPU: self time by place (package, or file of apps/server/dist, or Node's internals) and
// the heaviest functions with their file and line.
//
//   node bench/inbox/profile-summary.mjs /tmp/prof/inbox-parley-a-*.cpuprofile [more...]
//   PROFILE_TOP=30 PROFILE_SKIP_S=20 node bench/inbox/profile-summary.mjs ...   (skip start-up)
import { readFileSync } from 'node:fs';
import path from 'node:path';

const TOP = Number(process.env.PROFILE_TOP ?? 20);
/** Samples of the first seconds (module loading, migrations, set-up) are left out. */
const SKIP_US = Number(process.env.PROFILE_SKIP_S ?? 0) * 1_000_000;
const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node bench/inbox/profile-summary.mjs <file.cpuprofile>...');
  process.exit(1);
}

/** Where a function lives: a package, a file of the built server, Node's internals, or V8's own. */
function placeOf(url) {
  if (!url) return '(V8: gc, idle, program)';
  if (url.startsWith('node:')) return 'node: internals';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const dist = url.indexOf('/apps/server/dist/');
  if (dist >= 0) return `server: ${url.slice(dist + '/apps/server/dist/'.length)}`;
  const bench = url.indexOf('/bench/');
  if (bench >= 0) return `bench: ${url.slice(bench + 1)}`;
  return path.basename(url);
}

const pct = (part, whole) => `${((100 * part) / whole).toFixed(1).padStart(5)} %`;
const msOf = (us) => `${(us / 1000).toFixed(0).padStart(7)} ms`;

for (const file of files) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  // Each sample's time is the delta to the next one.
  const self = new Map();
  let elapsed = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    elapsed += profile.timeDeltas[i] ?? 0;
    if (elapsed < SKIP_US) continue;
    const delta = profile.timeDeltas[i + 1] ?? 0;
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + delta);
  }
  const total = Math.max(0, profile.endTime - profile.startTime - SKIP_US);
  let idle = 0;
  const places = new Map();
  const functions = new Map();
  for (const [id, us] of self) {
    const { callFrame } = byId.get(id);
    if (callFrame.functionName === '(idle)') {
      idle += us;
      continue;
    }
    const place = placeOf(callFrame.url);
    places.set(place, (places.get(place) ?? 0) + us);
    const name = `${callFrame.functionName || '(anonymous)'}  ${place}${callFrame.url ? `:${callFrame.lineNumber + 1}` : ''}`;
    functions.set(name, (functions.get(name) ?? 0) + us);
  }
  const busy = total - idle;
  console.log(
    `\n${path.basename(file)}: ${msOf(total).trim()} profiled, ${msOf(busy).trim()} busy (${pct(busy, total).trim()})`,
  );
  console.log('  self time by place (share of busy time):');
  for (const [place, us] of [...places].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
    console.log(`    ${msOf(us)} ${pct(us, busy)}  ${place}`);
  }
  console.log('  heaviest functions (self time):');
  for (const [name, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
    console.log(`    ${msOf(us)} ${pct(us, busy)}  ${name}`);
  }
}
