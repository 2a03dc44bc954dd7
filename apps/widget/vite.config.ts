import { defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';

/**
 * The shared contracts only declare schemas, constants and functions: nothing runs on import.
 * Saying so lets the widget take the few constants and texts it uses and leave zod behind.
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
 * One self-contained, minified IIFE: dist/widget.js, which the server serves at /widget.js.
 * Preact (not React, not MUI) keeps it small; `npm run build` prints its gzip size (budget 50 KB).
 */
export default defineConfig({
  // widget.js.br and widget.js.gz beside it, sent per Accept-Encoding by the server.
  plugins: [pureContracts(), compression({ algorithms: ['brotliCompress', 'gzip'] })],
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact', legalComments: 'none' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2020',
    minify: 'esbuild',
    sourcemap: false,
    lib: {
      entry: 'src/main.tsx',
      name: 'ParleyWidget',
      formats: ['iife'],
      fileName: () => 'widget.js',
    },
  },
});
