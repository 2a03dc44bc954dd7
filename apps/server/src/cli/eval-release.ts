import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The Parley releases an evaluation compares: this checkout, and an earlier commit built in a git
 * worktree beside it, so both are measured in the same run on the same machine. A release is only
 * its built server (apps/server/dist/main.js): the evaluation talks to it over HTTP.
 */
export type Release = { label: string; root: string };

export const REPO = fileURLToPath(new URL('../../../../', import.meta.url));

export function currentRelease(): Release {
  return { label: 'this one', root: REPO };
}

/**
 * An earlier commit, checked out in /tmp/parley-eval-<commit> and built there once (later runs
 * reuse it). Its packages come from this checkout's node_modules; its own workspace packages
 * (@parley/contracts…) from the worktree, or it would build against today's contracts.
 */
export function previousRelease(commit: string): Release {
  const short = git('rev-parse', '--short', commit).trim();
  const root = `/tmp/parley-eval-${short}`;
  const label = `previous (${short})`;
  const built = path.join(root, '.parley-eval-built');
  if (existsSync(built)) return { label, root };
  if (!existsSync(path.join(root, '.git'))) {
    git('worktree', 'prune');
    git('worktree', 'add', '--detach', root, commit);
  }
  linkNodeModules(root);
  addMissingDependencies(root);
  process.stderr.write(`eval: building ${commit} in ${root}\n`);
  execFileSync(process.execPath, [tscBin(), '-b', 'apps/server'], { cwd: root, stdio: 'inherit' });
  writeFileSync(built, `${new Date().toISOString()}\n`);
  return { label, root };
}

function git(...args: string[]): string {
  return execFileSync('git', ['-C', REPO, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

function tscBin(): string {
  return createRequire(path.join(REPO, 'package.json')).resolve('typescript/bin/tsc');
}

/** node_modules of the worktree: a link per package of ours, except the workspace's own. */
function linkNodeModules(root: string): void {
  linkEntries(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), ['@parley']);
  const own = path.join(root, 'node_modules/@parley');
  mkdirSync(own, { recursive: true });
  for (const [name, dir] of [
    ['contracts', 'packages/contracts'],
    ['chat-client', 'packages/chat-client'],
    ['server', 'apps/server'],
  ] as const)
    link(path.join('../..', dir), path.join(own, name));
  // Packages npm nested under apps/server (versions that differ from the root's).
  linkEntries(path.join(REPO, 'apps/server/node_modules'), path.join(root, 'apps/server/node_modules'), []);
}

function linkEntries(from: string, to: string, except: string[]): void {
  if (!existsSync(from)) return;
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(from)) {
    if (!except.includes(name)) link(path.join(from, name), path.join(to, name));
  }
}

function link(target: string, at: string): void {
  if (!existsSync(at)) symlinkSync(target, at);
}

/**
 * A dependency the earlier server has and this checkout dropped (@mozilla/readability before the
 * section reader replaced it) is fetched with `npm pack` and unpacked under its apps/server. Only
 * packages without dependencies of their own can be added this way; a build error says otherwise.
 */
function addMissingDependencies(root: string): void {
  const manifest = JSON.parse(readFileSync(path.join(root, 'apps/server/package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const modules = path.join(root, 'apps/server/node_modules');
  for (const [name, range] of Object.entries(manifest.dependencies)) {
    if (existsSync(path.join(modules, name)) || existsSync(path.join(REPO, 'node_modules', name))) continue;
    process.stderr.write(`eval: ${root} needs ${name}@${range}, fetched with npm pack\n`);
    const cache = path.join(REPO, 'eval/retrieval/.cache/packages');
    mkdirSync(cache, { recursive: true });
    const tarball = execFileSync('npm', ['pack', `${name}@${range}`, '--silent'], {
      cwd: cache,
      encoding: 'utf8',
    }).trim();
    const target = path.join(modules, name);
    mkdirSync(target, { recursive: true });
    execFileSync('tar', ['-xzf', path.join(cache, tarball), '-C', target, '--strip-components=1']);
  }
}
