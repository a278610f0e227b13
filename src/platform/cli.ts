#!/usr/bin/env node
/** ex-generic-platform: Keboola platform client (stack services, API portal, job queue). See --help. */
import { runPlatformCli } from './main.ts';

process.exitCode = await runPlatformCli({ argv: process.argv.slice(2) });
