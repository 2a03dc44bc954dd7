// Shared by the benchmarks that run servers in child processes (bench/chat, bench/inbox).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { forkWorker } from './fork-worker.mjs';

/**
 * Forks `dir/worker.mjs` (see forkWorker) and resolves once it reports `{ port }` (and, optionally,
 * `database`). `ask(message, key)` sends a message and resolves with the reply's `key` field (or
 * rejects on a reply carrying `error`); `stop()` ends the child, SIGKILL after 15 s.
 */
export function startServerChild({ dir, bench, label, env }) {
  return new Promise((resolve, reject) => {
    const child = forkWorker({ dir, bench, label, env });
    const waiting = [];
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${label} did not start within 120 s`));
    }, 120_000);
    child.on('message', (message) => {
      if (message.port !== undefined) {
        clearTimeout(timer);
        server.port = message.port;
        server.database = message.database;
        resolve(server);
        return;
      }
      const index = waiting.findIndex((w) => message.error || w.key in message);
      if (index >= 0) {
        const [w] = waiting.splice(index, 1);
        if (message.error) w.reject(new Error(`${label}: ${message.error}`));
        else w.resolve(message[w.key]);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const error = new Error(`${label} exited (${signal ?? `code ${code}`})`);
      for (const w of waiting.splice(0)) w.reject(error);
      reject(error);
    });
    const server = {
      child,
      label,
      port: 0,
      database: undefined,
      ask(message, key) {
        return new Promise((resolve, reject) => {
          waiting.push({ key, resolve, reject });
          child.send(message);
        });
      },
      stop() {
        if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
        return new Promise((done) => {
          const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
          child.once('exit', () => {
            clearTimeout(kill);
            done();
          });
          child.kill('SIGTERM');
        });
      },
    };
  });
}

/**
 * Exits with a clear message unless the server is built (these files under apps/server/dist), and
 * answers the `ws` WebSocket class the server itself uses, for the bench's clients.
 */
export async function builtServer(files) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  for (const file of files) {
    if (!existsSync(path.join(root, 'apps/server/dist', file))) {
      console.error(`apps/server/dist/${file} is missing: run npm run build first`);
      process.exit(1);
    }
  }
  const serverRequire = createRequire(path.join(root, 'apps/server/package.json'));
  const { default: WebSocket } = await import(pathToFileURL(serverRequire.resolve('ws')).href);
  return { WebSocket };
}
