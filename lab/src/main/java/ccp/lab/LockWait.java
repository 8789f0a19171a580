package ccp.lab;

import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/**
 * Time spent acquiring the strategy's exclusive access (a lock, a permit, a place at the owner's queue). Adders, not
 * a shared array, so that measuring adds no contention point of its own.
 */
final class LockWait {

  private final LongAdder nanos = new LongAdder();
  private final LongAdder count = new LongAdder();
  private final LongAccumulator max = new LongAccumulator(Math::max, 0);

  void record(long waitedNanos) {
    nanos.add(waitedNanos);
    count.increment();
    max.accumulate(waitedNanos);
  }

  long count() {
    return count.sum();
  }

  double meanMicros() {
    long n = count.sum();
    return n == 0 ? 0 : nanos.sum() / 1000.0 / n;
  }

  double maxMillis() {
    return max.get() / 1e6;
  }
}
