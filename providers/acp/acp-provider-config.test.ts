import { describe, expect, test } from 'vitest';
import { ACP_CONFIG_DEFAULTS, resolveAcpProviderConfig } from './acp-provider-config.js';

describe('acp provider config', () => {
  test('fills the defaults: name acp, reject permission, inherited cwd and stderr, default timings', () => {
    expect(resolveAcpProviderConfig({ command: 'nestcast', args: ['acp-agent'] })).toEqual({
      name: 'acp',
      command: 'nestcast',
      args: ['acp-agent'],
      env: {},
      cwd: undefined,
      permission: 'reject',
      stderr: 'inherit',
      startupTimeoutMs: ACP_CONFIG_DEFAULTS.startupTimeoutMs,
      idleTimeoutMs: ACP_CONFIG_DEFAULTS.idleTimeoutMs,
      channel: undefined,
      modelEndpoint: undefined,
      disposeEofGraceMs: ACP_CONFIG_DEFAULTS.disposeEofGraceMs,
      disposeTermGraceMs: ACP_CONFIG_DEFAULTS.disposeTermGraceMs,
    });
  });

  test('resolves a relative cwd against the launch directory', () => {
    expect(resolveAcpProviderConfig({ command: 'x', cwd: '..' }, '/tmp/launch').cwd).toBe('/tmp');
  });

  test.each([
    [{ command: '' }, /`command` must be a non-empty string/],
    [{ command: 'x', args: 'acp-agent' }, /`args` must be an array of strings/],
    [{ command: 'x', env: { A: 1 } }, /`env` must be an object of string values/],
    [{ command: 'x', permission: 'ask' }, /`permission` must be "reject" or "allow", got "ask"/],
    [{ command: 'x', stderr: 'file' }, /`stderr` must be "inherit" or "log"/],
    [{ command: 'x', cwd: '' }, /`cwd` must be a non-empty path/],
    [{ command: 'x', cwd: '/no/such/dir' }, /`cwd` "\/no\/such\/dir" .* is not an accessible directory \(ENOENT\)/],
    [{ command: 'x', cwd: '/etc/hostname' }, /is not a directory/],
    [{ command: 'x', name: ' ' }, /`name` must be a non-empty string/],
    [{ command: 'x', channel: 'replay' }, /`channel` must be a function/],
    [{ command: 'x', modelEndpoint: 'http://x' }, /`modelEndpoint` must be an object/],
    // Read as unset, a misspelt endpoint would let the child call its own model.
    [{ command: 'x', modelEndpiont: {} }, /unknown option "modelEndpiont" \(did you mean "modelEndpoint"\?\)/],
    [
      { command: 'x', modelEndpoint: { url: 'http://127.0.0.1:1', baseUrlVariable: { A: '' } } },
      /unknown option "modelEndpoint.baseUrlVariable" \(did you mean "modelEndpoint.baseUrlVariables"\?\)/,
    ],
    [
      { command: 'x', modelEndpoint: { url: 'file:///x', baseUrlVariables: { A: '' } } },
      /`modelEndpoint.url` must be an http\(s\) URL \(the endpoint's server.url\), got "file:\/\/\/x"/,
    ],
    [
      { command: 'x', modelEndpoint: { url: 'http://127.0.0.1:1', baseUrlVariables: {} } },
      /`modelEndpoint.baseUrlVariables` must map at least one variable name/,
    ],
    [
      { command: 'x', modelEndpoint: { url: 'http://127.0.0.1:1', baseUrlVariables: { A: 1 } } },
      /`modelEndpoint.baseUrlVariables` must map/,
    ],
    [
      { command: 'x', modelEndpoint: { url: 'http://127.0.0.1:1', baseUrlVariables: { A: '' }, keyVariables: 'K' } },
      /`modelEndpoint.keyVariables` must be an array of variable names/,
    ],
  ])('refuses %j at load with INVALID_CONFIG', (config, message) => {
    expect(() => resolveAcpProviderConfig(config as never)).toThrow(message);
    expect(() => resolveAcpProviderConfig(config as never)).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG' }),
    );
  });

  test.each(['startupTimeoutMs', 'idleTimeoutMs', 'disposeEofGraceMs', 'disposeTermGraceMs'])(
    'refuses a %s outside the Node timer range',
    (key) => {
      for (const value of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2_147_483_648]) {
        expect(() => resolveAcpProviderConfig({ command: 'x', [key]: value })).toThrow(
          new RegExp(`\`${key}\` must be a positive number of milliseconds`),
        );
      }
      expect(resolveAcpProviderConfig({ command: 'x', [key]: 2_147_483_647 })[key as 'startupTimeoutMs']).toBe(
        2_147_483_647,
      );
    },
  );
});
