package ccp.app;

import ccp.cadena.Cadena;
import ccp.cadena.CadenaConfig;
import ccp.etapas.Etapas;
import ccp.etapas.EtapasConfig;
import ccp.gateway.Gateway;
import ccp.gateway.GatewayConfig;
import ccp.gestor.Gestor;
import ccp.gestor.GestorConfig;
import ccp.pedidos.Pedidos;
import ccp.pedidos.PedidosConfig;
import ccp.vigilancia.Vigilancia;
import ccp.vigilancia.VigilanciaConfig;
import ccp.platform.config.ConfigException;
import ccp.platform.config.Settings;
import ccp.platform.role.AppApi;
import ccp.platform.role.RoleContext;
import ccp.seguridad.Seguridad;
import ccp.seguridad.SeguridadConfig;
import io.vertx.core.Future;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
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
  GESTOR(List.of("gestor"), (c, s, roles) -> Gestor.deploy(c, GestorConfig.from(s)), (c, s) -> Gestor.api(c)),
  SEGURIDAD(List.of("seguridad"), (c, s, roles) -> Seguridad.deploy(c, SeguridadConfig.from(s)), null),
  PEDIDOS(List.of("pedidos"), (c, s, roles) -> Pedidos.deploy(c, PedidosConfig.from(s)), (c, s) -> Pedidos.api(c)),
  CADENA(List.of("cadena"), (c, s, roles) -> Cadena.deploy(c, CadenaConfig.from(s)), (c, s) -> Cadena.api(c, CadenaConfig.from(s))),
  FACTURACION(List.of("facturacion"), (c, s, roles) -> Etapas.facturacion(c, EtapasConfig.from(s)), null),
  INVENTARIO(List.of("inventario"), (c, s, roles) -> Etapas.inventario(c, EtapasConfig.from(s)), null),
  DESPACHO(List.of("despacho"), (c, s, roles) -> Etapas.despacho(c, EtapasConfig.from(s)), null),
  VIGILANCIA(List.of("cadena"), (c, s, roles) -> Vigilancia.deploy(c, VigilanciaConfig.from(s)), null);

  /** Deploys a role's verticles in a process that runs {@code roles}, from its validated settings. */
  @FunctionalInterface
  interface Deployer {
    Future<Void> deploy(RoleContext context, Settings settings, Set<Role> roles);
  }

  private final List<String> schemas;
  private final Deployer deployer;
  private final BiFunction<RoleContext, Settings, AppApi> api;

  Role(List<String> schemas, Deployer deployer, BiFunction<RoleContext, Settings, AppApi> api) {
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

  Future<Void> deploy(RoleContext context, Settings settings, Set<Role> roles) {
    return deployer.deploy(context, settings, roles);
  }

  /**
   * Whether the role can serve while the broker is away: the gateway never publishes, and pedidos writes its events
   * to its outbox, which the relay sends when the broker is back. Every other role publishes on its request path or
   * consumes, so its readiness follows the broker.
   */
  public boolean servesWithoutBroker() {
    return this == GATEWAY || this == PEDIDOS;
  }

  private static Future<Void> gateway(RoleContext context, Settings settings, Set<Role> roles) {
    return Gateway.deploy(context, GatewayConfig.from(settings), new Gateway.Locales(GESTOR.api(context, settings, roles),
      PEDIDOS.api(context, settings, roles), CADENA.api(context, settings, roles)));
  }

  /**
   * How a gateway in the same process builds this role's App routes (one per gateway verticle: their state is that
   * verticle's); empty when the role runs elsewhere or has none.
   */
  private Optional<Supplier<AppApi>> api(RoleContext context, Settings settings, Set<Role> roles) {
    return roles.contains(this) && api != null ? Optional.of(() -> api.apply(context, settings)) : Optional.empty();
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
