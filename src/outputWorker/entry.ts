/**
 * What an output worker's thread loads (src/runtime/outputWorkerDispatch.ts imports it when the
 * thread was started with `OUTPUT_WORKER_ARG`): the output phase and nothing else. The build
 * bundles it on its own (scripts/bundle.ts), so the thread does not load and compile the HTTP
 * stack, the logger and the validators it never uses.
 */
import {
  OUTPUT_WORKER_ARG,
  isOutputWorkerData,
  type FramesMessage,
  type OutputWorkerData,
  type ReadyMessage,
  type WorkerReply,
} from './protocol.ts';
import { OutputRenderer } from './renderer.ts';

/** Starts the output worker when this thread is one (see OUTPUT_WORKER_ARG); true if it did. */
export function startIfOutputWorker(): boolean {
  if (!process.argv.includes(OUTPUT_WORKER_ARG)) return false;
  const thread = process.getBuiltinModule('node:worker_threads');
  if (thread.isMainThread || !isOutputWorkerData(thread.workerData)) return false;
  runOutputWorker(thread.parentPort!, thread.workerData);
  return true;
}

/** Entry of the worker thread: messages are handled one after another, in order. */
function runOutputWorker(
  port: { on(event: 'message', f: (m: FramesMessage) => void): void; postMessage(m: WorkerReply | ReadyMessage): void },
  data: OutputWorkerData,
): void {
  const renderer = new OutputRenderer(data);
  const queue: FramesMessage[] = [];
  let busy = false;
  const drain = async (): Promise<void> => {
    busy = true;
    while (queue.length > 0) {
      const reply = await renderer.handle(queue.shift()!);
      if (reply) port.postMessage(reply);
    }
    busy = false;
  };
  port.on('message', (m) => {
    queue.push(m);
    if (!busy) void drain();
  });
  port.postMessage({ type: 'ready' } satisfies ReadyMessage);
}
