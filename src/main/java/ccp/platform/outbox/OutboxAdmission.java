package ccp.platform.outbox;

import ccp.platform.http.ApiErrors;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * The door of a service's App writes, behind its relay: refuses a write (503 {@code overloaded}, {@code Retry-After})
 * while the oldest row of its outbox waiting for a relay has waited longer than {@code outbox.admission-max-age-ms}, as
 * the relay of this process last said (a row a dead relay had claimed waits from its claim's expiry). An accepted write is then published within about that bound, so the Detector sees an improper
 * one in time (B2–B3), and the chain starts. A reading older than a few of the relay's periods (its process has no
 * relay, or it stopped) refuses nothing. Its state is the mounting verticle's own: create it in that verticle's start.
 */
public final class OutboxAdmission implements Handler<RoutingContext> {

  /** Readings older than this are ignored. */
  private static final long STALE_MS = 4 * RelevoOutbox.BACKLOG_EVERY_MS;

  private final MessageConsumer<JsonObject> lecturas;
  private final String schema;
  private long edadMs;
  private long maxMs = Long.MAX_VALUE;
  private long leidaEn;

  public OutboxAdmission(Vertx vertx, Outbox outbox) {
    this.schema = outbox.schema();
    this.lecturas = vertx.eventBus().localConsumer(outbox.backlogAddress(), message -> {
      edadMs = message.body().getLong("edad_ms");
      maxMs = message.body().getLong("max_ms");
      leidaEn = System.nanoTime();
    });
  }

  @Override
  public void handle(RoutingContext ctx) {
    boolean vigente = System.nanoTime() - leidaEn < STALE_MS * 1_000_000;
    if (vigente && edadMs > maxMs) {
      ctx.response().putHeader("Retry-After", "1");
      ApiErrors.send(ctx, 503, "overloaded", "the " + schema + " writes wait " + edadMs
        + " ms to be published, over the bound of " + maxMs + " ms; retry");
      return;
    }
    ctx.next();
  }

  public Future<Void> close() {
    return lecturas.unregister();
  }
}
