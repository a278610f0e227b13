/** Reading `parameters.sshProxy` and the ssh-like failure texts (spec 01 §6.1). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sshProxyConfig } from '../../src/ssh/options.ts';
import { describeOpenError } from '../../src/ssh/index.ts';
import { cfg } from '../auth/helpers.ts';

test('port is converted to an integer; an empty key reads as empty', () => {
  assert.deepEqual(sshProxyConfig(cfg({ host: 'bastion', port: '2222', user: 'u', '#privateKey': 'KEY' })), {
    host: 'bastion',
    port: 2222,
    user: 'u',
    privateKey: 'KEY',
  });
  assert.equal(sshProxyConfig(cfg({ host: 'h', port: 22.9, user: 'u', '#privateKey': 'K' })).port, 22);
  assert.equal(sshProxyConfig(cfg({ host: 'h', port: 'x', user: 'u', '#privateKey': 'K' })).port, 0);
  // PHP 7.4's (int): an exponent counts ("2.2e3" is 2200, the old reading stopped at "2"), a no-break space is not whitespace.
  assert.equal(sshProxyConfig(cfg({ host: 'h', port: '2.2e3', user: 'u', '#privateKey': 'K' })).port, 2200);
  assert.equal(sshProxyConfig(cfg({ host: 'h', port: '\u00a022', user: 'u', '#privateKey': 'K' })).port, 0);
  for (const key of ['', null, false, '0', []])
    assert.equal(sshProxyConfig(cfg({ host: 'h', port: 22, user: 'u', '#privateKey': key })).privateKey, '');
});

test('failures read like OpenSSH stderr', () => {
  const config = { host: 'bastion', port: 2222, user: 'deploy', privateKey: 'K' };
  const err = (props: Record<string, unknown>): Error => Object.assign(new Error('raw'), props);
  assert.equal(describeOpenError(err({ code: 'ECONNREFUSED' }), config), 'ssh: connect to host bastion port 2222: Connection refused');
  assert.equal(describeOpenError(err({ code: 'ENOTFOUND' }), config), 'ssh: Could not resolve hostname bastion: Name or service not known');
  assert.equal(describeOpenError(err({ code: 'ETIMEDOUT' }), config), 'ssh: connect to host bastion port 2222: Connection timed out');
  assert.equal(describeOpenError(err({ level: 'client-authentication' }), config), 'deploy@bastion: Permission denied (publickey).');
  assert.equal(
    describeOpenError(err({ level: 'client-timeout', message: 'Timed out while waiting for handshake' }), config),
    'ssh: connect to host bastion port 2222: Timed out while waiting for handshake',
  );
  assert.equal(describeOpenError(err({}), config), 'raw');
});
