package ccp.support;

import java.time.Duration;
import java.util.function.Supplier;

/** Polls a condition until it holds or the (generous) deadline passes. */
public final class Await {

  private Await() {}

  public static <T> T until(Duration timeout, Supplier<T> probe, java.util.function.Predicate<T> done, String what) {
    long deadline = System.nanoTime() + timeout.toNanos();
    T value = probe.get();
    while (!done.test(value)) {
      if (System.nanoTime() > deadline) throw new AssertionError("timed out after " + timeout + " waiting for " + what + "; last: " + value);
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
      value = probe.get();
    }
    return value;
  }
}
