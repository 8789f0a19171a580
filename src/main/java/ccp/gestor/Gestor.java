package ccp.gestor;

import ccp.app.AppApi;
import ccp.app.RoleContext;
import io.vertx.core.Future;

/** The {@code gestor} role: Gestor de sesión (ASR-1, ASR-2). */
public final class Gestor {

  private Gestor() {}

  public static AppApi api(RoleContext role) {
    return new ApiSesiones(role);
  }

  public static Future<Void> deploy(RoleContext role) {
    return role.deploy(() -> new HiloPeticion(role), role.httpInstances()).mapEmpty();
  }
}
