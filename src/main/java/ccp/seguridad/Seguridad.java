package ccp.seguridad;

import ccp.platform.config.ConfigException;
import ccp.platform.kafka.Topics;
import ccp.platform.role.RoleContext;
import ccp.seguridad.ssf.FirmaSet;
import io.vertx.core.Future;

import java.util.Map;

/**
 * The {@code seguridad} role (ASR-1, ASR-2): Verificador de dispositivo, Detector de escrituras indebidas, Reacción
 * ante acceso indebido and Notificador a seguridad — with its Shared Signals transmitter (RepartidorSet pushes) — "1
 * active + 1 standby" as a whole: they run only in the process that holds the group's leadership
 * ({@link LiderazgoSeguridad}). The security area's API, with the Shared Signals management and receiver, is served by
 * both.
 */
public final class Seguridad {

  private Seguridad() {}

  /**
   * The Verificador de dispositivo's queue, consumer group → the topic it reads: the Gestor's session door watches how
   * far behind it runs, since a session's alert (ASR-1) waits in it.
   */
  public static Map<String, String> colaDelVerificador() {
    return Map.of(ConsumidorSesiones.COLA, Topics.SESION_ABIERTA);
  }

  /** Fails with a {@link ConfigException} when the transmitter has no signing key ({@code ssf.private-key}). */
  public static Future<Void> deploy(RoleContext role, SeguridadConfig config) {
    FirmaSet firma;
    try {
      firma = FirmaSet.of(config.ssf().privateKey());
    } catch (ConfigException e) {
      return Future.failedFuture(e);
    }
    return Future.all(
      role.deploy(() -> new LiderazgoSeguridad(role, config, firma), 1),
      role.deploy(() -> new ApiSeguridad(role, config, firma), 1)
    ).mapEmpty();
  }
}
