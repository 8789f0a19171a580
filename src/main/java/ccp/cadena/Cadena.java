package ccp.cadena;

import ccp.platform.role.AppApi;
import ccp.platform.role.RoleContext;
import io.vertx.core.Future;
import io.vertx.sqlclient.SqlClient;

import java.util.List;

/**
 * The {@code cadena} role (cadena-pedido, etapas; ASR-3, ASR-4): the Coordinador (ControladorCadena, ConsumidorMensajes
 * with OrquestadorCadena and PublicadorComandos), the Reanudador, the Bandeja (its consumers and its port) and
 * Logística. The stages run as their own roles.
 */
public final class Cadena {

  private Cadena() {}

  public static AppApi api(RoleContext role, CadenaConfig config) {
    return new ApiBandeja(role, config.esperaReintentoMs());
  }

  /** The Monitor de la cadena's (vigilancia) only way into the chain's state: RegistroSenales (R1–R5). */
  public static RegistroSenales registroSenales(SqlClient sql) {
    return new RepositorioCadena(sql);
  }

  public static Future<Void> deploy(RoleContext role, CadenaConfig config) {
    return Future.all(List.of(
      role.deploy(() -> new ControladorCadena(role, config), 1),
      role.deploy(() -> new ConsumidorMensajes(role, config), 1),
      role.deploy(() -> new Reanudador(role, config), 1),
      role.deploy(() -> ConsumidorBandeja.escaladas(role), 1),
      role.deploy(() -> ConsumidorBandeja.fallidos(role), 1),
      role.deploy(() -> new ServidorBandeja(role, config), 1),
      role.deploy(() -> new Logistica(role, config.loteMax()), 1)
    )).mapEmpty();
  }
}
