package ccp.platform.kafka;

import io.vertx.kafka.client.common.TopicPartition;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * How long the first record a consumer group has not finished has waited, told without reading it (as
 * kafka-lag-exporter tells it): the log's end offset of each partition is sampled with the time of the sample, and the
 * record at offset {@code c} was written between the last sample whose end was at most {@code c} and the next one,
 * which interpolating places it in. Only the last {@link #HORIZON_NS} of samples are kept; a record older than them is
 * reported as old as the oldest sample kept. Confined to the verticle that samples.
 */
final class TimeLag {

  /** How far back the samples go: a head older than this is told as this old, far past any admission bound. */
  static final long HORIZON_NS = 60_000_000_000L;

  /** Per partition, its samples oldest first: {time in ns, end offset}. */
  private final Map<TopicPartition, ArrayDeque<long[]>> samples = new HashMap<>();

  /** The log's end of {@code partition} was {@code end} at {@code nowNs} ({@link System#nanoTime()}). */
  void sample(TopicPartition partition, long end, long nowNs) {
    ArrayDeque<long[]> kept = samples.computeIfAbsent(partition, p -> new ArrayDeque<>());
    kept.addLast(new long[] {nowNs, end});
    while (nowNs - kept.peekFirst()[0] > HORIZON_NS) kept.removeFirst();
  }

  /**
   * How long, in ms at {@code nowNs}, the record at offset {@code committed} of {@code partition} has waited: 0 when
   * the partition's last sampled end is not past it (nothing waits), or when the partition was never sampled.
   */
  long ageMs(TopicPartition partition, long committed, long nowNs) {
    ArrayDeque<long[]> kept = samples.get(partition);
    if (kept == null || kept.peekLast()[1] <= committed) return 0;
    long[] before = null;
    Iterator<long[]> it = kept.iterator();
    long[] after = it.next();
    while (after[1] <= committed) {
      before = after;
      after = it.next();
    }
    if (before == null) return (nowNs - after[0]) / 1_000_000;
    // Written after the end was before[1] and by the time it was after[1]: placed in between by its offset.
    double share = (double) (committed - before[1] + 1) / (after[1] - before[1]);
    long writtenNs = before[0] + (long) (share * (after[0] - before[0]));
    return Math.max(0, (nowNs - writtenNs) / 1_000_000);
  }

}
