package ccp.platform.http;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;

import java.util.Optional;

/**
 * The App's {@code Idempotency-Key} on a write (Pedidos' orders, Inventario's adjustments): the key's row is written in
 * the same statement as the write, so a retry finds the first answer stored, and the same key with another body is a
 * conflict. Each service keeps its keys in its own schema; the rules and the answers are these.
 */
public final class Idempotencia {

  /** The stored first answer for a key, with the hash of the body it was given for. */
  public record Respuesta(int status, JsonObject body, String resumenCuerpo) {}

  /** The key was taken before; nothing of this attempt was written. */
  public static final class ClaveUsada extends RuntimeException {
    public ClaveUsada() {
      super(null, null, false, false);
    }
  }

  /** How a service answers with a write's body (a created one also says where to read it). */
  @FunctionalInterface
  public interface Responder {
    void send(RoutingContext ctx, int status, JsonObject body);
  }

  private Idempotencia() {}

  /** The request's key, or null without one (its shape is the contract's: {@code Idempotency-Key}). */
  public static String clave(RoutingContext ctx) {
    return ctx.request().getHeader("Idempotency-Key");
  }

  /** The stored answer a {@code SELECT huella_cuerpo, estado_http, respuesta} read, if any (the column holds the body's hash). */
  public static Optional<Respuesta> respuesta(RowSet<Row> rows) {
    if (rows.size() == 0) return Optional.empty();
    Row row = rows.iterator().next();
    return Optional.of(new Respuesta(row.getInteger("estado_http"), row.getJsonObject("respuesta"), row.getString("huella_cuerpo")));
  }

  /** A retry answers what the first attempt answered; the same key with another body is a conflict. */
  public static void repetido(RoutingContext ctx, Future<Optional<Respuesta>> guardada, String clave, String resumenCuerpo,
                              Responder responder) {
    guardada.onSuccess(respuesta -> {
      if (respuesta.isEmpty()) {
        ctx.fail(new IllegalStateException("Idempotency-Key " + clave + " taken but not found"));
      } else if (!respuesta.get().resumenCuerpo().equals(resumenCuerpo)) {
        ApiErrors.send(ctx, 409, "idempotency_key_reused", "Idempotency-Key " + clave + " was used with a different body");
      } else {
        responder.send(ctx, respuesta.get().status(), respuesta.get().body());
      }
    }).onFailure(ctx::fail);
  }
}
