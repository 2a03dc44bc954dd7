import react from '@vitejs/plugin-react';
import * as vite from 'vite';
import { defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';

const apiTarget = process.env.PARLEY_API_URL ?? 'http://localhost:3000';

/**
 * The shared contracts only declare schemas, constants and functions: nothing runs on import.
 * Saying so lets a page that needs one constant leave the other schemas (and zod, and CASL) behind,
 * which keeps /login within its 250 KB budget. Other packages keep their own `sideEffects` flags.
 */
function pureContracts(): Plugin {
  return {
    name: 'parley-pure-contracts',
    transform(code, id) {
      if (/[\\/]packages[\\/]contracts[\\/]dist[\\/]/.test(id))
        return { code, map: null, moduleSideEffects: false };
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
    // No preload map of every lazy page's dependencies in the entry chunk (about 1.5 KB gzip of /login's
    // 250 KB budget). A page's chunks still load in parallel once its own chunk is parsed.
    modulePreload: false,
  },
});
