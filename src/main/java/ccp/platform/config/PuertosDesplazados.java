package ccp.platform.config;

import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The all-in-one's ports moved together ({@code ports.offset}), and the addresses that follow them. Every port this
 * process listens on or starts something on is its default plus the offset, unless set itself in the environment; a
 * role's URL and {@code ssf.issuer} that point, in the defaults, at the loopback port of their role follow that port
 * (moved, or set), unless set themselves. So a second all-in-one started with an offset forwards to its own roles,
 * never to whatever else listens on 8081–8085. A URL the defaults point elsewhere (a cluster's service names) stays.
 */
final class PuertosDesplazados {

  static final String OFFSET = "ports.offset";

  /** The ports an all-in-one opens; not {@code pg.port}, which is an external PostgreSQL's. */
  static final List<String> PUERTOS = List.of("management.port", "gateway.port", "gestor.port", "seguridad.port",
    "pedidos.port", "cadena.port", "inventario.port", "infra.kafka-port", "infra.pg-port", "infra.issuer-port");

  /** Each address that follows a port, with that port. */
  private static final Map<String, String> SIGUEN = Map.of("gestor.url", "gestor.port", "seguridad.url", "seguridad.port",
    "pedidos.url", "pedidos.port", "cadena.url", "cadena.port", "inventario.url", "inventario.port",
    "ssf.issuer", "gateway.port");

  private PuertosDesplazados() {}

  /** {@code merged} (defaults overlaid with the environment) with the offset and the addresses applied. */
  static void aplicar(JsonObject defaults, Set<String> delEntorno, JsonObject merged) {
    if (!(merged.getValue(OFFSET) instanceof Integer offset)) return;
    for (String key : PUERTOS) {
      if (delEntorno.contains(key) || !(merged.getValue(key) instanceof Integer port) || port == 0) continue;
      if (port + offset > 65535) throw new ConfigException(OFFSET + "=" + offset + " moves " + key + " (" + port + ") past 65535");
      merged.put(key, port + offset);
    }
    SIGUEN.forEach((url, puerto) -> {
      if (delEntorno.contains(url) || !(merged.getValue(puerto) instanceof Integer port) || port == 0) return;
      if (loopback(defaults.getValue(puerto)).equals(defaults.getValue(url))) merged.put(url, loopback(port));
    });
  }

  private static String loopback(Object port) {
    return "http://127.0.0.1:" + port;
  }
}
