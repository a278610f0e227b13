/**
 * The number of requests a host may have on the wire, adapted like TCP's congestion window:
 * halved on a 429 (multiplicative decrease, at most once per round of requests in flight, so a
 * burst of 429s to requests sent together counts once), grown by one per round of successful
 * answers (additive increase), never above the configured concurrency nor below 1.
 */
export class Aimd {
  private readonly max: number;
  private window: number;
  /** A 429 to a request sent before this sequence number belongs to the last cut. */
  private cutBefore = 0;
  cuts = 0;

  constructor(max: number) {
    this.max = Math.max(1, max);
    this.window = this.max;
  }

  get limit(): number {
    return Math.max(1, Math.floor(this.window));
  }

  /** A 429 answered request `seq`; `sent` requests have been sent so far. Returns whether it cut. */
  congestion(seq: number, sent: number): boolean {
    if (seq < this.cutBefore) return false;
    this.window = Math.max(1, Math.floor(this.window / 2));
    this.cutBefore = sent + 1;
    this.cuts++;
    return true;
  }

  success(): void {
    if (this.window < this.max) this.window = Math.min(this.max, this.window + 1 / this.window);
  }
}
