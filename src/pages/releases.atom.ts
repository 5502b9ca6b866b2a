// GET /releases.atom — the Atom feed of data releases (src/dataset/release-feed.ts), prerendered
// at build from the committed release manifests. Outside /v1: it is not an API operation.
import type { APIRoute } from 'astro';
import { readManifests } from '../dataset/release-manifest.ts';
import { releaseFeed } from '../dataset/release-feed.ts';

export const prerender = true;

export const GET: APIRoute = () =>
  new Response(releaseFeed(readManifests()), {
    headers: { 'Content-Type': 'application/atom+xml; charset=utf-8' },
  });
