/**
 * Time for the rate limiter, injectable so tests drive it without waiting: `now` in ms and a
 * cancellable timer.
 */
export interface Clock {
  now(): number;
  /** Calls `fn` after `ms`; the returned function cancels it. */
  timer(fn: () => void, ms: number): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  timer: (fn, ms) => {
    const t = setTimeout(fn, Math.max(0, ms));
    return () => clearTimeout(t);
  },
};
