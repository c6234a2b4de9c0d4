const BUCKET_MS = 100;
/** One more than a second's worth: the oldest is the partial tenth the second starts in. */
const BUCKETS = 11;

/**
 * Counts answers in the last second, in tenths of a second: constant memory and time however fast
 * answers come (a loopback run answers thousands a second).
 */
export class AnswerCounter {
  private readonly counts = new Array<number>(BUCKETS).fill(0);
  private readonly starts = new Array<number>(BUCKETS).fill(-Infinity);

  add(at: number): void {
    const tenth = Math.floor(at / BUCKET_MS);
    const index = tenth % BUCKETS;
    if (this.starts[index] !== tenth) {
      this.starts[index] = tenth;
      this.counts[index] = 0;
    }
    this.counts[index] = (this.counts[index] ?? 0) + 1;
  }

  /** Answers in the second up to `at`; the tenth it starts in counts for the part of it inside that second. */
  inLastSecond(at: number): number {
    const from = at - 1000;
    const oldest = Math.floor(from / BUCKET_MS);
    let total = 0;
    for (let index = 0; index < BUCKETS; index += 1) {
      const tenth = this.starts[index] ?? -Infinity;
      if (tenth < oldest || tenth * BUCKET_MS > at) continue;
      const share = tenth === oldest ? (tenth * BUCKET_MS + BUCKET_MS - from) / BUCKET_MS : 1;
      total += (this.counts[index] ?? 0) * share;
    }
    return total;
  }
}
