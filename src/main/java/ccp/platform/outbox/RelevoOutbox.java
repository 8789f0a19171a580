package ccp.platform.outbox;

import ccp.platform.async.Backoff;
import ccp.platform.async.PeriodicTask;
import ccp.platform.kafka.EventPublisher;
import ccp.platform.kafka.KafkaConfig;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.sqlclient.SqlClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * RelevoOutbox (B2) of one service: publishes the committed outbox rows and marks them sent. Woken by the writer
 * after each commit and by a timer (rows of other replicas, or of a crash), it drains in id order, one batch at a
 * time. A row whose publish failed is released and retried after a back-off; a relay that dies leaves its claim to
 * expire, so nothing committed is lost (a re-publish is possible; consumers dedupe).
 */
public final class RelevoOutbox extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(RelevoOutbox.class);
  private static final long PURGE_EVERY_MS = 60_000;
  private static final Backoff RETRY = new Backoff(100, 5_000);

  private final Outbox outbox;
  private final OutboxConfig config;
  private final KafkaConfig kafka;
  private final SqlClient sql;
  private final Timer lag;
  private EventPublisher publisher;
  private boolean draining;
  private boolean again;
  private int failures;
  private long pollTimer;
  private PeriodicTask purge;

  public RelevoOutbox(Outbox outbox, OutboxConfig config, KafkaConfig kafka, SqlClient sql, MeterRegistry registry) {
    this.outbox = outbox;
    this.config = config;
    this.kafka = kafka;
    this.sql = sql;
    this.lag = Timer.builder("outbox_publish_lag")
      .description("Outbox row committed → acknowledged by the broker")
      .tag("schema", outbox.schema())
      .publishPercentileHistogram()
      .register(registry);
  }

  @Override
  public Future<?> start() {
    publisher = EventPublisher.create(vertx, kafka);
    pollTimer = vertx.setPeriodic(config.pollMs(), id -> drain());
    purge = PeriodicTask.every(vertx, PURGE_EVERY_MS, "Purging sent outbox rows of " + outbox.schema(),
      () -> outbox.purgeSent(sql));
    drain();
    return vertx.eventBus().<Void>localConsumer(outbox.wakeAddress(), message -> drain()).completion();
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(pollTimer);
    purge.cancel();
    return publisher.close();
  }

  private void drain() {
    if (draining) {
      again = true;
      return;
    }
    draining = true;
    again = false;
    int batch = config.batchSize();
    outbox.claim(sql, config.claimTimeoutMs(), batch)
      .compose(rows -> publish(rows).map(rows.size()))
      .onComplete(ar -> {
        draining = false;
        if (ar.succeeded()) {
          failures = 0;
          if (again || ar.result() == batch) drain();
        } else {
          long delay = RETRY.delayMs(++failures);
          LOG.warn("Relaying the outbox of {} failed ({}); next try in {} ms", outbox.schema(), ar.cause().toString(), delay);
          vertx.setTimer(delay, id -> drain());
        }
      });
  }

  /** Publishes in id order (one producer keeps per-partition order), then marks what the broker took. */
  private Future<Void> publish(List<Outbox.PendingEvent> rows) {
    List<Future<Void>> sends = new ArrayList<>(rows.size());
    for (Outbox.PendingEvent row : rows) {
      sends.add(publisher.publishEncoded(row.topic(), row.key(), row.value()).onSuccess(ack ->
        lag.record(Duration.between(row.createdAt().toInstant(), Instant.now()))).mapEmpty());
    }
    return Future.join(sends).transform(done -> {
      List<Long> sent = new ArrayList<>();
      List<Long> failed = new ArrayList<>();
      for (int i = 0; i < rows.size(); i++) (sends.get(i).succeeded() ? sent : failed).add(rows.get(i).id());
      Future<Void> marked = outbox.markSent(sql, sent)
        .compose(x -> failed.isEmpty() ? Future.succeededFuture() : outbox.release(sql, failed, rows.get(0).claimedAt()));
      return failed.isEmpty() ? marked : marked.compose(x -> Future.failedFuture(failed.size() + " of " + rows.size() + " not published"));
    });
  }
}
