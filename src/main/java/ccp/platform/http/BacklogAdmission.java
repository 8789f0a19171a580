package ccp.platform.http;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * A door that refuses writes (503 {@code overloaded}, {@code Retry-After}) while the work behind it runs late: a
 * verticle of the process that measures a backlog publishes its readings ({@link #reading}) on a local event-bus
 * address, and a write is refused while the last one says the backlog has waited past its bound. What is accepted is
 * then done within about that bound, instead of queueing behind what cannot be done in time. A reading older than its
 * own validity refuses nothing: the measuring verticle stopped or could not measure, and a door that refused on its
 * last word would stay shut. Its state is the mounting verticle's own: create it in that verticle's start.
 */
public final class BacklogAdmission implements Handler<RoutingContext> {

  private final MessageConsumer<JsonObject> lecturas;
  private JsonObject ultima;
  private long leidaEn;

  public BacklogAdmission(Vertx vertx, String address) {
    this.lecturas = vertx.eventBus().localConsumer(address, message -> {
      ultima = message.body();
      leidaEn = System.nanoTime();
    });
  }

  /**
   * A reading: the backlog has waited {@code esperaMs}, against a bound of {@code maxMs}; valid for {@code validaMs};
   * {@code que} says what waits, as the refusal tells the client ("the pedidos writes wait 1200 ms to be published").
   */
  public static JsonObject reading(String que, long esperaMs, long maxMs, long validaMs) {
    return new JsonObject().put("que", que).put("espera_ms", esperaMs).put("max_ms", maxMs).put("valida_ms", validaMs);
  }

  /**
   * True at a reading on {@code address} within its bound, the first one excepted (it may have been measured before
   * the call); false after {@code timeoutMs} without one. Never fails: what waits on it would only start later.
   */
  public static Future<Boolean> within(Vertx vertx, String address, long timeoutMs) {
    Promise<Boolean> done = Promise.promise();
    MessageConsumer<JsonObject> lecturas = vertx.eventBus().localConsumer(address);
    long timer = vertx.setTimer(timeoutMs, id -> done.tryComplete(false));
    boolean[] primera = {true};
    lecturas.handler(message -> {
      boolean dentro = message.body().getLong("espera_ms") <= message.body().getLong("max_ms");
      if (!primera[0] && dentro) done.tryComplete(true);
      primera[0] = false;
    });
    return done.future().compose(alDia -> {
      vertx.cancelTimer(timer);
      return lecturas.unregister().map(alDia);
    });
  }

  @Override
  public void handle(RoutingContext ctx) {
    JsonObject lectura = ultima;
    if (lectura != null && System.nanoTime() - leidaEn < lectura.getLong("valida_ms") * 1_000_000
        && lectura.getLong("espera_ms") > lectura.getLong("max_ms")) {
      ctx.response().putHeader("Retry-After", "1");
      ApiErrors.send(ctx, 503, "overloaded", lectura.getString("que") + ", over the bound of " + lectura.getLong("max_ms")
        + " ms; retry");
      return;
    }
    ctx.next();
  }

  public Future<Void> close() {
    return lecturas.unregister();
  }
}
