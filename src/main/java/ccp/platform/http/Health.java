package ccp.platform.http;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.healthchecks.HealthChecks;
import io.vertx.ext.healthchecks.Status;
import io.vertx.sqlclient.SqlClient;

import java.util.Map;
import java.util.function.Supplier;

/**
 * The process's liveness and readiness checks. A verticle's check runs on that verticle's own context, so the
 * state it reads stays confined to its event loop.
 */
public final class Health {

  private static final long CHECK_TIMEOUT_MS = 2_000;

  private final HealthChecks live;
  private final HealthChecks ready;

  public Health(Vertx vertx) {
    this.live = HealthChecks.create(vertx);
    this.ready = HealthChecks.create(vertx);
    live.register("event-loop", CHECK_TIMEOUT_MS, promise -> promise.complete(Status.OK()));
  }

  /** Ready while {@code state} answers {@code ready=true}; it is evaluated on {@code owner}. */
  public void readyWhen(String name, Context owner, Supplier<JsonObject> state) {
    ready.register(name, CHECK_TIMEOUT_MS, promise -> owner.runOnContext(ignored -> {
      JsonObject data = state.get();
      promise.complete(data.getBoolean("ready", false) ? Status.OK(data) : Status.KO(data));
    }));
  }

  /**
   * Ready while the database answers a query on each client ({@code postgresql}; by name, e.g. each role's login): a
   * check no verticle owns.
   */
  public void readyWhenPostgresAnswers(Map<String, SqlClient> clients) {
    ready.register("postgresql", CHECK_TIMEOUT_MS, promise -> {
      JsonObject errors = new JsonObject();
      Future.join(clients.entrySet().stream().map(c -> c.getValue().query("SELECT 1").execute()
          .onFailure(err -> errors.put(c.getKey(), err.getMessage()))).toList())
        .onComplete(done -> promise.complete(errors.isEmpty() ? Status.OK() : Status.KO(new JsonObject().put("error", errors))));
    });
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
