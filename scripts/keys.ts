// npm run keys -- <command>: the operators' tool for API keys. Reads the same configuration as
// the server (DATABASE_URL, DATA_DIR). A new key is shown once; only its SHA-256 digest is stored.
import { parseArgs } from 'node:util';
import { TIERS, generateKey, type Tier } from '../src/access/keys.ts';
import { ConfigError, readConfig } from '../src/server/config.ts';
import { describeDb, openStore } from '../src/store/open.ts';

const USAGE = `usage: npm run keys -- <command> [options]

  create --tier <institutional|enterprise> --owner "<name>" [--env live|test] [--json]
  list [--json]
  revoke <key id or display prefix>
  usage [--key <key id>] [--since YYYY-MM-DD] [--json]`;

function fail(message: string, code = 2): never {
  console.error(message);
  process.exit(code);
}

const { positionals, values } = parseArgs({
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
const [command, ...rest] = positionals;
if (values.help || !command) fail(USAGE, values.help ? 0 : 2);

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
        `Created ${values.tier} key for ${values.owner.trim()} (id ${k.id}).\n\n  ${k.key}\n\nThis is the only time the key is shown: store it in a secret manager. Only its SHA-256 digest is kept.`,
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
                  `${k.id}  ${k.display_prefix}…  ${k.tier.padEnd(13)} ${k.revoked_at ? `revoked ${k.revoked_at}` : 'active'.padEnd(32)}  ${k.owner}`,
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
      if (!revoked.length) fail(`No active key has the id or display prefix "${target}".`, 1);
      print(
        revoked.map((k) => ({ id: k.id, display_prefix: k.display_prefix })),
        `Revoked ${revoked.map((k) => `${k.id} (${k.display_prefix}…)`).join(', ')}. Servers refuse it within seconds.`,
      );
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
                (r) => `${r.day}  ${r.key_id.padEnd(36)}  ${r.endpoint.padEnd(28)} ${r.requests}`,
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
