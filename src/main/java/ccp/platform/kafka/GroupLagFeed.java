package ccp.platform.kafka;

import ccp.platform.async.PeriodicTask;
import ccp.platform.http.BacklogAdmission;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.kafka.admin.KafkaAdminClient;

import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * How far behind the consumers after a door run, for that door: every {@link #EVERY_MS} it reads how long each of its
 * consumer groups has kept its first unfinished record waiting ({@link GroupLag}) and publishes the longest on a local
 * event-bus address, where the process's HTTP verticles' {@link BacklogAdmission} refuse writes while it exceeds the
 * bound. A door's concurrency limit sees only its own statement, which stays short while the consumers behind it fall
 * behind; what it accepts then waits in their queues. A read that fails or takes longer than a reading holds publishes
 * nothing, so the door refuses nothing for want of a reading (logged). One instance per process.
 */
public final class GroupLagFeed extends VerticleBase {

  static final long EVERY_MS = 500;
  /** How long a reading holds: the door refuses on a reading no older. A read slower than this is given up. */
  private static final int VALIDA_MS = (int) (4 * EVERY_MS);

  private final KafkaConfig kafka;
  private final String address;
  private final String que;
  private final Map<String, String> groups;
  private final long maxMs;
  private KafkaAdminClient admin;
  private PeriodicTask lectura;

  /**
   * @param address where the readings go: a {@link BacklogAdmission} on it refuses
   * @param que     what the groups are, as the refusal names them ("the order chain's queue")
   * @param groups  consumer group → the topic it reads
   * @param maxMs   how long a group may keep a record waiting before writes are refused
   */
  public GroupLagFeed(KafkaConfig kafka, String address, String que, Map<String, String> groups, long maxMs) {
    this.kafka = kafka;
    this.address = address;
    this.que = que;
    this.groups = Map.copyOf(groups);
    this.maxMs = maxMs;
  }

  @Override
  public Future<?> start() {
    // A reading is worth its validity: the broker's answers are bounded by it, not by the client's 30 s and 60 s defaults.
    Map<String, String> config = kafka.client();
    config.put("request.timeout.ms", String.valueOf(VALIDA_MS));
    config.put("default.api.timeout.ms", String.valueOf(VALIDA_MS));
    admin = KafkaAdminClient.create(vertx, config);
    GroupLag lag = new GroupLag(admin, groups);
    lectura = PeriodicTask.every(vertx, EVERY_MS, "Reading the lag of " + groups.keySet(),
      () -> lag.read().timeout(VALIDA_MS, TimeUnit.MILLISECONDS).onSuccess(this::publicar));
    return Future.succeededFuture();
  }

  private void publicar(Map<String, Long> esperas) {
    Map.Entry<String, Long> peor = esperas.entrySet().stream().max(Map.Entry.comparingByValue()).orElse(Map.entry("-", 0L));
    vertx.eventBus().publish(address, BacklogAdmission.reading(que + " " + peor.getKey() + " has kept its first record waiting "
      + peor.getValue() + " ms", peor.getValue(), maxMs, VALIDA_MS));
  }

  @Override
  public Future<?> stop() {
    lectura.cancel();
    return admin.close(5_000);
  }
}
