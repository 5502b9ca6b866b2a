// The Atom feed of data releases: well-formed Atom (RFC 4287) with one entry per committed
// release, newest first, whose counts are the manifests' differences and whose link is the
// release's changelog entry. The API keeps its five operations: the feed is outside /v1.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/api/operations.ts';
import { releaseFeed } from '../../src/dataset/release-feed.ts';
import { diffManifests, readManifests, RECORD_KINDS } from '../../src/dataset/release-manifest.ts';

const manifests = readManifests();
const text = releaseFeed(manifests);

interface Entry {
  id: string;
  title: string;
  updated: string;
  link: { '@_href': string; '@_rel': string };
  summary: string;
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
    expect(entry!.link['@_href']).toBe(`/docs/changelog#release-${newest.dataset_version}`);
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
  });

  it('escapes what XML must not carry raw', () => {
    const m = { ...manifests[0]!, dataset_version: 'a<b&c' };
    expect(XMLValidator.validate(releaseFeed([m]))).toBe(true);
  });

  it('leaves the API at five operations', () => {
    expect(OPERATIONS).toHaveLength(5);
    expect(OPERATIONS.some((op) => op.path.includes('release'))).toBe(false);
  });
});
