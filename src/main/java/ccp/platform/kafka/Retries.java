package ccp.platform.kafka;

import ccp.platform.async.Backoff;
import ccp.platform.async.PeriodicTask;
import ccp.platform.async.Retry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.kafka.client.consumer.KafkaConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Supplier;

/**
 * A consumer's retries of its records' failing handling, with capped exponential back-off, until success, poison,
 * stop or — under {@link ReliableConsumer.RetryPolicy#DEAD_LETTER_WHEN_EXHAUSTED} — {@code kafka.consumer.retry-ms} of
 * failures while the process was ready, which answers a {@link PoisonMessageException} naming the last error. A failure
 * while the process is not ready (a dependency down) is an outage: the consumer pauses until the process is ready
 * again, every record that failed meanwhile waits on the same answer, and its count starts afresh — an outage is
 * waited out, not turned into dead letters. Confined to the consumer's event loop.
 */
final class Retries {

  private static final Logger LOG = LoggerFactory.getLogger(Retries.class);
  private static final Backoff BACKOFF = new Backoff(100, 5_000);
  /** How long one answer of the process's readiness stands: many records failing at once ask it once. */
  private static final long READINESS_TTL_MS = 1_000;
  /** How often a consumer paused by an outage asks whether the process is ready again. */
  static final long OUTAGE_PROBE_MS = 1_000;

  private final Vertx vertx;
  private final String group;
  private final long retryMs;
  private final Supplier<Future<Boolean>> dependenciesReady;
  private final Runnable outageChanged;
  private final FailingRecords failing = new FailingRecords();
  /** Completed when the process is ready again; null while it is (no outage). */
  private Promise<Void> recovery;
  private PeriodicTask outageProbe;
  private Future<Boolean> readiness;
  private long readinessAskedAt;
  private boolean stopped;

  /** {@code outageChanged} runs when an outage begins and when it ends: the consumer pauses or resumes. */
  Retries(Vertx vertx, String group, long retryMs, Supplier<Future<Boolean>> dependenciesReady, Runnable outageChanged) {
    this.vertx = vertx;
    this.group = group;
    this.retryMs = retryMs;
    this.dependenciesReady = dependenciesReady;
    this.outageChanged = outageChanged;
  }

  /** Runs {@code attempt} for {@code record} until it succeeds, under {@code policy}. */
  Future<Void> run(Supplier<Future<Void>> attempt, KafkaConsumerRecord<String, String> record,
                   ReliableConsumer.RetryPolicy policy) {
    Attempts attempts = new Attempts();
    return Retry.until(vertx, () -> stopped ? Future.failedFuture("consumer stopped") : attempt.get(),
      err -> afterFailure(err, record, policy, attempts));
  }

  private Future<Long> afterFailure(Throwable err, KafkaConsumerRecord<String, String> record,
                                    ReliableConsumer.RetryPolicy policy, Attempts attempts) {
    if (err instanceof PoisonMessageException || stopped) return Future.failedFuture(err);
    failing.failed(record);
    return dependenciesReady().compose(ready -> {
      if (stopped) return Future.failedFuture(err);
      String name = RecordHandling.name(record);
      if (!ready) {
        LOG.warn("Group {}: record {} failed ({}) while the process is not ready; retried once it is", group, name, err.toString());
        attempts.failures = 0;
        return recovered().map(0L);
      }
      long failingMs = attempts.failed();
      if (policy == ReliableConsumer.RetryPolicy.DEAD_LETTER_WHEN_EXHAUSTED && failingMs >= retryMs) {
        return Future.failedFuture(new PoisonMessageException("still failing after " + attempts.failures + " attempts in "
          + failingMs + " ms (kafka.consumer.retry-ms " + retryMs + "): " + err));
      }
      long delay = BACKOFF.delayMs(attempts.failures);
      LOG.warn("Group {}: record {} failed ({}); retrying in {} ms", group, name, err.toString(), delay);
      return Future.succeededFuture(delay);
    });
  }

  /** {@code record}'s handling ended, however: it no longer counts as failing. */
  void ended(KafkaConsumerRecord<String, String> record) {
    failing.ended(record);
  }

  /** Whether the consumer waits out an outage. */
  boolean outage() {
    return recovery != null;
  }

  /** How long the oldest record still retried has been failing, in seconds; 0 when none is. Read by the metrics scrape. */
  double oldestFailingSeconds() {
    return failing.oldestSeconds();
  }

  /** No attempt after this; whatever waits for the process to be ready fails. */
  void stop() {
    stopped = true;
    if (outageProbe != null) outageProbe.cancel();
    if (recovery != null) recovery.tryFail("consumer stopped");
  }

  /** The process's readiness, asked at most once per {@link #READINESS_TTL_MS}; a check that fails is "not ready". */
  private Future<Boolean> dependenciesReady() {
    long now = System.nanoTime();
    if (readiness == null || now - readinessAskedAt > READINESS_TTL_MS * 1_000_000) {
      readinessAskedAt = now;
      readiness = dependenciesReady.get().otherwise(false);
    }
    return readiness;
  }

  private Future<Void> recovered() {
    if (recovery == null) {
      recovery = Promise.promise();
      outageChanged.run();
      LOG.warn("Group {}: the process is not ready; its partitions are paused until it is", group);
      outageProbe = PeriodicTask.every(vertx, OUTAGE_PROBE_MS, "Group " + group + "'s readiness probe",
        () -> dependenciesReady().onSuccess(this::probed));
    }
    return recovery.future();
  }

  private void probed(boolean ready) {
    if (!ready || recovery == null) return;
    outageProbe.cancel();
    Promise<Void> ended = recovery;
    recovery = null;
    outageChanged.run();
    LOG.info("Group {}: the process is ready again; its partitions resume", group);
    ended.tryComplete();
  }

  /** The failures of one record counted against {@code retryMs}: those since the process was last ready. */
  private static final class Attempts {
    private int failures;
    private long since;

    /** Counts a failure; answers how long the record has been failing. */
    long failed() {
      long now = System.nanoTime();
      if (failures++ == 0) since = now;
      return (now - since) / 1_000_000;
    }
  }
}
