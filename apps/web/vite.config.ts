import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { GetModuleInfo, ManualChunksOption } from 'rollup';
import * as vite from 'vite';
import { defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';

const apiTarget = process.env.PARLEY_API_URL ?? 'http://localhost:3000';

/**
 * The shared contracts only declare schemas, constants and functions: nothing runs on import.
 * Saying so lets a page that needs one constant leave the other schemas (and zod, and CASL) behind,
 * which keeps /login within its 200 KB budget. Other packages keep their own `sideEffects` flags.
 */
const CONTRACTS = /[\\/]packages[\\/]contracts[\\/]dist[\\/]/;
function pureContracts(): Plugin {
  return {
    name: 'parley-pure-contracts',
    transform(code, id) {
      if (CONTRACTS.test(id)) return { code, map: null, moduleSideEffects: false };
      return null;
    },
  };
}

/**
 * plugin-react resolves the repository's hoisted Vite 8 (a Vitest dependency) rather than this
 * workspace's Vite 7, so it believes it runs on rolldown and adds rolldown-only plugins that break
 * the dev server ("Missing field `moduleType`"). Drop them when the Vite running us is not rolldown;
 * JSX then goes through esbuild (tsconfig `jsx: react-jsx`) and edits reload the page.
 */
const ROLLDOWN_ONLY = new Set([
  'vite:react:refresh-wrapper',
  'vite:react:config-post',
  'vite:react-refresh-fbm',
]);
function reactPlugins(): Plugin[] {
  const plugins = react() as Plugin[];
  return 'rolldownVersion' in vite ? plugins : plugins.filter((plugin) => !ROLLDOWN_ONLY.has(plugin.name));
}

/**
 * Library code: the many small modules that pages have in common. Not our own modules: they import
 * the contracts, which would follow them into these chunks and drag zod into the entry's imports.
 */
const SHARED = /node_modules[\\/]/;

/**
 * The session check that must run before the libraries' chunk is evaluated: a chunk of its own,
 * without imports, which index.html loads before the app (src/app/early-session.ts).
 */
const EARLY = /[\\/]src[\\/]app[\\/]early-session\.ts$/;

/** The shared modules that console pages use nearly all of; larger libraries (charts) stay apart. */
const CONSOLE_UI = /node_modules[\\/](@mui[\\/](material|system|utils)|react-hook-form|@hookform)[\\/]/;

/**
 * Every module `from` imports, directly or not, through static imports only. Not through the
 * contracts: they are pure (see pureContracts), so what they import (zod) is only kept where used.
 */
function staticClosure(from: string, getModuleInfo: GetModuleInfo): Set<string> {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length > 0) {
    const id = stack.pop() as string;
    if (seen.has(id) || CONTRACTS.test(id)) continue;
    seen.add(id);
    stack.push(...(getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

/**
 * Left alone, Rollup gives each set of pages sharing a few MUI components its own chunk: a console
 * page then costs 80 to 100 requests. The shared modules that are not in the entry go to two chunks
 * instead: what the sign-in pages need (`auth-ui`, kept small for /login's budget) and the rest
 * (`console-ui`, loaded by the app shell and every page inside it).
 */
function sharedChunks(): ManualChunksOption {
  let entry: Set<string> | undefined;
  let signIn: Set<string> | undefined;
  return (id, { getModuleInfo }) => {
    if (EARLY.test(id)) return 'early';
    if (CONTRACT_CONSTANTS.test(id)) return 'vendor';
    if (CHAT_CLIENT.test(id)) return 'console-ui';
    if (!SHARED.test(id)) return undefined;
    // Rollup pulls a manual chunk's unassigned dependencies into it: the entry's own libraries must
    // have a chunk of their own, or React would move into a page's chunk.
    entry ??= staticClosure(sourceFile('src/main.tsx'), getModuleInfo);
    signIn ??= new Set([
      ...staticClosure(sourceFile('src/layouts/BlankLayout.tsx'), getModuleInfo),
      ...staticClosure(sourceFile('src/features/auth/pages/LoginPage.tsx'), getModuleInfo),
    ]);
    if (entry.has(id)) return 'vendor';
    if (signIn.has(id)) return 'auth-ui';
    return CONSOLE_UI.test(id) ? 'console-ui' : undefined;
  };
}

/**
 * The chat client's sockets, message merging and lead form checks, which the inbox, the
 * playground, the bot page and the widget page share. Left alone, Rollup merges them (small, and
 * pure) into the entry, and /login downloads them; in `console-ui` they load with the console
 * pages, at no extra request. Its Markdown (marked, DOMPurify), and the barrel, stay with the
 * pages that use them.
 */
const CHAT_CLIENT = /[\\/]packages[\\/]chat-client[\\/]dist[\\/](?!markdown|index)[\w-]+\.js$/;
/**
 * The contracts' constants, which the entry and the chat client both import (the client through
 * `@parley/contracts/constants`, not the barrel, which would pull every schema and zod with it):
 * with the entry's libraries, so that `console-ui` does not take them and become an import of the
 * entry.
 */
const CONTRACT_CONSTANTS = /[\\/]packages[\\/]contracts[\\/]dist[\\/]constants\.js$/;

const sourceFile = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

export default defineConfig({
  // Brotli and gzip siblings (.br, .gz) written at build time, so the server sends them without
  // compressing per request (@fastify/static preCompressed).
  plugins: [...reactPlugins(), pureContracts(), compression({ algorithms: ['brotliCompress', 'gzip'] })],
  server: {
    port: 5173,
    proxy: {
      // The API and its WebSockets live on the server; in dev Vite forwards them so cookies stay same-origin.
      '/api': { target: apiTarget, changeOrigin: true, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 600,
    // A lazy page's chunk and the chunks it imports are fetched together (Vite's preload map), not
    // one level after another; no polyfill, as every browser we support has modulepreload.
    modulePreload: { polyfill: false },
    rollupOptions: {
      output: {
        // Rollup otherwise splits every shared MUI component into its own ~1 KB chunk: a page then
        // costs dozens of requests. Small chunks are merged into the chunks that load with them.
        experimentalMinChunkSize: 20_000,
        manualChunks: sharedChunks(),
      },
    },
  },
});
