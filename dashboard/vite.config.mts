import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/** The merchant dashboard: built into dist/dashboard, served by the service at /dashboard. */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/dashboard/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/dashboard', import.meta.url)),
    emptyOutDir: true,
    // No inline script or style: the page's CSP allows only files from its own origin.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
