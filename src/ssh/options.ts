/**
 * `parameters.sshProxy` (spec 01 §6.1) parsed once: host, port, user, #privateKey, read as the
 * reference reads them. The component parses it and hands the result to the tunnel (tunnel.ts).
 */
import { phpIntval } from '../php/intval.ts';
import { isEmpty, member, type Value } from '../php/value.ts';
import { phpString } from '../php/stringConversion.ts';

export interface SshProxyConfig {
  host: string;
  port: number;
  user: string;
  /** Empty when the key is PHP-empty; opening then fails with `Key must not be empty`. */
  privateKey: string;
}

/** Reads the section; key presence is checked up front elsewhere (01 §2.4 S1). */
export function sshProxyConfig(section: Value | undefined): SshProxyConfig {
  const key = member(section, '#privateKey');
  return {
    host: phpString(member(section, 'host')),
    port: phpIntval(member(section, 'port')),
    user: phpString(member(section, 'user')),
    privateKey: isEmpty(key) ? '' : phpString(key),
  };
}

/** The SSH proxy of a run: `parameters.sshProxy` when present and not null, else none. */
export function sshProxyOf(parameters: Value | undefined): SshProxyConfig | undefined {
  const section = member(parameters, 'sshProxy');
  return section === undefined || section === null ? undefined : sshProxyConfig(section);
}
