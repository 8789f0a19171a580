package ccp.cadena;

import ccp.app.RoleContext;
import io.vertx.core.Future;

/**
 * The {@code cadena} role (cadena-pedido, etapas; ASR-3, ASR-4). So far the Coordinador's ControladorCadena, which
 * starts each order's chain; the stages, the Coordinador's confirmations, Reanudador and Bandeja follow (issue 4).
 */
public final class Cadena {

  private Cadena() {}

  public static Future<Void> deploy(RoleContext role) {
    return role.deploy(() -> new ControladorCadena(role), 1).mapEmpty();
  }
}
