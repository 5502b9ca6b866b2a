import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../../src/config.ts';

describe('configuration', () => {
  it('has working defaults', () => {
    expect(readConfig({})).toMatchObject({
      PORT: 4321,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      TRUST_PROXY: false,
    });
  });
  it('reads TRUST_PROXY as off, all, a hop count or an address list', () => {
    expect(readConfig({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(readConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(readConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8' }).TRUST_PROXY).toEqual([
      'loopback',
      '10.0.0.0/8',
    ]);
  });
  it('names every bad variable, its value and what is accepted', () => {
    let message = '';
    try {
      readConfig({ PORT: '70000', LOG_LEVEL: 'loud', TRUST_PROXY: 'sometimes' });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      message = (err as Error).message;
    }
    expect(message).toContain('PORT="70000": must be a whole number from 0 to 65535');
    expect(message).toContain(
      'LOG_LEVEL="loud": must be one of fatal, error, warn, info, debug, trace, silent',
    );
    expect(message).toContain('TRUST_PROXY="sometimes"');
  });
  it('validates the connection budgets, the send timeout and the log buffer', () => {
    const defaults = readConfig({});
    // The budget follows the open-file limit (less a reserve), so sockets cannot starve the files.
    expect(defaults.MAX_CONNECTIONS).toBeGreaterThanOrEqual(16);
    expect(defaults.MAX_CONNECTIONS).toBeLessThanOrEqual(4096);
    expect(defaults.MAX_CONNECTIONS_PER_ADDRESS).toBeLessThanOrEqual(defaults.MAX_CONNECTIONS / 4);
    expect(readConfig({})).toMatchObject({
      SEND_TIMEOUT_MS: 30_000,
      LOG_DESTINATION: 'stdout',
      LOG_BUFFER_BYTES: 4_194_304,
    });
    expect(() => readConfig({ SEND_TIMEOUT_MS: '10' })).toThrow(/SEND_TIMEOUT_MS="10"/);
    expect(() => readConfig({ LOG_BUFFER_BYTES: '1' })).toThrow(/LOG_BUFFER_BYTES="1"/);
    expect(() => readConfig({ MAX_CONNECTIONS: '0' })).toThrow(/MAX_CONNECTIONS="0"/);
    expect(() => readConfig({ MAX_CONNECTIONS: '10', MAX_CONNECTIONS_PER_ADDRESS: '20' })).toThrow(
      /MAX_CONNECTIONS_PER_ADDRESS="20": must not exceed MAX_CONNECTIONS/,
    );
    expect(readConfig({ MAX_CONNECTIONS_PER_ADDRESS: '0' }).MAX_CONNECTIONS_PER_ADDRESS).toBe(0);
  });

  it('folds the edge’s answers only from the answers made from memory (FAST_PATH=on)', () => {
    const token = 'x'.repeat(32);
    expect(() => readConfig({ EDGE_AUTH_TOKEN: token, FAST_PATH: 'off' })).toThrow(
      /FAST_PATH="off": must be on with EDGE_AUTH_TOKEN/,
    );
    expect(readConfig({ EDGE_AUTH_TOKEN: token }).FAST_PATH).toBe('on');
    expect(readConfig({ FAST_PATH: 'off' }).FAST_PATH).toBe('off');
  });
});
