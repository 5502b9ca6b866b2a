// The Atom feed of data releases: well-formed Atom (RFC 4287) with one entry per committed
// release, newest first, whose counts are the manifests' differences, whose content names the
// records (bounded, with a link to the full list) and whose links are absolute under the public
// origin. The API keeps its five operations: the feed is outside /v1.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/api/operations.ts';
import { recordUrl } from '../../src/api/record-urls.ts';
import { FEED_RECORDS_PER_CHANGE, releaseFeed } from '../../src/dataset/release-feed.ts';
import {
  diffManifests,
  readManifests,
  RECORD_KINDS,
  type ReleaseManifest,
} from '../../src/dataset/release-manifest.ts';

const ORIGIN = 'https://api.example.test';
const options = { origin: ORIGIN, recordUrl };
const manifests = readManifests();
const text = releaseFeed(manifests, options);

interface Entry {
  id: string;
  title: string;
  updated: string;
  link: { '@_href': string; '@_rel': string };
  summary: string;
  content: { '#text': string; '@_type': string };
}
const feed = new XMLParser({ ignoreAttributes: false }).parse(text).feed as {
  '@_xmlns': string;
  id: string;
  updated: string;
  entry: Entry | Entry[];
};
const entries = ([] as Entry[]).concat(feed.entry);

describe('the release feed', () => {
  it('is well-formed Atom with the required feed elements', () => {
    expect(XMLValidator.validate(text)).toBe(true);
    expect(feed['@_xmlns']).toBe('http://www.w3.org/2005/Atom');
    expect(feed.id).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(feed.updated).toBe(`${manifests.at(-1)!.dataset_date}T00:00:00Z`);
  });

  it('has one entry per release, newest first, with its counts and changelog link', () => {
    expect(entries.map((e) => e.title)).toEqual(
      manifests.map((m) => `Dataset ${m.dataset_version}`).reverse(),
    );
    const newest = manifests.at(-1)!;
    const previous = manifests.at(-2)!;
    const diff = diffManifests(previous, newest);
    const count = (change: 'added' | 'changed' | 'removed') =>
      RECORD_KINDS.reduce((n, k) => n + diff[k][change].length, 0);
    const [entry] = entries;
    expect(entry!.summary).toContain(
      `${count('added')} record(s) added, ${count('changed')} changed, ${count('removed')} removed`,
    );
    expect(entry!.updated).toBe(`${newest.dataset_date}T00:00:00Z`);
    expect(entry!.link['@_href']).toBe(
      `${ORIGIN}/docs/changelog#release-${newest.dataset_version}`,
    );
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
  });

  it('escapes what XML must not carry raw', () => {
    const m = { ...manifests[0]!, dataset_version: 'a<b&c' };
    expect(XMLValidator.validate(releaseFeed([m], options))).toBe(true);
  });

  it('names the records each release added, changed and removed, bounded, with absolute links', () => {
    const base = manifests.at(-1)!;
    const assets = Object.entries(base.records.assets);
    // A synthetic next release: one asset removed, more added than an entry names.
    const [removedId] = assets[0]!;
    const added = Object.fromEntries(
      Array.from({ length: FEED_RECORDS_PER_CHANGE + 3 }, (_, i) => [
        `TFIN-TEST-ETH-2026-${String(i).padStart(4, '0')}`,
        { ...assets[1]![1], name: `Test asset ${i}` },
      ]),
    );
    const { [removedId]: _gone, ...kept } = base.records.assets;
    const next: ReleaseManifest = {
      ...base,
      dataset_version: 'next',
      records: { ...base.records, assets: { ...kept, ...added } },
    };
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(
      releaseFeed([base, next], options),
    ).feed as { entry: Entry[]; link: { '@_href': string }[] };
    expect(parsed.entry[0]!.content['@_type']).toBe('html');
    const content = parsed.entry[0]!.content['#text'];
    expect(content).toContain(`assets added (${FEED_RECORDS_PER_CHANGE + 3})`);
    expect(content).toContain('Test asset 0');
    expect(content).not.toContain(`Test asset ${FEED_RECORDS_PER_CHANGE}<`);
    expect(content).toContain('… and 3 more');
    expect(content).toContain(`${ORIGIN}/docs/changelog#release-next`);
    expect(content).toContain(`assets removed (1)`);
    // In the HTML content, the link's & is written &amp;.
    expect(content).toContain(
      `${ORIGIN}${recordUrl('assets', removedId, base.dataset_version)}`.replaceAll('&', '&amp;'),
    );
    for (const link of parsed.link) expect(link['@_href'].startsWith(`${ORIGIN}/`)).toBe(true);
  });

  it('leaves the API at five operations', () => {
    expect(OPERATIONS).toHaveLength(5);
    expect(OPERATIONS.some((op) => op.path.includes('release'))).toBe(false);
  });
});
