package ccp.gestor;

import ccp.platform.http.BacklogAdmission;
import ccp.platform.role.AppApi;
import ccp.platform.role.RoleContext;
import ccp.seguridad.Seguridad;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code gestor} role: Gestor de sesión (ASR-1, ASR-2); and the reading of how far behind the Verificador de
 * dispositivo runs, by which the session door refuses new sessions while the Verificador's queue keeps a session
 * waiting past {@code gestor.admission-max-verificador-lag-ms}: a session accepted then would have its device checked,
 * and its alert raised, only after that wait (ASR-1).
 */
public final class Gestor {

  private static final Logger LOG = LoggerFactory.getLogger(Gestor.class);

  /** Where the Verificador's lag is told to the door. */
  static final String RETRASO_VERIFICADOR = "ccp.gestor.retraso-verificador";
  private static final long AL_DIA_MS = 10_000;

  private Gestor() {}

  public static AppApi api(RoleContext role) {
    return new ApiSesiones(role);
  }

  public static Future<Void> deploy(RoleContext role, GestorConfig config) {
    return Future.all(
      role.deploy(() -> new HiloPeticion(role, config.port()), role.httpInstances()),
      role.deployLagFeed(RETRASO_VERIFICADOR, "the Verificador's queue", Seguridad.colaDelVerificador(),
        config.maxRetrasoVerificadorMs())
    ).mapEmpty();
  }

  /**
   * Warms the session route before the process says it is ready ({@link WarmUp}); once every role of it has started.
   * Then waits, at most {@value #AL_DIA_MS} ms, for a reading of the Verificador's queue, measured after the warm-up,
   * within the door's bound: until then the door would refuse the first App sessions.
   */
  public static Future<Void> warmUp(RoleContext role, GestorConfig config) {
    Future<Void> warm = WarmUp.run(role, config.port(), config.warmUpMs());
    if (config.warmUpMs() <= 0 || config.maxRetrasoVerificadorMs() == 0) return warm;
    return warm.compose(x -> {
      long desde = System.nanoTime();
      return BacklogAdmission.within(role.vertx(), RETRASO_VERIFICADOR, AL_DIA_MS).map(alDia -> {
        if (alDia) LOG.info("The Verificador checked the warm-up's sessions {} ms after it", (System.nanoTime() - desde) / 1_000_000);
        else LOG.warn("The Verificador still runs behind the warm-up's sessions {} ms after it; ready all the same", AL_DIA_MS);
        return null;
      });
    });
  }
}
