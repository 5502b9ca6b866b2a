// The fixed bytecode the on-ledger tests deploy (test/fixtures/importers/onchain/contracts.json)
// is what the Solidity sources beside it compile to: edit a .sol file, re-run compile.ts.
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { compileFixtures, CONTRACTS_FILE } from '../fixtures/importers/onchain/compile.ts';

test('contracts.json matches its Solidity sources (node test/fixtures/importers/onchain/compile.ts)', () => {
  expect(readFileSync(CONTRACTS_FILE, 'utf8')).toBe(compileFixtures());
}, 180_000);
