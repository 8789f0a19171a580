package ccp.platform.role;

import ccp.platform.http.JsonBody;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * A service's HiloPeticion (B1): its App routes ({@link AppApi}) behind the App's token check, and the Reacción's
 * compensation (B11) on one internal route that only the seguridad role calls. One instance per event loop: the view's
 * "thread pool 1..P, one order per thread".
 */
public abstract class ServiceRequests extends VerticleBase {

  private static final Pattern MOTIVO = Pattern.compile("[^\\p{Cntrl}]{1,500}");

  protected final RoleContext role;
  private final int port;
  private final String service;
  private final String compensation;
  private AppApi api;

  /** {@code service} is the role called; {@code compensation} the internal path the Reacción calls. */
  protected ServiceRequests(RoleContext role, int port, String service, String compensation) {
    this.role = role;
    this.port = port;
    this.service = service;
    this.compensation = compensation;
  }

  /** Builds the App's routes and what {@link #compensate} needs; runs on this verticle's context. */
  protected abstract AppApi prepare();

  /** B11: compensates an improper write and answers; idempotent, every call answers the one compensation. */
  protected abstract void compensate(RoutingContext ctx);

  /** The compensation's reason, from the request's body: {@code {"motivo": …}}, 1 to 500 printable characters. */
  protected static String motivo(RoutingContext ctx) {
    JsonObject body = JsonBody.object(ctx, Set.of("motivo"));
    return JsonBody.text(body, "motivo", MOTIVO, "1 to 500 printable characters");
  }

  @Override
  public final Future<?> start() {
    api = prepare();
    Router router = role.router(vertx);
    api.doors(router);
    role.guardApp(router);
    api.mount(router);
    // Only the Reacción (role seguridad) compensates (B11).
    role.interno(router, compensation, service, "seguridad").handler(this::compensate);
    return role.listen(vertx, router, port, role.httpInstances());
  }

  @Override
  public final Future<?> stop() {
    return api.close();
  }
}
