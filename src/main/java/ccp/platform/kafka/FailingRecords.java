package ccp.platform.kafka;

import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The records of one consumer whose handling has failed and is still being retried, each since its first failure: how
 * long the oldest has been failing is {@code kafka_consumer_retrying_seconds}. Changed on the consumer's event loop
 * only; {@link #oldestSeconds} is read by the metrics scrape. A record is the fetched object, not its offset: a
 * partition revoked and assigned again fetches the record anew while its first handling may still be retrying.
 */
final class FailingRecords {

  private final Map<Object, Long> since = new IdentityHashMap<>();
  /** The first failure ({@link System#nanoTime}) of the oldest record still retried; null when none is. */
  private volatile Long oldest;

  /** A failure of {@code record}'s handling: it counts from its first. */
  void failed(Object record) {
    Long first = since.get(record);
    if (first != null) return;
    first = System.nanoTime();
    since.put(record, first);
    // Any record already here failed earlier, so a newcomer is the oldest only when it is alone.
    if (oldest == null) oldest = first;
  }

  /** {@code record}'s handling ended: handled, set aside as a dead letter, or given up at the stop. */
  void ended(Object record) {
    Long first = since.remove(record);
    if (first != null && first.equals(oldest)) oldest = since.values().stream().min(Long::compare).orElse(null);
  }

  /** How long the oldest record still retried has been failing, in seconds; 0 when none is. */
  double oldestSeconds() {
    Long first = oldest;
    return first == null ? 0 : (System.nanoTime() - first) / 1e9;
  }
}
