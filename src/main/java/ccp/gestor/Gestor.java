package ccp.gestor;

import ccp.platform.role.AppApi;
import ccp.platform.role.RoleContext;
import io.vertx.core.Future;

/** The {@code gestor} role: Gestor de sesión (ASR-1, ASR-2). */
public final class Gestor {

  private Gestor() {}

  public static AppApi api(RoleContext role) {
    return new ApiSesiones(role);
  }

  public static Future<Void> deploy(RoleContext role, GestorConfig config) {
    return role.deploy(() -> new HiloPeticion(role, config.port()), role.httpInstances()).mapEmpty();
  }

  /** Warms the session route before the process says it is ready ({@link WarmUp}); once every role of it has started. */
  public static Future<Void> warmUp(RoleContext role, GestorConfig config) {
    return WarmUp.run(role, config.port(), config.warmUpMs());
  }
}
