/**
 * What an output worker's thread loads (src/cli.ts, when started with `OUTPUT_WORKER_ARG`): the
 * output phase and nothing else. The build bundles it on its own (scripts/bundle.ts), so the
 * thread does not load and compile the HTTP stack, the logger and the validators it never uses.
 */
export { startIfOutputWorker } from './outputWorker.ts';
