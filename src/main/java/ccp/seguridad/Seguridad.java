package ccp.seguridad;

import ccp.platform.role.RoleContext;
import io.vertx.core.Future;

/**
 * The {@code seguridad} role (ASR-1, ASR-2): Verificador de dispositivo, Detector de escrituras indebidas, Reacción
 * ante acceso indebido and Notificador a seguridad. Its consumers
 * read single-partition topics, so a second process in the same groups is the standby of the view.
 */
public final class Seguridad {

  private Seguridad() {}

  public static Future<Void> deploy(RoleContext role, SeguridadConfig config) {
    // The Reacción listens before the Detector can ask it.
    return role.deploy(() -> new OrquestadorReaccion(role, config), 1).compose(reaccion -> Future.all(
      role.deploy(() -> new ConsumidorSesiones(role), 1),
      role.deploy(() -> new ConsumidorEscrituras(role, config), 1),
      role.deploy(() -> new ConsumidorAlertas(role, config), 1),
      role.deploy(() -> new ApiSeguridad(role, config.port()), 1)
    )).mapEmpty();
  }
}
