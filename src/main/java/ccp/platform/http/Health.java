package ccp.platform.http;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.healthchecks.CheckResult;
import io.vertx.ext.healthchecks.HealthChecks;
import io.vertx.ext.healthchecks.Status;
import io.vertx.sqlclient.SqlClient;

import io.netty.util.concurrent.EventExecutor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The process's liveness and readiness checks. A verticle's check runs on that verticle's own context, so the
 * state it reads stays confined to its event loop.
 * <p>
 * Live while every event loop turns: each one stamps a heartbeat of its own several times per deadline, and the
 * process is not live when one has not stamped for {@code health.event-loop-deadline-ms} — a handler that blocks or
 * spins there wedges every verticle, connection and timer of that loop, which only a restart cures. Ready while the
 * database answers within {@link #CHECK_TIMEOUT_MS} (and what each role adds): a hung database makes the process
 * unready, not dead, since it recovers by itself when the database does.
 */
public final class Health {

  /**
   * HealthChecks fails a check's promise on a timer of its own at this bound, so each check finishes it with
   * {@code tryComplete}: an answer that comes later (a loop busy past the bound, a slow database) is dropped instead of
   * throwing "Result is already complete" on the loop that brought it.
   */
  private static final long CHECK_TIMEOUT_MS = 2_000;
  /** Within the check's own timeout, so a dependency that does not answer is "down" (503), not a failed check (500). */
  private static final long ANSWER_MS = 1_500;

  private final HealthChecks live;
  private final HealthChecks ready;

  public Health(Vertx vertx, long eventLoopDeadlineMs) {
    this.live = HealthChecks.create(vertx);
    this.ready = HealthChecks.create(vertx);
    List<Heartbeat> beats = heartbeats(vertx, eventLoopDeadlineMs);
    live.register("event-loops", CHECK_TIMEOUT_MS, promise -> {
      long now = System.nanoTime();
      JsonObject late = new JsonObject();
      for (Heartbeat beat : beats) {
        long silentMs = (now - beat.at) / 1_000_000;
        if (silentMs > eventLoopDeadlineMs) late.put(beat.thread, silentMs);
      }
      promise.tryComplete(late.isEmpty() ? Status.OK()
        : Status.KO(new JsonObject().put("blocked_ms", late).put("deadline_ms", eventLoopDeadlineMs)));
    });
  }

  /**
   * One heartbeat per event loop of {@code vertx}, stamped by a task scheduled on that very loop. Vert.x's public API
   * offers no way to reach each loop (a context lands on one chosen round-robin), hence its internal group; its own
   * blocked-thread checker only logs, and a test may own its one handler.
   */
  private static List<Heartbeat> heartbeats(Vertx vertx, long deadlineMs) {
    long periodMs = Math.max(10, deadlineMs / 5);
    List<Heartbeat> beats = new ArrayList<>();
    for (EventExecutor loop : ((VertxInternal) vertx).nettyEventLoopGroup()) {
      Heartbeat beat = new Heartbeat();
      beats.add(beat);
      loop.execute(() -> beat.thread = Thread.currentThread().getName());
      loop.scheduleAtFixedRate(() -> beat.at = System.nanoTime(), 0, periodMs, TimeUnit.MILLISECONDS);
    }
    return beats;
  }

  private static final class Heartbeat {
    private volatile long at = System.nanoTime();
    private volatile String thread = "event-loop";
  }

  /** Ready while {@code state} answers {@code ready=true}; it is evaluated on {@code owner}. */
  public void readyWhen(String name, Context owner, Supplier<JsonObject> state) {
    ready.register(name, CHECK_TIMEOUT_MS, promise -> owner.runOnContext(ignored -> {
      JsonObject data = state.get();
      promise.tryComplete(data.getBoolean("ready", false) ? Status.OK(data) : Status.KO(data));
    }));
  }

  /** Ready while {@code probe} succeeds within {@link #ANSWER_MS}: a check no verticle owns. */
  public void readyWhileAnswering(String name, Supplier<Future<?>> probe) {
    ready.register(name, CHECK_TIMEOUT_MS, promise -> probe.get().timeout(ANSWER_MS, TimeUnit.MILLISECONDS)
      .onSuccess(ok -> promise.tryComplete(Status.OK()))
      .onFailure(err -> promise.tryComplete(Status.KO(new JsonObject().put("error", String.valueOf(err.getMessage()))))));
  }

  /**
   * Ready while the database answers a query on each client within {@link #ANSWER_MS} ({@code postgresql}; by name, e.g. each role's login): a
   * check no verticle owns.
   */
  public void readyWhenPostgresAnswers(Map<String, SqlClient> clients) {
    ready.register("postgresql", CHECK_TIMEOUT_MS, promise -> {
      JsonObject errors = new JsonObject();
      Future.join(clients.entrySet().stream().map(c -> c.getValue().query("SELECT 1").execute()
          .timeout(ANSWER_MS, TimeUnit.MILLISECONDS)
          .onFailure(err -> errors.put(c.getKey(), err.getMessage()))).toList())
        .onComplete(done -> promise.tryComplete(errors.isEmpty() ? Status.OK() : Status.KO(new JsonObject().put("error", errors))));
    });
  }

  /** Whether every readiness check passes now: a consumer asks it to tell a dependency's outage from a bad record. */
  public Future<Boolean> ready() {
    return ready.checkStatus().map(CheckResult::isUp);
  }

  /** The readiness checks: for the management server, and for checks no verticle owns (the database). */
  public HealthChecks readiness() {
    return ready;
  }

  public HealthChecks liveness() {
    return live;
  }

  public void forget(String name) {
    ready.unregister(name);
  }
}
