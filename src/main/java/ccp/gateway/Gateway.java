package ccp.gateway;

import ccp.platform.role.AppApi;
import ccp.platform.role.RoleContext;
import ccp.seguridad.ListaRevocacion;
import io.vertx.core.Future;

import java.util.Optional;
import java.util.function.Supplier;

/** The {@code gateway} role: API Gateway ×2 in the view, the App's only door. */
public final class Gateway {

  /**
   * The App routes of the roles running in this process, served by the gateway on its own thread instead of forwarded
   * over HTTP (one built per gateway verticle); an empty one is forwarded to its role's URL.
   */
  public record Locales(Optional<Supplier<AppApi>> sesiones, Optional<Supplier<AppApi>> pedidos, Optional<Supplier<AppApi>> cadena,
                        Optional<Supplier<AppApi>> inventario) {}

  private Gateway() {}

  /** {@code lista}: the Lista de revocación its readiness reads, from the process's settings like every role's door. */
  public static Future<Void> deploy(RoleContext role, GatewayConfig config, Locales locales, ListaRevocacion lista) {
    // Ready only when the list (migrated by the seguridad and gestor roles) can be read.
    role.health().readyWhileAnswering("lista-revocacion", () -> lista.estado("readiness-probe"));
    HistoriaMetricas historia = new HistoriaMetricas(role.registry());
    return role.vertx().deployVerticle(historia)
      .compose(id -> Consola.claveDesarrollo(role.vertx(), config, role.http().clientTimeoutMs()))
      .compose(clave -> role.deploy(() -> new HiloPeticion(role, config, locales, clave, historia), role.httpInstances())).mapEmpty();
  }
}
