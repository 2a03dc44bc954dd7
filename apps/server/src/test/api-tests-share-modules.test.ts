import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * What leaks from one API test file into the next now that they share a worker's modules
 * (vitest.config.ts, `isolate: false`): a mocked module, a stubbed global, a changed environment.
 */
const LEAKS: Array<[RegExp, string]> = [
  [/\bvi\.(do)?mock\(/, 'mocks a module'],
  [/\bvi\.stub(Env|Global)\(/, 'stubs the environment or a global'],
  [
    /\bprocess\.env\.\w+\s*=[^=]|\bprocess\.env\[[^\]]+\]\s*=[^=]|\bdelete process\.env\b/,
    'changes process.env',
  ],
];

/** The API test files and the helpers they share, relative to apps/server/src. */
function apiTestSources(): string[] {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' });
  const helper = (file: string) => file.startsWith(`test${path.sep}`) && file.endsWith('.ts');
  const self = path.relative(SRC, fileURLToPath(import.meta.url));
  return files.filter((file) => file !== self && (file.endsWith('.api.test.ts') || helper(file)));
}

it('API test files leave nothing behind for the next file in their worker', () => {
  const sources = apiTestSources();
  expect(sources.length).toBeGreaterThan(50);
  const leaks = sources.flatMap((file) => {
    const text = readFileSync(path.join(SRC, file), 'utf8');
    return LEAKS.filter(([pattern]) => pattern.test(text)).map(([, what]) => `${file} ${what}`);
  });
  expect(leaks, 'build it through the app the test starts instead (README, Tests)').toEqual([]);
});
