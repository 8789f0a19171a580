package ccp.platform.async;

/**
 * Capped exponential back-off: {@code initialMs} after the first failure, doubling with each further one, never more
 * than {@code maxMs}.
 */
public record Backoff(long initialMs, long maxMs) {

  public Backoff {
    if (initialMs <= 0 || maxMs < initialMs) throw new IllegalArgumentException("back-off " + initialMs + ".." + maxMs + " ms");
  }

  /** The wait after {@code failures} consecutive failures (1 or more; 0 waits nothing). */
  public long delayMs(int failures) {
    if (failures <= 0) return 0;
    long delay = initialMs;
    for (int i = 1; i < failures && delay < maxMs; i++) delay *= 2;
    return Math.min(maxMs, delay);
  }
}
