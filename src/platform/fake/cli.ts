#!/usr/bin/env node
/**
 * `node dist/platform/fake/cli.js`: starts the fake platform and prints how to point the client at
 * it; runs until Ctrl-C. For trying the client by hand; nothing leaves 127.0.0.1.
 */
import { startFakePlatform } from './fakePlatform.ts';

const platform = await startFakePlatform({ stepMs: 300 });
process.stdout.write(
  [
    'fake platform running; in another shell:',
    `  export KBC_URL=${platform.storageUrl}`,
    `  export KBC_TOKEN=${platform.token}`,
    '  export EX_GENERIC_PLATFORM_ALLOW_HTTP_LOOPBACK=1   # http, for this loopback fake only',
    '  node dist/platform/cli.js services',
    'Ctrl-C stops it.',
    '',
  ].join('\n'),
);
process.once('SIGINT', () => void platform.close());
