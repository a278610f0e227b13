/**
 * The action's time limit (spec 05 §1.2: answer, or exit 2 at 60 s). A timer covers the waits
 * (requests, retry pauses), but it cannot fire while synchronous work runs: encoding a long
 * answer, padding a huge `sprintf` width. That work reads the clock itself through
 * `checkActionTime`, which throws `TimeLimitReached` once the limit has passed; the error goes
 * past the action's envelope (a timeout is not an answer) to the dispatcher, which exits 2.
 *
 * One action runs per process, so the limit is the process's: set when the action starts,
 * cleared when it ends.
 */

export class TimeLimitReached extends Error {
  constructor() {
    super('the sync action reached its time limit');
    this.name = 'TimeLimitReached';
  }
}

let deadlineMs = Number.POSITIVE_INFINITY;

/** Starts the clock of the running action; the returned function stops it. */
export function startActionClock(limitMs: number, nowMs: number = Date.now()): () => void {
  deadlineMs = nowMs + limitMs;
  return () => {
    deadlineMs = Number.POSITIVE_INFINITY;
  };
}

/** Throws `TimeLimitReached` when the running action's time is up. */
export function checkActionTime(): void {
  if (Date.now() >= deadlineMs) throw new TimeLimitReached();
}
