#!/usr/bin/env node
/** The extractor command: one run on $KBC_DATADIR (default /data), exit code 0, 1 or 2. */
import { runComponent } from './component/run.ts';

process.exitCode = await runComponent();
