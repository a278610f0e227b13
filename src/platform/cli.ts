#!/usr/bin/env node
/** ex-generic-platform: Keboola platform client (stacks, encryption, configurations, jobs, fan-out). See --help. */
import { runPlatformCli } from './main.ts';

// The first Ctrl-C lets a fan-out kill the jobs it started and report; a second one ends the process at once.
const interrupt = new AbortController();
process.once('SIGINT', () => {
  interrupt.abort();
  process.once('SIGINT', () => process.exit(130));
});
process.exitCode = await runPlatformCli({ argv: process.argv.slice(2), interrupt: interrupt.signal });
