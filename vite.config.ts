import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compressedAssets } from './scripts/compress-assets.ts';

// The dashboard: a single-page app served by the service at `/` from dist/app.
export default defineConfig({
  // Brotli and gzip copies of the built assets, sent as they are (src/server/http/dashboard.ts).
  plugins: [react(), compressedAssets()],
  publicDir: 'public',
  build: {
    outDir: 'dist/app',
    emptyOutDir: true,
    sourcemap: false,
    // Read by scripts/check-bundle-budget.ts (npm test): which chunks the first paint loads.
    manifest: true,
    rolldownOptions: {
      output: {
        // Fewer, larger files: a page used to need ~60 small chunks, which queue on the browser's six
        // connections (and delay the API calls behind them). What the first paint needs is one chunk;
        // Mantine's components and the icons that pages use are one shared chunk, loaded with the first page.
        codeSplitting: {
          groups: [
            { name: 'initial', tags: ['$initial'], priority: 2 },
            { name: 'ui', test: /node_modules[\\/](@mantine[\\/]core|@tabler[\\/]icons-react|@floating-ui)/, priority: 1 },
            // The dashboard's own shared pieces (page header, tables, paging, dates): small, used by every page.
            { name: 'common', test: /src[\\/]app[\\/](components|lib)[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:8080', '/healthz': 'http://localhost:8080' },
  },
});
