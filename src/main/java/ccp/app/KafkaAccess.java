package ccp.app;

import ccp.cadena.Cadena;
import ccp.cadena.Etapa;
import ccp.platform.config.Settings;
import ccp.platform.kafka.KafkaConfig;
import ccp.platform.kafka.KafkaGrant;
import ccp.seguridad.Seguridad;

import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static ccp.platform.kafka.Topics.ALERTA_SEGURIDAD;
import static ccp.platform.kafka.Topics.CADENA_ESCALADA;
import static ccp.platform.kafka.Topics.COLA_FALLIDOS;
import static ccp.platform.kafka.Topics.COLA_REINTENTOS;
import static ccp.platform.kafka.Topics.ESCRITURA_REALIZADA;
import static ccp.platform.kafka.Topics.ETAPA_COMPLETADA;
import static ccp.platform.kafka.Topics.ETAPA_EJECUTAR;
import static ccp.platform.kafka.Topics.PEDIDO_LISTO;
import static ccp.platform.kafka.Topics.SESION_ABIERTA;

/**
 * The broker's ACL table (DESIGN.md §3 and §10): what each role's principal {@code ccp-<role>} may do, and nothing
 * more. Every role that consumes also writes {@code cola.fallidos}, its dead letters. The gateway has no principal: it
 * never touches the broker. The embedded broker is given exactly these ACLs ({@code BrokerSetup}); Kubernetes' KafkaUsers
 * must say the same (the manifests test checks them against {@link #TABLE}).
 */
public final class KafkaAccess {

  /**
   * Role → its grant: the topics it writes, consumer group → the topic that group reads, the groups and the topics it
   * only describes.
   */
  public static final Map<Role, KafkaGrant> TABLE;

  static {
    Map<Role, KafkaGrant> t = new EnumMap<>(Role.class);
    // The Gestor's session door reads how far behind the Verificador runs (its WRITE implies the topic's DESCRIBE).
    row(t, Role.GESTOR, Set.of(SESION_ABIERTA), Map.of(), Seguridad.colaDelVerificador().keySet());
    row(t, Role.SEGURIDAD, Set.of(ALERTA_SEGURIDAD, COLA_FALLIDOS), Map.of(
      "cola.verificador", SESION_ABIERTA,
      "cola.detector", ESCRITURA_REALIZADA,
      "cola.notificador", ALERTA_SEGURIDAD), Set.of());
    // Pedidos' door reads how far behind the chain's queues run: their groups' offsets against their topics' ends.
    Map<String, String> colas = Cadena.colasDelPedido();
    Set<String> leidas = new TreeSet<>(colas.values());
    leidas.remove(ESCRITURA_REALIZADA);
    row(t, Role.PEDIDOS, Set.of(ESCRITURA_REALIZADA), Map.of(), colas.keySet(), leidas);
    row(t, Role.CADENA, Set.of(ETAPA_EJECUTAR, PEDIDO_LISTO, CADENA_ESCALADA, COLA_FALLIDOS), Map.of(
      "cola.coordinador.escrituras", ESCRITURA_REALIZADA,
      "cola.coordinador", ETAPA_COMPLETADA,
      "cola.reintentos", COLA_REINTENTOS,
      "cola.logistica", PEDIDO_LISTO,
      "cola.bandeja", CADENA_ESCALADA,
      "cola.bandeja.fallidos", COLA_FALLIDOS), Set.of());
    row(t, Role.FACTURACION, Set.of(ETAPA_COMPLETADA, COLA_FALLIDOS), Map.of(Etapa.FACTURACION.cola(), ETAPA_EJECUTAR), Set.of());
    // Inventario's RelevoOutbox publishes the App's stock adjustments (B2), as Pedidos' publishes its orders.
    row(t, Role.INVENTARIO, Set.of(ETAPA_COMPLETADA, COLA_FALLIDOS, ESCRITURA_REALIZADA), Map.of(Etapa.INVENTARIO.cola(), ETAPA_EJECUTAR),
      Set.of());
    row(t, Role.DESPACHO, Set.of(ETAPA_COMPLETADA, COLA_FALLIDOS), Map.of(Etapa.DESPACHO.cola(), ETAPA_EJECUTAR), Set.of());
    // The Monitor's health probe asks whether the stages it watches still have a live consumer.
    row(t, Role.VIGILANCIA, Set.of(COLA_REINTENTOS), Map.of(), Set.of(Etapa.FACTURACION.cola(), Etapa.DESPACHO.cola()));
    TABLE = Collections.unmodifiableMap(t);
  }

  private KafkaAccess() {}

  private static void row(Map<Role, KafkaGrant> table, Role role, Set<String> writes, Map<String, String> consumes,
                          Set<String> watches) {
    row(table, role, writes, consumes, watches, Set.of());
  }

  private static void row(Map<Role, KafkaGrant> table, Role role, Set<String> writes, Map<String, String> consumes,
                          Set<String> watches, Set<String> describes) {
    table.put(role, new KafkaGrant(role.id(), writes, consumes, watches, describes));
  }

  public static Collection<KafkaGrant> grants() {
    return TABLE.values();
  }

  /**
   * The clients of {@code role}, with its own identity; null for a role that has no principal.
   *
   * @throws ccp.platform.config.ConfigException when the role's password is not set
   */
  static KafkaConfig config(Settings settings, Role role) {
    return TABLE.containsKey(role) ? KafkaConfig.of(settings, role.id()) : null;
  }
}
