package ccp.platform.outbox;

import ccp.platform.async.Backoff;
import ccp.platform.async.PeriodicTask;
import ccp.platform.db.PgClients;
import ccp.platform.db.PgConfig;
import ccp.platform.http.BacklogAdmission;
import ccp.platform.kafka.EventPublisher;
import ccp.platform.kafka.KafkaConfig;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.sqlclient.SqlClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * RelevoOutbox (B2) of one service: publishes the committed outbox rows and marks them sent. Woken by the writer
 * after each commit and by a timer (rows of other replicas, or of a crash), it drains in id order, one batch at a
 * time; several relays keep each key's order ({@link Outbox}). While a batch's sends are in flight (up to the
 * producer's delivery timeout, longer than the claim) the relay renews its claim every third of
 * {@code outbox.claim-timeout-ms}, so no other relay publishes those rows meanwhile. A row whose publish failed is
 * released at once and retried after a back-off. A relay that dies leaves its claim to expire, so nothing committed is
 * lost; what it had published but not yet marked sent is published again — the at-least-once window, a
 * claim-timeout wide, which consumers close by the event's id (their handlers are idempotent).
 * <p>
 * Every {@link #BACKLOG_EVERY_MS} it reads how long the oldest row waiting for a relay has waited (unsent and under no
 * live claim: a relay's batch in flight is being published) and tells the service's
 * writers of this process ({@link Outbox#admission}), which refuse App writes while it exceeds
 * {@code outbox.admission-max-age-ms}: the door's concurrency limit sees only the write's own statement, which stays
 * short while the relay falls behind.
 */
public final class RelevoOutbox extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(RelevoOutbox.class);
  private static final long PURGE_EVERY_MS = 60_000;
  private static final Backoff RETRY = new Backoff(100, 5_000);
  static final long BACKLOG_EVERY_MS = 250;

  private final Outbox outbox;
  private final OutboxConfig config;
  private final KafkaConfig kafka;
  private final PgConfig db;
  private SqlClient sql;
  private final Timer lag;
  private EventPublisher publisher;
  private boolean draining;
  private boolean stopped;
  private boolean again;
  private int failures;
  private long pollTimer;
  private PeriodicTask purge;
  private PeriodicTask backlog;
  /** The oldest waiting row's age at the last reading, in seconds: a gauge read at scrape time. */
  private volatile double oldestSeconds;

  public RelevoOutbox(Outbox outbox, OutboxConfig config, KafkaConfig kafka, PgConfig db, MeterRegistry registry) {
    this.outbox = outbox;
    this.config = config;
    this.kafka = kafka;
    this.db = db;
    this.lag = Timer.builder("outbox_publish_lag")
      .description("Outbox row committed → acknowledged by the broker")
      .tag("schema", outbox.schema())
      .publishPercentileHistogram()
      .register(registry);
    Gauge.builder("outbox_oldest_waiting_seconds", this, relay -> relay.oldestSeconds)
      .description("How long the oldest outbox row waiting for a relay (unsent, under no live claim) has waited")
      .tag("schema", outbox.schema())
      .register(registry);
  }

  @Override
  public Future<?> start() {
    publisher = EventPublisher.create(vertx, kafka);
    sql = PgClients.relay(vertx, db);
    pollTimer = vertx.setPeriodic(config.pollMs(), id -> drain());
    purge = PeriodicTask.every(vertx, PURGE_EVERY_MS, "Purging sent outbox rows of " + outbox.schema(),
      () -> outbox.purgeSent(sql));
    backlog = PeriodicTask.every(vertx, BACKLOG_EVERY_MS, "Reading the outbox backlog of " + outbox.schema(), this::backlog);
    drain();
    return vertx.eventBus().<Void>localConsumer(outbox.wakeAddress(), message -> drain()).completion();
  }

  @Override
  public Future<?> stop() {
    stopped = true;
    vertx.cancelTimer(pollTimer);
    purge.cancel();
    backlog.cancel();
    return publisher.close().eventually(() -> sql.close());
  }

  private Future<?> backlog() {
    return outbox.oldestWaitingMs(sql, config.claimTimeoutMs()).onSuccess(ageMs -> {
      oldestSeconds = ageMs / 1000.0;
      vertx.eventBus().publish(outbox.backlogAddress(), BacklogAdmission.reading(
        "the " + outbox.schema() + " writes wait " + ageMs + " ms to be published", ageMs, config.admissionMaxAgeMs(),
        4 * BACKLOG_EVERY_MS));
    });
  }

  private void drain() {
    if (stopped) return;
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
          // Not Retry.until: a failed drain is not one call to repeat. The next drain claims afresh whatever is due
          // then, and a writer's wake-up or the poll may start it sooner; the back-off only spaces the drains that
          // failures start.
          long delay = RETRY.delayMs(++failures);
          LOG.warn("Relaying the outbox of {} failed ({}); next try in {} ms", outbox.schema(), ar.cause().toString(), delay);
          vertx.setTimer(delay, id -> drain());
        }
      });
  }

  /**
   * Publishes in id order (one producer keeps per-partition order), renewing the claim meanwhile, then marks what the
   * broker took and releases the rest of the claim still held.
   */
  private Future<Void> publish(List<Outbox.PendingEvent> rows) {
    if (rows.isEmpty()) return Future.succeededFuture();
    List<Long> ids = rows.stream().map(Outbox.PendingEvent::id).toList();
    Claim claim = new Claim(rows.get(0).claimedAt());
    long renewal = vertx.setPeriodic(Math.max(1, config.claimTimeoutMs() / 3), id -> renew(claim, ids));
    List<Future<Void>> sends = new ArrayList<>(rows.size());
    for (Outbox.PendingEvent row : rows) {
      sends.add(publisher.publishEncoded(row.topic(), row.key(), row.value()).onSuccess(ack ->
        lag.record(Duration.between(row.createdAt().toInstant(), Instant.now()))).mapEmpty());
    }
    return Future.join(sends).transform(done -> {
      vertx.cancelTimer(renewal);
      List<Long> sent = new ArrayList<>();
      List<Long> failed = new ArrayList<>();
      for (int i = 0; i < rows.size(); i++) (sends.get(i).succeeded() ? sent : failed).add(rows.get(i).id());
      // After any renewal in flight, so that the release names the claim's latest time.
      Future<Void> marked = claim.renewing.eventually(() -> outbox.markSent(sql, sent))
        .compose(x -> failed.isEmpty() ? Future.succeededFuture() : outbox.release(sql, failed, claim.at));
      return failed.isEmpty() ? marked : marked.compose(x -> Future.failedFuture(failed.size() + " of " + rows.size() + " not published"));
    });
  }

  /** One renewal at a time; a failed one is logged and the next tries again (the claim lasts three periods). */
  private void renew(Claim claim, List<Long> ids) {
    if (!claim.renewing.isComplete()) return;
    claim.renewing = outbox.renew(sql, ids, claim.at)
      .onSuccess(renewed -> renewed.ifPresent(at -> claim.at = at))
      .onFailure(err -> LOG.warn("Renewing a claim of the outbox of {} failed ({})", outbox.schema(), err.toString()))
      .<Void>mapEmpty()
      .otherwiseEmpty();
  }

  /** This relay's claim on one batch: its latest time, and the renewal in flight. Confined to the relay's event loop. */
  private static final class Claim {
    private OffsetDateTime at;
    private Future<Void> renewing = Future.succeededFuture();

    Claim(OffsetDateTime at) {
      this.at = at;
    }
  }
}
