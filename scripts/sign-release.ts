// npm run data:sign — the detached signature of each release manifest (src/dataset/release-
// signature.ts), with the key in RELEASE_SIGNING_KEY_FILE (Ed25519, PKCS#8 PEM: `openssl genpkey
// -algorithm ed25519`). `npm run data:release` calls `signRelease` for the manifest it writes;
// run alone, this signs every manifest whose signature is missing or does not verify. The key's
// public half is added to data/releases/signing-keys.json (earlier keys stay, for older releases).
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createPublicKey, type KeyObject } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { JSONWebKeySet } from 'jose';
import { DEFAULT_RELEASES_DIR } from '../src/dataset/release-manifest.ts';
import {
  RELEASE_KEYS_FILE,
  signManifest,
  signatureFileOf,
  verifyManifest,
} from '../src/dataset/release-signature.ts';
import { VERSION } from '../src/dataset/version.ts';
import { publicJwkOf, readPrivateKey } from '../src/representation/signing-key.ts';

const VARIABLE = 'RELEASE_SIGNING_KEY_FILE';

interface ReleaseKey {
  key: KeyObject;
  kid: string;
}

function releaseKey(): ReleaseKey | null {
  const file = process.env[VARIABLE];
  if (!file) return null;
  const key = readPrivateKey(file, VARIABLE);
  return { key, kid: publicJwkOf(createPublicKey(key)).kid };
}

function readKeys(dir: string): JSONWebKeySet {
  const file = path.join(dir, RELEASE_KEYS_FILE);
  return existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as JSONWebKeySet)
    : { keys: [] };
}

/** Publishes the key's public half in signing-keys.json (newest first) unless it is there. */
function publish(dir: string, release: ReleaseKey): JSONWebKeySet {
  const set = readKeys(dir);
  if (set.keys.some((k) => k.kid === release.kid)) return set;
  const next = { keys: [publicJwkOf(createPublicKey(release.key), release.kid), ...set.keys] };
  writeFileSync(path.join(dir, RELEASE_KEYS_FILE), `${JSON.stringify(next, null, 2)}\n`);
  console.log(`published release key ${release.kid} in ${RELEASE_KEYS_FILE}`);
  return next;
}

/** Signs one manifest; without a key says so and leaves it unsigned. */
export async function signRelease(manifestFile: string, release = releaseKey()): Promise<void> {
  const rel = path.relative(process.cwd(), manifestFile);
  if (!release) {
    console.warn(
      `${rel} is not signed: set ${VARIABLE} to the release key and run npm run data:sign`,
    );
    return;
  }
  publish(path.dirname(manifestFile), release);
  const jws = await signManifest(readFileSync(manifestFile), release.key, release.kid);
  writeFileSync(signatureFileOf(manifestFile), `${jws}\n`);
  console.log(`signed ${rel} (kid ${release.kid})`);
}

/** Signs every manifest in `dir` whose signature is missing or no longer verifies. */
export async function signAll(dir: string, release: ReleaseKey): Promise<void> {
  const keys = publish(dir, release);
  for (const f of readdirSync(dir).sort()) {
    if (!f.endsWith('.json') || !VERSION.test(f.slice(0, -'.json'.length))) continue;
    const file = path.join(dir, f);
    const sig = signatureFileOf(file);
    if (existsSync(sig)) {
      const ok = await verifyManifest(readFileSync(file), readFileSync(sig, 'utf8'), keys).then(
        () => true,
        () => false,
      );
      if (ok) continue;
    }
    await signRelease(file, release);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const release = releaseKey();
  if (!release) {
    console.error(`${VARIABLE} is not set: name the release key (Ed25519, PKCS#8 PEM)`);
    process.exit(2);
  }
  await signAll(DEFAULT_RELEASES_DIR, release);
}
