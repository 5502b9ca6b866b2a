// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';

// Astro authors the pages (the emitter, scripts/emit.ts, runs it and writes the bodies) and
// answers on-demand routes; our own node:http server (src/server) owns the request pipeline in
// front of it.
export default defineConfig({
  output: 'static',
  // The bench's scaling run builds synthetic registries into their own directories.
  outDir: process.env.TAI_DIST_DIR ?? './dist',
  adapter: node({ mode: 'middleware' }),
  trailingSlash: 'never',
  // Compression drops the space between text and a following inline element ("100 the most.<code>").
  compressHTML: false,
  build: { format: 'file' },
  security: { checkOrigin: false },
  devToolbar: { enabled: false },
});
