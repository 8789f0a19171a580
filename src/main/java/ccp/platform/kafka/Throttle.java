package ccp.platform.kafka;

import ccp.platform.async.PeriodicTask;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.kafka.client.common.TopicPartition;

import java.util.HashSet;
import java.util.Set;
import java.util.function.Consumer;

/**
 * When a consumer holds its assigned partitions: while it is saturated — {@code kafka.consumer.max-in-flight} records
 * in progress ({@code yield-in-flight} while it yields to a security consumer of its process), or four times as many
 * fetched records waiting for their commit — or waits out an outage; it lets them go once in-flight and waiting records
 * are down to half of their limits and the outage is over. Memory stays bounded. A {@link Priority#SECURITY} consumer
 * tells the chain's when it is behind, a {@link Priority#CHAIN} one listens ({@link SecurityPressure}). Confined to the
 * consumer's event loop.
 */
final class Throttle {

  /** Fetched records that may wait behind an unfinished one for their commit, per record allowed in flight. */
  static final int WAITING_PER_IN_FLIGHT = 4;

  private final Vertx vertx;
  private final KafkaConfig kafka;
  private final int maxWaiting;
  private final Consumer<Set<TopicPartition>> pause;
  private final Consumer<Set<TopicPartition>> resume;
  private SecurityPressure.Reporter pressure;
  private SecurityPressure.Listener yieldTo;
  private PeriodicTask pressureTask;
  private boolean paused;
  private boolean saturated;
  private boolean outage;
  /** Written on the consumer's context, read by the metrics scrape. */
  private volatile boolean yieldingNow;

  /** {@code pause} and {@code resume} are the client's, for the partitions given. */
  Throttle(Vertx vertx, KafkaConfig kafka, Consumer<Set<TopicPartition>> pause, Consumer<Set<TopicPartition>> resume) {
    this.vertx = vertx;
    this.kafka = kafka;
    this.maxWaiting = WAITING_PER_IN_FLIGHT * kafka.maxInFlight();
    this.pause = pause;
    this.resume = resume;
  }

  /** Takes its place among the consumers of its process; {@code changed} runs when what it yields to changes. */
  void start(Priority priority, String member, Runnable changed) {
    if (priority == Priority.SECURITY) {
      pressure = new SecurityPressure.Reporter(vertx, member, kafka.yieldDelayMs());
      pressureTask = PeriodicTask.every(vertx, SecurityPressure.PERIOD_MS, "Security pressure of " + member, () -> {
        pressure.report(saturated && !outage);
        return Future.succeededFuture();
      });
    } else if (priority == Priority.CHAIN) {
      yieldTo = new SecurityPressure.Listener(vertx, changed);
      // A member that went silent stops counting after a while: look again even when no one says anything.
      pressureTask = PeriodicTask.every(vertx, SecurityPressure.STALE_MS / 4, "Yielding of " + member, () -> {
        changed.run();
        return Future.succeededFuture();
      });
    }
  }

  /** A record produced at {@code producedAtMs} is taken now: a security consumer is behind when they waited too long. */
  void taken(long producedAtMs) {
    if (pressure != null && producedAtMs >= 0) pressure.taken(producedAtMs);
  }

  /** A rebalance resumes every partition it assigns: held again at the next {@link #flow} if they must be. */
  void assigned() {
    paused = false;
  }

  /** Holds or lets go the {@code assigned} partitions, from the consumer's state now. */
  void flow(int inFlight, int waiting, boolean outage, Set<TopicPartition> assigned) {
    this.outage = outage;
    yieldingNow = yielding();
    int limit = yieldingNow ? Math.min(kafka.maxInFlight(), kafka.yieldInFlight()) : kafka.maxInFlight();
    if (inFlight >= limit || waiting >= maxWaiting) saturated = true;
    else if (inFlight <= limit / 2 && waiting <= maxWaiting / 2) saturated = false;
    boolean hold = saturated || outage;
    if (hold && !paused && !assigned.isEmpty()) {
      paused = true;
      pause.accept(new HashSet<>(assigned));
    } else if (!hold && paused) {
      paused = false;
      resume.accept(new HashSet<>(assigned));
    }
  }

  boolean paused() {
    return paused;
  }

  /** A chain consumer while a security consumer of its process is behind. */
  boolean yielding() {
    return yieldTo != null && yieldTo.yielding();
  }

  /** As last seen on the consumer's context: for the metrics scrape. */
  boolean yieldingNow() {
    return yieldingNow;
  }

  void stop() {
    if (pressureTask != null) pressureTask.cancel();
    if (pressure != null) pressure.stop();
    if (yieldTo != null) yieldTo.stop();
  }
}
