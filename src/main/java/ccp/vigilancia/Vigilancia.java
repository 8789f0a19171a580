package ccp.vigilancia;

import ccp.platform.role.RoleContext;
import io.vertx.core.Future;

/** The {@code vigilancia} role (ASR-3, ASR-4): Monitor de la cadena, one leader + one standby. */
public final class Vigilancia {

  private Vigilancia() {}

  public static Future<Void> deploy(RoleContext role, VigilanciaConfig config) {
    return role.deploy(() -> new MonitorCadena(role, config), 1).mapEmpty();
  }
}
