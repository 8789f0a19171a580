package ccp.k8s;

import ccp.app.Role;
import ccp.cadena.Etapa;
import ccp.platform.kafka.Topics;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * What each role's Kafka principal may do, from DESIGN.md §3 and the code: the topics it publishes to (WRITE), those
 * it consumes (READ) with its consumer groups (READ), and the groups it only inspects (DESCRIBE). Every consumer
 * also writes {@code cola.fallidos}, its dead letters. The gateway touches no topic and has no principal. Keys are
 * {@code TOPIC:<name>} and {@code GROUP:<name>}; operations are Kafka's {@code AclOperation} names.
 */
final class KafkaAclTable {

  private KafkaAclTable() {}

  static Map<Role, Map<String, Set<String>>> expected() {
    Map<Role, Map<String, Set<String>>> table = new EnumMap<>(Role.class);
    table.put(Role.GESTOR, acls(
      topic(Topics.SESION_ABIERTA, "WRITE")));
    table.put(Role.SEGURIDAD, acls(
      topic(Topics.SESION_ABIERTA, "READ"), topic(Topics.ESCRITURA_REALIZADA, "READ"),
      topic(Topics.ALERTA_SEGURIDAD, "READ", "WRITE"), topic(Topics.COLA_FALLIDOS, "WRITE"),
      group("cola.verificador", "READ"), group("cola.detector", "READ"), group("cola.notificador", "READ")));
    table.put(Role.PEDIDOS, acls(
      topic(Topics.ESCRITURA_REALIZADA, "WRITE")));
    table.put(Role.CADENA, acls(
      topic(Topics.ESCRITURA_REALIZADA, "READ"), topic(Topics.ETAPA_COMPLETADA, "READ"),
      topic(Topics.COLA_REINTENTOS, "READ"), topic(Topics.ETAPA_EJECUTAR, "WRITE"),
      topic(Topics.PEDIDO_LISTO, "READ", "WRITE"), topic(Topics.CADENA_ESCALADA, "READ", "WRITE"),
      topic(Topics.COLA_FALLIDOS, "READ", "WRITE"),
      group("cola.coordinador.escrituras", "READ"), group("cola.coordinador", "READ"), group("cola.reintentos", "READ"),
      group("cola.logistica", "READ"), group("cola.bandeja", "READ"), group("cola.bandeja.fallidos", "READ")));
    for (Etapa etapa : Etapa.values()) {
      table.put(Role.valueOf(etapa.name()), acls(
        topic(Topics.ETAPA_EJECUTAR, "READ"), topic(Topics.ETAPA_COMPLETADA, "WRITE"), topic(Topics.COLA_FALLIDOS, "WRITE"),
        group(etapa.cola(), "READ")));
    }
    table.put(Role.VIGILANCIA, acls(
      topic(Topics.COLA_REINTENTOS, "WRITE"),
      group(Etapa.FACTURACION.cola(), "DESCRIBE"), group(Etapa.DESPACHO.cola(), "DESCRIBE")));
    return table;
  }

  private record Acl(String resource, Set<String> operations) {}

  private static Acl topic(String name, String... operations) {
    return new Acl("TOPIC:" + name, Set.of(operations));
  }

  private static Acl group(String name, String... operations) {
    return new Acl("GROUP:" + name, Set.of(operations));
  }

  private static Map<String, Set<String>> acls(Acl... acls) {
    Map<String, Set<String>> map = new LinkedHashMap<>();
    for (Acl acl : acls) map.put(acl.resource(), acl.operations());
    return map;
  }
}
