package ccp.gateway;

import ccp.app.RoleContext;
import ccp.seguridad.ListaRevocacion;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.healthchecks.Status;


/** The {@code gateway} role: API Gateway ×2 in the view, the App's only door. */
public final class Gateway {

  private Gateway() {}

  public static Future<Void> deploy(RoleContext role) {
    Timer revision = ListaRevocacion.timer(role.registry());
    ListaRevocacion lista = new ListaRevocacion(role.sql(), role.settings().integer("revocacion.lote-max"));
    // Ready only when the list (migrated by the seguridad and gestor roles) can be read.
    role.health().readiness().register("lista-revocacion", 2_000, promise -> lista.estado("readiness-probe")
      .onSuccess(ok -> promise.complete(Status.OK()))
      .onFailure(err -> promise.complete(Status.KO(new JsonObject().put("error", err.getMessage())))));
    return role.deploy(() -> new HiloPeticion(role, revision), role.httpInstances()).mapEmpty();
  }
}
