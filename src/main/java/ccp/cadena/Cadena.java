package ccp.cadena;

import ccp.platform.role.AppApi;
import ccp.platform.role.RoleContext;
import io.vertx.core.Future;
import io.vertx.sqlclient.SqlClient;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static ccp.platform.kafka.Topics.ESCRITURA_REALIZADA;
import static ccp.platform.kafka.Topics.ETAPA_COMPLETADA;
import static ccp.platform.kafka.Topics.ETAPA_EJECUTAR;
import static ccp.platform.kafka.Topics.PEDIDO_LISTO;

/**
 * The {@code cadena} role (cadena-pedido, etapas; ASR-3, ASR-4): the Coordinador (ControladorCadena, ConsumidorMensajes
 * with OrquestadorCadena and PublicadorComandos), the Reanudador, the Bandeja (its consumers and its port) and
 * Logística (its consumer and its list of finished orders, on the same port). The stages run as their own roles.
 */
public final class Cadena {

  private Cadena() {}

  /** The role's App routes: the Bandeja's and Logística's, for the person responsible for escalated orders. */
  public static AppApi api(RoleContext role, CadenaConfig config) {
    return AppApi.all(new ApiBandeja(role, config.esperaReintentoMs()), new ApiLogistica(role));
  }

  /** An order's chain for Pedidos' read of the order, with Pedidos' own login (granted {@code lector_cadena}). */
  public static CadenaDePedido cadenaDePedido(SqlClient sql) {
    return new RepositorioCadenaDePedido(sql);
  }

  /** The Monitor de la cadena's (vigilancia) only way into the chain's state: RegistroSenales (R1–R5). */
  public static RegistroSenales registroSenales(SqlClient sql) {
    return new RepositorioSenales(sql);
  }

  /**
   * The queues an order passes through once Pedidos' relay has published it, consumer group → the topic it reads: the
   * Coordinador's two, each stage's and Logística's. Pedidos' door watches how far behind they run.
   */
  public static Map<String, String> colasDelPedido() {
    Map<String, String> colas = new LinkedHashMap<>();
    colas.put(ControladorCadena.COLA, ESCRITURA_REALIZADA);
    colas.put(ConsumidorMensajes.COLA, ETAPA_COMPLETADA);
    for (Etapa etapa : Etapa.values()) colas.put(etapa.cola(), ETAPA_EJECUTAR);
    colas.put(Logistica.COLA, PEDIDO_LISTO);
    return colas;
  }

  public static Future<Void> deploy(RoleContext role, CadenaConfig config) {
    return Future.all(List.of(
      role.deploy(() -> new ControladorCadena(role, config), 1),
      role.deploy(() -> new ConsumidorMensajes(role, config), 1),
      role.deploy(() -> new Reanudador(role, config), 1),
      role.deploy(() -> ConsumidorBandeja.escaladas(role, config), 1),
      role.deploy(() -> ConsumidorBandeja.fallidos(role, config), 1),
      role.deploy(() -> new ServidorBandeja(role, config), 1),
      role.deploy(() -> new Logistica(role, config.loteMax()), 1)
    )).mapEmpty();
  }
}
