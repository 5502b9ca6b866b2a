// Static files of the built site, loaded into memory at start and served with precomputed
// encodings. Only what is listed here is public: build artifacts (internal/) and the /v1
// datasets (served by the API layer) are never served as files.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { lookup } from 'mrmime';
import { walkFiles } from '../lib/walk.ts';
import { precomputeFile, type Precomputed } from '../representation/precomputed.ts';

export interface StaticFile {
  body: Precomputed;
  cacheControl: string;
  html: boolean;
}

const PRIVATE_DIRS = new Set(['internal', 'v1']);
const COMPRESSIBLE =
  /^(text\/|application\/(json|javascript|xml|manifest\+json|schema\+json)|image\/svg\+xml)/;

/** Maps public URL paths to files: "/docs" ← docs.html, "/" ← index.html, others by name. */
export function loadStaticFiles(clientDir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  for (const full of walkFiles(clientDir, { skipDir: (rel) => PRIVATE_DIRS.has(rel) })) {
    // .br/.gz siblings written at build are codings of their file, not files of their own.
    if (/\.(br|gz)$/.test(full) && existsSync(full.slice(0, -3))) continue;
    const rel = path.relative(clientDir, full).split(path.sep).join('/');
    const type = lookup(rel) ?? 'application/octet-stream';
    const contentType =
      type.startsWith('text/') || type === 'application/javascript' || type === 'application/json'
        ? `${type}; charset=utf-8`
        : type;
    const html = rel.endsWith('.html');
    let urlPath = `/${rel}`;
    if (html) urlPath = rel === 'index.html' ? '/' : `/${rel.replace(/(\/index)?\.html$/, '')}`;
    const immutable = rel.startsWith('_astro/');
    files.set(urlPath, {
      body: precomputeFile(full, contentType, COMPRESSIBLE.test(type)),
      cacheControl: immutable
        ? 'public, max-age=31536000, immutable'
        : html
          ? 'public, max-age=0, must-revalidate'
          : 'public, max-age=3600',
      html,
    });
  }
  return files;
}
