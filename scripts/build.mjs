#!/usr/bin/env node
// `npm run build` (and the first half of `npm start`): each workspace in order, one line before each
// step and one after the lot, so a first start that takes a minute never looks stuck.
import { spawnSync } from 'node:child_process';

const STEPS = [
  ['@parley/contracts', 'shared contracts'],
  ['@parley/chat-client', 'chat client'],
  ['@parley/web', 'web console'],
  ['@parley/widget', 'website widget'],
  ['@parley/server', 'API server'],
];

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

console.log(`Building Parley (${STEPS.length} steps; about a minute on a first start)`);
for (const [index, [workspace, label]] of STEPS.entries()) {
  const stepStarted = Date.now();
  console.log(`Building ${index + 1}/${STEPS.length}: ${label} (${workspace})`);
  const result = spawnSync(npm, ['run', 'build', '--silent', '-w', workspace], { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`Build failed in ${label} (${workspace}) after ${seconds(stepStarted)}`);
    process.exit(result.status ?? 1);
  }
}
console.log(`Built in ${seconds(started)}`);
