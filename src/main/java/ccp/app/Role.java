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
 * The process groups of the view (DESIGN.md §2) that this jar can run. Each connects to PostgreSQL as its own login role
 * (its id, {@code PgRoles}) and migrates, as their owner, the schemas it owns before it starts (Flyway makes a migration
 * run by several processes at once safe).
 */
public enum Role {
  // The gateway owns no schema: it reads the Lista de revocación and the Gestor's actors on every request, granted by
  // their owners' migrations (it is not ready until it can). It serves in-process the App routes of the roles that run
  // beside it, each on that role's own context, and forwards the others.
  GATEWAY(List.of(), Role::gateway, null),
  GESTOR(List.of("gestor"), (c, cfg, contexts) -> Gestor.deploy(c, cfg.gestor()), (c, cfg) -> Gestor.api(c)),
  SEGURIDAD(List.of("seguridad"), (c, cfg, contexts) -> Seguridad.deploy(c, cfg.seguridad()), null),
  PEDIDOS(List.of("pedidos"), (c, cfg, contexts) -> Pedidos.deploy(c, cfg.pedidos()), (c, cfg) -> Pedidos.api(c)),
  CADENA(List.of("cadena"), (c, cfg, contexts) -> Cadena.deploy(c, cfg.cadena()), (c, cfg) -> Cadena.api(c, cfg.cadena())),
  FACTURACION(List.of("facturacion"), (c, cfg, contexts) -> Etapas.facturacion(c, cfg.etapas()), null),
  INVENTARIO(List.of("inventario"), (c, cfg, contexts) -> Etapas.inventario(c, cfg.etapas()), (c, cfg) -> Etapas.apiInventario(c)),
  DESPACHO(List.of("despacho"), (c, cfg, contexts) -> Etapas.despacho(c, cfg.etapas()), null),
  // The Monitor de la cadena reads the chain and writes its signals in the cadena role's schema, as granted there.
  VIGILANCIA(List.of(), (c, cfg, contexts) -> Vigilancia.deploy(c, cfg.vigilancia()), null);

  /** Deploys a role's verticles, from the process's typed settings, beside the roles of {@code contexts} (each one's own). */
  @FunctionalInterface
  interface Deployer {
    Future<Void> deploy(RoleContext context, RoleConfigs configs, Map<Role, RoleContext> contexts);
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

  /** The schemas this role owns and migrates. */
  public List<String> schemas() {
    return schemas;
  }

  Future<Void> deploy(RoleConfigs configs, Map<Role, RoleContext> contexts) {
    return deployer.deploy(contexts.get(this), configs, contexts);
  }

  /**
   * What the role warms before its process says it is ready, once every role of the process has started (so that the
   * warm-up does not compete with their start): the Gestor's session route (warmed before readiness); nothing for the others.
   */
  Future<Void> warmUp(RoleConfigs configs, Map<Role, RoleContext> contexts) {
    return this == GESTOR ? Gestor.warmUp(contexts.get(this), configs.gestor()) : Future.succeededFuture();
  }

  /** Whether the role listens for HTTP (the App's routes, or role-to-role calls): it verifies App tokens then. */
  public boolean servesHttp() {
    return this == GATEWAY || this == GESTOR || this == SEGURIDAD || this == PEDIDOS || this == CADENA || this == INVENTARIO;
  }

  /** Whether other roles call the role's {@code /interno/*} endpoints: it verifies their peer tokens then. */
  public boolean receivesCalls() {
    return this == GESTOR || this == PEDIDOS || this == INVENTARIO;
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

  private static Future<Void> gateway(RoleContext context, RoleConfigs configs, Map<Role, RoleContext> contexts) {
    return Gateway.deploy(context, configs.gateway(), new Gateway.Locales(GESTOR.api(configs, contexts),
      PEDIDOS.api(configs, contexts), CADENA.api(configs, contexts), INVENTARIO.api(configs, contexts)),
      new ListaRevocacion(context.sql(), configs.revocacionLoteMax()));
  }

  /**
   * How a gateway in the same process builds this role's App routes (one per gateway verticle: their state is that
   * verticle's), with this role's own context: what they publish, they publish as this role. Empty when the role runs
   * elsewhere or has none.
   */
  private Optional<Supplier<AppApi>> api(RoleConfigs configs, Map<Role, RoleContext> contexts) {
    RoleContext own = contexts.get(this);
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
