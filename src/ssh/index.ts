/** SSH proxy (spec 01 §6.1): what the component wires into its HTTP transport and client. */
export { createSshTunnel, describeOpenError, type SshTunnel, type SshTunnelOptions } from './tunnel.ts';
export { SshTunnelError } from '../errors/SshTunnelError.ts';
