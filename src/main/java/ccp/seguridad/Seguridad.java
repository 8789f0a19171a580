package ccp.seguridad;

import ccp.platform.config.ConfigException;
import ccp.platform.role.RoleContext;
import ccp.seguridad.ssf.FirmaSet;
import ccp.seguridad.ssf.RepartidorSet;
import io.vertx.core.Future;

/**
 * The {@code seguridad} role (ASR-1, ASR-2): Verificador de dispositivo, Detector de escrituras indebidas, Reacción
 * ante acceso indebido and Notificador a seguridad — with its Shared Signals transmitter (RepartidorSet pushes) and
 * receiver. Its consumers read single-partition topics, so a second process in the same groups is the standby of the view.
 */
public final class Seguridad {

  private Seguridad() {}

  /** Fails with a {@link ConfigException} when the transmitter has no signing key ({@code ssf.private-key}). */
  public static Future<Void> deploy(RoleContext role, SeguridadConfig config) {
    FirmaSet firma;
    try {
      firma = FirmaSet.of(config.ssf().privateKey());
    } catch (ConfigException e) {
      return Future.failedFuture(e);
    }
    // The Reacción listens before the Detector can ask it.
    return role.deploy(() -> new OrquestadorReaccion(role, config), 1).compose(reaccion -> Future.all(
      role.deploy(() -> new ConsumidorSesiones(role), 1),
      role.deploy(() -> new ConsumidorEscrituras(role, config), 1),
      role.deploy(() -> new ConsumidorAlertas(role, config, firma), 1),
      role.deploy(() -> new RepartidorSet(role.sql(), config.ssf(), role.registry()), 1),
      role.deploy(() -> new ApiSeguridad(role, config, firma), 1)
    )).mapEmpty();
  }
}
