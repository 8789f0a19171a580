package ccp.cadena;

import ccp.app.RoleContext;
import io.vertx.core.Future;

/**
 * The {@code cadena} role (cadena-pedido, etapas; ASR-3, ASR-4): the Coordinador (ControladorCadena, ConsumidorMensajes
 * with OrquestadorCadena and PublicadorComandos), the Reanudador and Logística. The stages run as their own roles; the
 * Bandeja follows (issue 4).
 */
public final class Cadena {

  private Cadena() {}

  public static Future<Void> deploy(RoleContext role) {
    return Future.all(
      role.deploy(() -> new ControladorCadena(role), 1),
      role.deploy(() -> new ConsumidorMensajes(role), 1),
      role.deploy(() -> new Reanudador(role), 1),
      role.deploy(() -> new Logistica(role), 1)
    ).mapEmpty();
  }
}
