/** No pagination: one request per job instance (spec 03 §5.3.1). */
import { jobRequest, type Scroller } from './scroller.ts';

export class NoScroller implements Scroller {
  firstRequest(job: Parameters<Scroller['firstRequest']>[0]) {
    return jobRequest(job);
  }
  nextRequest() {
    return null;
  }
  reset(): void {}
  forChild(): Scroller {
    return new NoScroller();
  }
}
