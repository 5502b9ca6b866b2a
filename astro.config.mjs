// @ts-check
import { defineConfig } from 'astro/config';
import node from '@astrojs/node';

// Astro authors the bytes (prerendered datasets, pages) and answers on-demand routes;
// our own node:http server (src/server) owns the request pipeline in front of it.
export default defineConfig({
  output: 'static',
  adapter: node({ mode: 'middleware' }),
  trailingSlash: 'never',
  build: { format: 'file' },
  security: { checkOrigin: false },
  devToolbar: { enabled: false },
});
