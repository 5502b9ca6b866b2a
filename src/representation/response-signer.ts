// Signing /v1 answers (RFC 9421, Ed25519; RFC 9530 Content-Digest). Each response covers its
// status, its Content-Digest (of the bytes in the coding sent), its Content-Type and the
// Dataset-Version it was served under. A body fixed for the release is signed once per coding
// (the first time it is sent) with `created` the release's build time, so every instance of a
// release sends the same signature and no request pays for it again; a body made for one response
// (a problem naming its request, the live status) is signed when it is made, within a budget.
//
// The budget (issue #37): a problem names its request in `instance` (RFC 9457; the contract's
// problem schema requires it), so its bytes, and the signature over their digest, differ per
// request, and an Ed25519 signature costs 50–80 µs, more than the answer around it. So what is
// signed per request is capped rather than moved out of the body: at most ONE_OFF_PER_SECOND
// signatures a second per instance (at most ~8 % of a core); past it a body made for one response
// goes unsigned for the rest of that second, counted in tai_signatures_withheld_total. Every
// body fixed for the release (the data: lists, lookups, bulk files) is always signed.
import type { KeyObject } from 'node:crypto';
import { BoundedMap } from '../lib/bounded-map.ts';
import { sha256OfFile } from '../lib/file-hash.ts';
import type { Coding, PreparedBody } from '../api/answers.ts';
import { contentDigest, signFields } from '../lib/http-signature.ts';
import type { ReleaseFacts } from '../api/releases.ts';
import type { SigningKey } from './signing-key.ts';

/** The header naming the release a deployment serves; covered by every signature. */
export const DATASET_VERSION_HEADER = 'Dataset-Version';
/** What every signature covers, in this order. */
export const SIGNED_COMPONENTS = [
  '@status',
  'content-digest',
  'content-type',
  'dataset-version',
] as const;
export const SIGNATURE_LABEL = 'sig1';
/**
 * A point-in-time answer (`dataset_version=<older release>`) names the release it comes from:
 * Dataset-Version is that release's, and these two name its generation time and the SHA-256 of
 * its dataset body (the digest its signed release manifest states). Its signature covers all
 * three, after the components every signature covers.
 */
export const DATASET_GENERATED_AT_HEADER = 'Dataset-Generated-At';
export const DATASET_DIGEST_HEADER = 'Dataset-Digest';
export const RELEASE_SIGNED_COMPONENTS = [
  ...SIGNED_COMPONENTS,
  'dataset-generated-at',
  'dataset-digest',
] as const;

/** The headers naming an older release, as name/value pairs (Dataset-Version first). */
export const releaseHeaders = (release: ReleaseFacts): string[] => [
  DATASET_VERSION_HEADER,
  release.version,
  DATASET_GENERATED_AT_HEADER,
  release.generatedAt,
  DATASET_DIGEST_HEADER,
  `sha-256=${release.digest}`,
];

export interface ResponseSigner {
  kid: string;
  /** The dataset version every signature covers (the Dataset-Version header's value). */
  version: string;
  /**
   * Content-Digest, Signature-Input and Signature (name/value pairs) of a prepared body in one
   * coding, made once per body, coding and status. `live`: a body made for this moment (the
   * status snapshot), `created` now rather than the release's build time.
   */
  bodyHeaders(body: PreparedBody, coding: Coding, status: number, live?: boolean): string[];
  /** The same as prepared header lines (`Name: value\r\n` each). */
  bodyLines(body: PreparedBody, coding: Coding, status: number, live?: boolean): string;
  /** The three fields for bytes made for one response (a problem), signed now. */
  oneOffHeaders(status: number, contentType: string, bytes: Buffer | string): string[];
  /**
   * The signer of an answer from an older release: its Dataset-Version, generation time and
   * digest are covered, `created` is that release's generation time. One per release.
   */
  forRelease(release: ReleaseFacts): ResponseSigner;
}

/** Signatures over bodies made for one response, per second and instance, at most. */
export const ONE_OFF_PER_SECOND = 1000;
/** Bodies made for one response sent unsigned because the second's budget was spent (/metrics). */
export const signingCounts = { withheld: 0 };

/** Content-Digest of a built file (read in pieces: built exports are too large to hold). */
const fileDigest = (file: string) => `sha-256=:${sha256OfFile(file).toString('base64')}:`;

function fields(
  key: KeyObject,
  kid: string,
  version: string,
  status: number,
  contentType: string,
  digest: string,
  created: number,
  release?: ReleaseFacts,
): string[] {
  const { input, signature } = signFields(
    key,
    SIGNATURE_LABEL,
    [
      ['@status', String(status)],
      ['content-digest', digest],
      ['content-type', contentType],
      ['dataset-version', version],
      ...(release
        ? ([
            ['dataset-generated-at', release.generatedAt],
            ['dataset-digest', `sha-256=${release.digest}`],
          ] as const)
        : []),
    ],
    { created, keyid: kid, alg: 'ed25519' },
  );
  return ['Content-Digest', digest, 'Signature-Input', input, 'Signature', signature];
}

const linesOf = (pairs: string[]) => {
  let lines = '';
  for (let i = 0; i < pairs.length; i += 2) lines += pairs[i] + ': ' + pairs[i + 1] + '\r\n';
  return lines;
};

const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * A signer for one release: `builtAt` (the dataset's generated_at) is the `created` of every
 * signature over a body fixed for that release.
 */
export function responseSigner(
  key: SigningKey,
  release: { version: string; builtAt: string },
  /** Set for the signer of an older release's answers (forRelease). */
  older?: ReleaseFacts,
): ResponseSigner {
  const { privateKey, kid } = key;
  const { version } = release;
  // The signers of earlier releases asked for by dataset_version=: a few, bounded all the same.
  const olderSigners = new BoundedMap<string, ResponseSigner>(16);
  const created = Math.floor(Date.parse(release.builtAt) / 1000);
  if (!Number.isFinite(created)) throw new Error(`not a build time: ${release.builtAt}`);
  // Per body (dropped with it: bodies live in bounded caches), per coding and status.
  const made = new WeakMap<PreparedBody, Map<string, { pairs: string[]; lines: string }>>();

  function signed(body: PreparedBody, coding: Coding, status: number, live = false) {
    let byKey = made.get(body);
    if (!byKey) made.set(body, (byKey = new Map()));
    const slot = status === 200 ? coding : `${coding} ${status}`;
    let entry = byKey.get(slot);
    if (!entry) {
      const file = body.fileFor?.(coding);
      const digest = file ? fileDigest(file.path) : contentDigest(body.bodyFor(coding));
      const at = live ? nowSeconds() : created;
      const pairs = fields(privateKey, kid, version, status, body.contentType, digest, at, older);
      byKey.set(slot, (entry = { pairs, lines: linesOf(pairs) }));
    }
    return entry;
  }

  // The one-off budget: signatures left in the current second.
  let second = 0;
  let left = ONE_OFF_PER_SECOND;

  return {
    kid,
    version,
    bodyHeaders: (body, coding, status, live) => signed(body, coding, status, live).pairs,
    bodyLines: (body, coding, status, live) => signed(body, coding, status, live).lines,
    oneOffHeaders: (status, contentType, bytes) => {
      const now = nowSeconds();
      if (now !== second) {
        second = now;
        left = ONE_OFF_PER_SECOND;
      }
      if (left <= 0) {
        signingCounts.withheld++;
        return [];
      }
      left--;
      return fields(
        privateKey,
        kid,
        version,
        status,
        contentType,
        contentDigest(bytes),
        now,
        older,
      );
    },
    forRelease(facts) {
      let signer = olderSigners.get(facts.version);
      if (!signer) {
        signer = responseSigner(key, { version: facts.version, builtAt: facts.generatedAt }, facts);
        olderSigners.set(facts.version, signer);
      }
      return signer;
    },
  };
}
