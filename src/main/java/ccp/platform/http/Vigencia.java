package ccp.platform.http;

import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;

/**
 * The checks that let a request's caller in, kept with the request so they can be asked again for as long as its
 * answer lasts: an event stream ({@link EventStream}) outlives the moment its token and the Lista de revocación were read.
 * Each guard that passes a request adds its own check, the same one it made ({@link Tokens#required()}: the token's
 * expiry; the Lista de revocación's handler: revoked, blocked, unknown, another profile); {@link #revisar} asks them
 * in that order. A check runs on the event loop of the request's verticle, as the guard did.
 */
public final class Vigencia {

  /** Why a caller is no longer let in: the status and error its next request would get. */
  public record Rechazo(int status, String error, String message) {}

  /** One guard's check again: null while the caller still passes it. */
  @FunctionalInterface
  public interface Revision {
    Future<Rechazo> revisar();
  }

  private static final String KEY = "ccp.vigencia";

  private Vigencia() {}

  /** Adds {@code revision} after the checks already kept with the request. */
  public static void agregar(RoutingContext ctx, Revision revision) {
    Revision previas = ctx.get(KEY);
    ctx.put(KEY, previas == null ? revision
      : (Revision) () -> previas.revisar().compose(rechazo -> rechazo != null ? Future.succeededFuture(rechazo) : revision.revisar()));
  }

  /** The first check the caller no longer passes, or null; a request no guard passed has nothing to ask. */
  public static Future<Rechazo> revisar(RoutingContext ctx) {
    Revision revision = ctx.get(KEY);
    return revision == null ? Future.succeededFuture() : revision.revisar();
  }
}
