// Runs every benchmark under bench/<name>/run.mjs, one after another (`npm run bench`, after a build).
// A benchmark name given as an argument runs only that one: `node bench/run.mjs api`.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const benches = readdirSync(here, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(path.join(here, entry.name, 'run.mjs')))
  .map((entry) => entry.name)
  .filter((name) => wanted.length === 0 || wanted.includes(name))
  .sort();

if (benches.length === 0) {
  console.error(
    wanted.length > 0 ? `No benchmark named ${wanted.join(', ')}` : 'No benchmark found under bench/',
  );
  process.exit(1);
}

const failed = [];
for (const name of benches) {
  console.log(`\n=== bench/${name} ===`);
  const code = await new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(here, name, 'run.mjs')], { stdio: 'inherit' });
    child.on('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0)));
  });
  if (code !== 0) failed.push(name);
}

if (failed.length > 0) {
  console.error(`\nFailed: ${failed.map((n) => `bench/${n}`).join(', ')}`);
  process.exit(1);
}
