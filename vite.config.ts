import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The dashboard: a single-page app served by the service at `/` from dist/app.
export default defineConfig({
  plugins: [react()],
  publicDir: 'public',
  build: {
    outDir: 'dist/app',
    emptyOutDir: true,
    sourcemap: false,
    // Read by scripts/check-bundle-budget.mjs (npm test): which chunks the first paint loads.
    manifest: true,
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:8080', '/healthz': 'http://localhost:8080' },
  },
});
