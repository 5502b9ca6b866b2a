// GET /releases.atom — the Atom feed of data releases (src/dataset/release-feed.ts), prerendered
// at build from the committed release manifests. Outside /v1: it is not an API operation.
import type { APIRoute } from 'astro';
import { readManifests } from '../dataset/release-manifest.ts';
import { releaseFeed } from '../dataset/release-feed.ts';
import { recordUrl } from '../api/record-urls.ts';

export const prerender = true;

/** The public origin the feed's links are absolute against (build time; docs/production.md "Configuration"). */
function publicOrigin(): string {
  const value = process.env['PUBLIC_ORIGIN'] || 'http://localhost:4321';
  const url = new URL(value);
  if (url.origin !== value.replace(/\/$/, ''))
    throw new Error(`PUBLIC_ORIGIN=${value}: give an origin only, e.g. https://api.example.com`);
  return url.origin;
}

export const GET: APIRoute = () =>
  new Response(releaseFeed(readManifests(), { origin: publicOrigin(), recordUrl }), {
    headers: { 'Content-Type': 'application/atom+xml; charset=utf-8' },
  });
