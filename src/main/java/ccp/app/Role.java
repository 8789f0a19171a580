package ccp.app;

import ccp.cadena.Cadena;
import ccp.etapas.ConsumidorEtapa;
import ccp.gateway.Gateway;
import ccp.gestor.Gestor;
import ccp.pedidos.Pedidos;
import ccp.vigilancia.Vigilancia;
import ccp.platform.config.ConfigException;
import ccp.seguridad.Seguridad;
import io.vertx.core.Future;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The process groups of the view (DESIGN.md §2) that this jar can run, each with the schemas it needs migrated
 * before it starts (Flyway makes a migration run by several processes at once safe).
 */
public enum Role {
  // The gateway reads the Lista de revocación and the Gestor's block on every request: it needs those tables.
  GATEWAY(List.of("gestor", "seguridad"), Gateway::deploy, null),
  GESTOR(List.of("gestor"), Gestor::deploy, Gestor::api),
  SEGURIDAD(List.of("seguridad"), Seguridad::deploy, null),
  PEDIDOS(List.of("pedidos"), Pedidos::deploy, Pedidos::api),
  CADENA(List.of("cadena"), Cadena::deploy, Cadena::api),
  FACTURACION(List.of("facturacion"), r -> r.deploy(() -> ConsumidorEtapa.facturacion(r), 1).mapEmpty(), null),
  INVENTARIO(List.of("inventario"), r -> r.deploy(() -> ConsumidorEtapa.inventario(r), 1).mapEmpty(), null),
  DESPACHO(List.of("despacho"), r -> r.deploy(() -> ConsumidorEtapa.despacho(r), 1).mapEmpty(), null),
  VIGILANCIA(List.of("cadena"), Vigilancia::deploy, null);

  private final List<String> schemas;
  private final Function<RoleContext, Future<Void>> deployer;
  private final Function<RoleContext, AppApi> api;

  Role(List<String> schemas, Function<RoleContext, Future<Void>> deployer, Function<RoleContext, AppApi> api) {
    this.schemas = schemas;
    this.deployer = deployer;
    this.api = api;
  }

  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }

  public List<String> schemas() {
    return schemas;
  }

  Future<Void> deploy(RoleContext context) {
    return deployer.apply(context);
  }

  /**
   * Whether the role can serve while the broker is away: the gateway never publishes, and pedidos writes its events
   * to its outbox, which the relay sends when the broker is back. Every other role publishes on its request path or
   * consumes, so its readiness follows the broker.
   */
  public boolean servesWithoutBroker() {
    return this == GATEWAY || this == PEDIDOS;
  }

  /** The role's App routes, for a gateway that runs in the same process; empty when it has none to share. */
  public Optional<AppApi> api(RoleContext context) {
    return context.roles().contains(this) && api != null ? Optional.of(api.apply(context)) : Optional.empty();
  }

  /** Parses {@code all} or a comma list such as {@code gestor,seguridad}. */
  public static Set<Role> parse(String list) {
    Set<Role> roles = EnumSet.noneOf(Role.class);
    for (String raw : list.split(",")) {
      String id = raw.trim().toLowerCase(Locale.ROOT);
      if (id.equals(InfraProcess.ROLE)) {
        throw new ConfigException("role 'infra' runs alone: --role=infra (the embedded Kafka and PostgreSQL for other processes)");
      }
      if (id.equals("all")) {
        roles.addAll(EnumSet.allOf(Role.class));
        continue;
      }
      roles.add(Arrays.stream(values()).filter(r -> r.id().equals(id)).findFirst()
        .orElseThrow(() -> new ConfigException("unknown role '" + raw.trim() + "' (valid: " + valid() + ")")));
    }
    return roles;
  }

  public static String valid() {
    return "all, " + InfraProcess.ROLE + ", " + Arrays.stream(values()).map(Role::id).collect(Collectors.joining(", "));
  }
}
