/** `stacks`, `services`, `apis`: what a stack offers (01 §5.1–§5.3); no token is sent. */
import { PlatformClient } from './client.ts';
import type { CliContext } from './cliContext.ts';
import { CommandLineUsageError } from './errors/CommandLineUsageError.ts';
import { STACKS, resolveStack } from './stacks.ts';

export async function listStacks(ctx: CliContext): Promise<number> {
  if (ctx.values.json) ctx.out(JSON.stringify(STACKS, null, 2));
  else for (const s of STACKS) ctx.out(`${s.name}\t${s.storageUrl}\t${s.label}`);
  return 0;
}

export async function listServices(ctx: CliContext): Promise<number> {
  const index = await ctx.client().getStorageIndex();
  if (ctx.values.json) ctx.out(JSON.stringify(index.services, null, 2));
  else for (const s of index.services) ctx.out(`${s.id}\t${s.url}`);
  return 0;
}

export async function listApis(ctx: CliContext): Promise<number> {
  let portal = ctx.values.portal;
  if (portal === undefined) {
    const stack = ctx.values.stack ?? ctx.env['KBC_URL'];
    if (stack === undefined) throw new CommandLineUsageError('--portal URL or --stack NAME is required');
    portal = resolveStack(stack, ctx.allowHttpLoopback).portalUrl;
    if (portal === undefined) throw new CommandLineUsageError(`the API portal of ${stack} is not known: pass --portal URL`);
  }
  // The portal index needs no token and no stack: any base URL works for the client.
  const index = await new PlatformClient({
    storageUrl: portal,
    env: {},
    allowHttpLoopback: ctx.allowHttpLoopback,
    sleep: ctx.sleep,
    ...(ctx.io.fetch ? { fetch: ctx.io.fetch } : {}),
  }).getPortalIndex(portal);
  if (ctx.values.json) ctx.out(JSON.stringify(index, null, 2));
  else {
    ctx.out(`stack ${index.stack}`);
    for (const s of index.services) ctx.out(`${s.id}\t${s.apiUrl}\t${s.name}\t${s.openApiSpecUrl}`);
  }
  return 0;
}
