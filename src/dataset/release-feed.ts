// The Atom feed of data releases (RFC 4287), written at build from the committed release
// manifests: one entry per release with its dataset version, its date, how many records it
// added, changed and removed against the release before it, the records themselves by name (up
// to FEED_RECORDS_PER_CHANGE per kind and change, each linked to its API answer), and a link to
// its changelog entry, which lists them all. Links are absolute, under the public origin the
// build is given (PUBLIC_ORIGIN): feed readers and mail digests show entries away from the feed.
// Ids are name-based UUIDs of the version: stable across builds and deployments.
import { createHash } from 'node:crypto';
import {
  diffManifests,
  RECORD_KINDS,
  type RecordKind,
  type ReleaseManifest,
} from './release-manifest.ts';

export const FEED_PATH = '/releases.atom';

/** A UUID made from a name (SHA-256, version and variant bits set as RFC 9562 asks). */
function nameUuid(name: string): string {
  const b = createHash('sha256').update(name).digest().subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x80; // version 8: custom, name-based
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `urn:uuid:${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export interface ReleaseCounts {
  added: number;
  changed: number;
  removed: number;
}

/** Records added, changed and removed by `m` against `prev` (every record is new in the first). */
export function releaseCounts(prev: ReleaseManifest | null, m: ReleaseManifest): ReleaseCounts {
  const counts = { added: 0, changed: 0, removed: 0 };
  if (!prev) {
    for (const kind of RECORD_KINDS) counts.added += Object.keys(m.records[kind] ?? {}).length;
    return counts;
  }
  const diff = diffManifests(prev, m);
  for (const kind of RECORD_KINDS) {
    counts.added += diff[kind].added.length;
    counts.changed += diff[kind].changed.length;
    counts.removed += diff[kind].removed.length;
  }
  return counts;
}

const changelogLink = (version: string) => `/docs/changelog#release-${version}`;

/** How many records of one kind and change an entry names; the changelog entry lists them all. */
export const FEED_RECORDS_PER_CHANGE = 25;

export interface FeedOptions {
  /** The public origin links are made absolute against, e.g. https://api.example.com. */
  origin: string;
  /** The API path answering one record (src/api/record-urls.ts; the dataset room imports no api). */
  recordUrl: (kind: RecordKind, id: string, version?: string) => string;
}

const CHANGE_WORDS = { added: 'added', changed: 'changed', removed: 'removed' } as const;

/** The entry's HTML content: per kind and change, the records by name with links, bounded. */
function changeList(
  prev: ReleaseManifest | null,
  m: ReleaseManifest,
  options: FeedOptions,
): string {
  if (!prev) return '<p>The first release with a manifest: every record is new.</p>';
  const diff = diffManifests(prev, m);
  const abs = (p: string) => new URL(p, options.origin).href;
  const parts: string[] = [];
  for (const kind of RECORD_KINDS) {
    for (const change of ['added', 'changed', 'removed'] as const) {
      const ids = diff[kind][change];
      if (!ids.length) continue;
      const from = change === 'removed' ? prev : m;
      const items = ids.slice(0, FEED_RECORDS_PER_CHANGE).map((id) => {
        const name = from.records[kind][id]?.name;
        const url = abs(
          options.recordUrl(kind, id, change === 'removed' ? prev.dataset_version : undefined),
        );
        return `<li><a href="${xml(url)}">${xml(id)}</a>${name && name !== id ? ` ${xml(name)}` : ''}</li>`;
      });
      const more = ids.length - items.length;
      const tail = more
        ? `<li>… and ${more} more: <a href="${xml(abs(changelogLink(m.dataset_version)))}">the full list</a></li>`
        : '';
      parts.push(
        `<h4>${xml(kind.replace('_', ' '))} ${CHANGE_WORDS[change]} (${ids.length})</h4><ul>${items.join('')}${tail}</ul>`,
      );
    }
  }
  return parts.length ? parts.join('') : '<p>No record added, changed or removed.</p>';
}

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};
const xml = (text: string) => text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);

/** The feed's XML, newest release first; `manifests` oldest first (readManifests). */
export function releaseFeed(manifests: readonly ReleaseManifest[], options: FeedOptions): string {
  const abs = (p: string) => new URL(p, options.origin).href;
  const dateOf = (m: ReleaseManifest) => `${m.dataset_date}T00:00:00Z`;
  const entries = manifests.map((m, i) => {
    const prev = i > 0 ? manifests[i - 1]! : null;
    const c = releaseCounts(prev, m);
    const first = i === 0 ? ' (the first release with a manifest: every record is new)' : '';
    const summary = `Dataset version ${m.dataset_version} of ${m.dataset_date}: ${c.added} record(s) added, ${c.changed} changed, ${c.removed} removed${first}.`;
    return [
      '  <entry>',
      `    <id>${nameUuid(`tokenized-asset-intelligence:release:${m.dataset_version}`)}</id>`,
      `    <title>Dataset ${xml(m.dataset_version)}</title>`,
      `    <updated>${dateOf(m)}</updated>`,
      `    <link rel="alternate" type="text/html" href="${xml(abs(changelogLink(m.dataset_version)))}"/>`,
      `    <summary>${xml(summary)}</summary>`,
      `    <content type="html">${xml(changeList(prev, m, options))}</content>`,
      '  </entry>',
    ].join('\n');
  });
  const latest = manifests.at(-1);
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${nameUuid('tokenized-asset-intelligence:releases')}</id>`,
    '  <title>Tokenized Asset Intelligence API: data releases</title>',
    '  <subtitle>Each data release: its dataset version, date, and the records it added, changed and removed.</subtitle>',
    `  <updated>${latest ? dateOf(latest) : '1970-01-01T00:00:00Z'}</updated>`,
    '  <author><name>Tokenized Asset Intelligence API</name></author>',
    `  <link rel="self" type="application/atom+xml" href="${xml(abs(FEED_PATH))}"/>`,
    `  <link rel="alternate" type="text/html" href="${xml(abs('/docs/changelog'))}"/>`,
    ...entries.reverse(),
    '</feed>',
    '',
  ].join('\n');
}
