package ccp.vigilancia;

import ccp.app.RoleContext;
import io.vertx.core.Future;

/** The {@code vigilancia} role (ASR-3, ASR-4): Monitor de la cadena, one leader + one standby. */
public final class Vigilancia {

  private Vigilancia() {}

  public static Future<Void> deploy(RoleContext role) {
    return role.deploy(() -> new MonitorCadena(role), 1).mapEmpty();
  }
}
