package ccp.seguridad;

import ccp.platform.role.RoleContext;
import io.vertx.core.Future;

/**
 * The {@code seguridad} role (ASR-1, ASR-2): Verificador de dispositivo, Detector de escrituras indebidas, Reacción
 * ante acceso indebido and Notificador a seguridad, "1 active + 1 standby" as a whole: they run only in the process
 * that holds the group's leadership ({@link LiderazgoSeguridad}). The security area's API is served by both.
 */
public final class Seguridad {

  private Seguridad() {}

  public static Future<Void> deploy(RoleContext role, SeguridadConfig config) {
    return Future.all(
      role.deploy(() -> new LiderazgoSeguridad(role, config), 1),
      role.deploy(() -> new ApiSeguridad(role, config.port()), 1)
    ).mapEmpty();
  }
}
