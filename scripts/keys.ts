// npm run keys -- <command>: the operators' tool for API keys. Reads the same configuration as
// the server (DATABASE_URL, DATA_DIR). A new key is shown once; only its SHA-256 digest is stored.
import { parseArgs } from 'node:util';
import { TIERS, generateKey, type Tier } from '../src/access/keys.ts';
import { ConfigError, readConfig } from '../src/config.ts';
import { isCalendarDate } from '../src/lib/calendar-date.ts';
import { describeDb, openStore } from '../src/store/open.ts';

// Output: the result alone on stdout (with --json, one JSON document that `jq` can read), every
// message and error on stderr. npm prints its own banner on stdout: use `npm run -s keys -- …`.
// Input is checked before the database is opened: an owner is printable text of limited length
// (a newline would forge a row of `keys list`, an ANSI escape would drive the operator's
// terminal), dates are real calendar dates, unknown options are a usage error, not a stack trace.
const USAGE = `usage: npm run -s keys -- <command> [options]     (-s: without npm's banner, for --json | jq)

  create --tier <institutional|enterprise> --owner "<name>" [--env live|test] [--json]
  list [--json]
  revoke <key id or display prefix>
  usage [--key <key id>] [--since YYYY-MM-DD] [--json]`;

const OWNER_MAX = 200;
const ID_MAX = 100;

function fail(message: string, code = 2): never {
  console.error(message);
  process.exit(code);
}

/** C0/C1 controls (newlines, ESC of ANSI sequences), bidi overrides and other invisible format characters. */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** Text from the database, printed for a terminal: controls shown escaped, never interpreted. */
function printable(text: string): string {
  return text.replace(new RegExp(UNSAFE.source, 'gu'), (c) => {
    const cp = c.codePointAt(0)!;
    return cp <= 0xff ? `\\x${cp.toString(16).padStart(2, '0')}` : `\\u{${cp.toString(16)}}`;
  });
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      tier: { type: 'string' },
      owner: { type: 'string' },
      env: { type: 'string', default: 'live' },
      key: { type: 'string' },
      since: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
} catch (err) {
  // node:util's messages are clear ("Unknown option '--ownr'"); its stack trace is not for operators.
  fail(`${(err as Error).message.split('. To specify')[0]}\n\n${USAGE}`);
}
const { positionals, values } = parsed;
const [command, ...rest] = positionals;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!command) fail(USAGE);
if (values.owner !== undefined) {
  const owner = values.owner.trim();
  if (!owner) fail(`--owner "<name>" must not be empty\n\n${USAGE}`);
  if (UNSAFE.test(owner))
    fail(
      `--owner must be printable text: it contains a control character (${printable(owner.match(UNSAFE)![0])}), e.g. a newline or an ANSI escape.`,
    );
  if (owner.length > OWNER_MAX)
    fail(`--owner is ${owner.length} characters; at most ${OWNER_MAX}.`);
}
for (const [name, value] of [
  ['--key', values.key],
  ['revoke', command === 'revoke' ? rest[0] : undefined],
] as const) {
  if (value !== undefined && (UNSAFE.test(value) || value.length > ID_MAX))
    fail(`${name} must be a key id or display prefix (printable, at most ${ID_MAX} characters).`);
}
if (values.since !== undefined && !isCalendarDate(values.since))
  fail(
    `--since must be a calendar date as YYYY-MM-DD (e.g. 2026-11-01), not ${JSON.stringify(printable(values.since))}.`,
  );

let config;
try {
  config = readConfig();
} catch (err) {
  fail(err instanceof ConfigError ? err.message : String(err), 78);
}
const store = await openStore(config).catch((err: unknown) =>
  fail(`Cannot open the database ${describeDb(config)}: ${(err as Error).message}`, 1),
);
const print = (value: unknown, text: string) =>
  console.log(values.json ? JSON.stringify(value, null, 2) : text);
/** A note for the operator: on stderr, so stdout stays the result alone. */
const note = (text: string) => console.error(text);
const iso = (ms: number | null) => (ms === null ? null : new Date(Number(ms)).toISOString());

try {
  switch (command) {
    case 'create': {
      if (!values.tier || !(TIERS as readonly string[]).includes(values.tier))
        fail(`--tier must be one of: ${TIERS.join(', ')}\n\n${USAGE}`);
      if (!values.owner?.trim()) fail(`--owner "<name>" is required\n\n${USAGE}`);
      if (values.env !== 'live' && values.env !== 'test') fail('--env must be live or test');
      const k = generateKey(values.env);
      await store.insertKey({
        id: k.id,
        key_hash: k.hash,
        display_prefix: k.displayPrefix,
        tier: values.tier as Tier,
        owner: values.owner.trim(),
        created_at: Date.now(),
      });
      print(
        {
          id: k.id,
          key: k.key,
          display_prefix: k.displayPrefix,
          tier: values.tier,
          owner: values.owner.trim(),
        },
        `Created ${values.tier} key for ${values.owner.trim()} (id ${k.id}).\n\n  ${k.key}\n`,
      );
      note(
        'This is the only time the key is shown: store it in a secret manager. Only its SHA-256 digest is kept.',
      );
      break;
    }
    case 'list': {
      const keys = (await store.listKeys()).map((k) => ({
        id: k.id,
        display_prefix: k.display_prefix,
        tier: k.tier,
        owner: k.owner,
        created_at: iso(k.created_at),
        revoked_at: iso(k.revoked_at),
      }));
      print(
        keys,
        keys.length
          ? keys
              .map(
                (k) =>
                  `${k.id}  ${k.display_prefix}…  ${k.tier.padEnd(13)} ${k.revoked_at ? `revoked ${k.revoked_at}` : 'active'.padEnd(32)}  ${printable(k.owner)}`,
              )
              .join('\n')
          : 'No keys.',
      );
      break;
    }
    case 'revoke': {
      const target = rest[0];
      if (!target) fail(`revoke needs a key id or display prefix\n\n${USAGE}`);
      const revoked = await store.revokeKey(target, Date.now());
      if (!revoked.length)
        fail(`No active key has the id or display prefix "${printable(target)}".`, 1);
      print(
        revoked.map((k) => ({ id: k.id, display_prefix: k.display_prefix })),
        `Revoked ${revoked.map((k) => `${k.id} (${k.display_prefix}…)`).join(', ')}.`,
      );
      note('Servers refuse it within seconds.');
      break;
    }
    case 'usage': {
      const rows = await store.usage({
        ...(values.key ? { keyId: values.key } : {}),
        ...(values.since ? { since: values.since } : {}),
      });
      print(
        rows,
        rows.length
          ? rows
              .map(
                (r) =>
                  `${r.day}  ${printable(r.key_id).padEnd(36)}  ${r.endpoint.padEnd(28)} ${r.status_class} ${String(r.requests).padStart(9)}${r.billable ? '  billed' : ''}`,
              )
              .join('\n')
          : 'No usage recorded.',
      );
      break;
    }
    default:
      fail(`Unknown command "${command}".\n\n${USAGE}`);
  }
} finally {
  await store.db.close();
}
