package ccp.app;

import ccp.cadena.Cadena;
import ccp.etapas.Etapas;
import ccp.gateway.Gateway;
import ccp.gestor.Gestor;
import ccp.pedidos.Pedidos;
import ccp.platform.config.ConfigException;
import ccp.platform.role.AppApi;
import ccp.platform.role.RoleContext;
import ccp.seguridad.ListaRevocacion;
import ccp.seguridad.Seguridad;
import ccp.vigilancia.Vigilancia;
import io.vertx.core.Future;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The process groups of the view (DESIGN.md §2) that this jar can run, each with the schemas it needs migrated
 * before it starts (Flyway makes a migration run by several processes at once safe).
 */
public enum Role {
  // The gateway reads the Lista de revocación and the Gestor's block on every request: it needs those tables. It serves
  // in-process the App routes of the roles that run beside it, and forwards the others.
  GATEWAY(List.of("gestor", "seguridad"), Role::gateway, null),
  GESTOR(List.of("gestor"), (c, cfg, local) -> Gestor.deploy(c, cfg.gestor()), (c, cfg) -> Gestor.api(c)),
  SEGURIDAD(List.of("seguridad"), (c, cfg, local) -> Seguridad.deploy(c, cfg.seguridad()), null),
  PEDIDOS(List.of("pedidos"), (c, cfg, local) -> Pedidos.deploy(c, cfg.pedidos()), (c, cfg) -> Pedidos.api(c)),
  CADENA(List.of("cadena"), (c, cfg, local) -> Cadena.deploy(c, cfg.cadena()), (c, cfg) -> Cadena.api(c, cfg.cadena())),
  FACTURACION(List.of("facturacion"), (c, cfg, local) -> Etapas.facturacion(c, cfg.etapas()), null),
  INVENTARIO(List.of("inventario"), (c, cfg, local) -> Etapas.inventario(c, cfg.etapas()), null),
  DESPACHO(List.of("despacho"), (c, cfg, local) -> Etapas.despacho(c, cfg.etapas()), null),
  VIGILANCIA(List.of("cadena"), (c, cfg, local) -> Vigilancia.deploy(c, cfg.vigilancia()), null);

  /**
   * Deploys a role's verticles with its own context, from the process's typed settings, in a process that runs the
   * roles of {@code local}, each with its own context.
   */
  @FunctionalInterface
  interface Deployer {
    Future<Void> deploy(RoleContext context, RoleConfigs configs, Map<Role, RoleContext> local);
  }

  private final List<String> schemas;
  private final Deployer deployer;
  private final BiFunction<RoleContext, RoleConfigs, AppApi> api;

  Role(List<String> schemas, Deployer deployer, BiFunction<RoleContext, RoleConfigs, AppApi> api) {
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

  Future<Void> deploy(RoleConfigs configs, Map<Role, RoleContext> local) {
    return deployer.deploy(local.get(this), configs, local);
  }

  /** Whether the role listens for HTTP (the App's routes, or role-to-role calls): it verifies App tokens then. */
  public boolean servesHttp() {
    return this == GATEWAY || this == GESTOR || this == SEGURIDAD || this == PEDIDOS || this == CADENA;
  }

  /** Whether other roles call the role's {@code /interno/*} endpoints: it verifies their peer tokens then. */
  public boolean receivesCalls() {
    return this == GESTOR || this == PEDIDOS;
  }

  /** Whether the role calls others (the Detector and the Reacción): it signs with its own peer key then. */
  public boolean callsRoles() {
    return this == SEGURIDAD;
  }

  /**
   * Whether the role can serve while the broker is away: the gateway never publishes, and pedidos writes its events
   * to its outbox, which the relay sends when the broker is back. Every other role publishes on its request path or
   * consumes, so its readiness follows the broker.
   */
  public boolean servesWithoutBroker() {
    return this == GATEWAY || this == PEDIDOS;
  }

  private static Future<Void> gateway(RoleContext context, RoleConfigs configs, Map<Role, RoleContext> local) {
    return Gateway.deploy(context, configs.gateway(), new Gateway.Locales(GESTOR.api(configs, local),
      PEDIDOS.api(configs, local), CADENA.api(configs, local)),
      new ListaRevocacion(context.sql(), configs.revocacionLoteMax()));
  }

  /**
   * How a gateway in the same process builds this role's App routes (one per gateway verticle: their state is that
   * verticle's), with this role's own context: what they publish, they publish as this role. Empty when the role runs
   * elsewhere or has none.
   */
  private Optional<Supplier<AppApi>> api(RoleConfigs configs, Map<Role, RoleContext> local) {
    RoleContext own = local.get(this);
    return own != null && api != null ? Optional.of(() -> api.apply(own, configs)) : Optional.empty();
  }

  /** Parses {@code all} or a comma list such as {@code gestor,seguridad}. */
  public static Set<Role> parse(String list) {
    Set<Role> roles = EnumSet.noneOf(Role.class);
    for (String raw : list.split(",")) {
      String id = raw.trim().toLowerCase(Locale.ROOT);
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
    return "all, " + Arrays.stream(values()).map(Role::id).collect(Collectors.joining(", "));
  }
}
