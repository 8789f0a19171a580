package ccp.support;

import ccp.app.Application;
import ccp.app.Role;
import ccp.platform.config.Settings;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.internal.threadchecker.BlockedThreadEvent;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** One process of the system started by a test, watching for blocked event loops (a bug, DESIGN.md §1). */
public final class RunningApp implements AutoCloseable {

  private final Application app;
  private final List<BlockedThreadEvent> blocked = new CopyOnWriteArrayList<>();
  private boolean closed;

  private RunningApp(Application app) {
    this.app = app;
    ((VertxInternal) app.vertx()).blockedThreadChecker().setThreadBlockedHandler(blocked::add);
  }

  public static RunningApp start(Settings settings, Set<Role> roles) throws Exception {
    return new RunningApp(Application.start(settings, roles).await(90, TimeUnit.SECONDS));
  }

  public Settings settings() {
    return app.settings();
  }

  public Application app() {
    return app;
  }

  public String gestorUrl() {
    return "http://127.0.0.1:" + settings().integer("gestor.port");
  }

  public String gatewayUrl() {
    return "http://127.0.0.1:" + settings().integer("gateway.port");
  }

  public String pedidosUrl() {
    return "http://127.0.0.1:" + settings().integer("pedidos.port");
  }

  public String inventarioUrl() {
    return "http://127.0.0.1:" + settings().integer("inventario.port");
  }

  public String seguridadUrl() {
    return "http://127.0.0.1:" + settings().integer("seguridad.port");
  }

  public String managementUrl() {
    return "http://127.0.0.1:" + app.managementPort();
  }

  /** Stops the process; fails the test if any of its event loops was blocked meanwhile. */
  @Override
  public void close() throws Exception {
    if (closed) return;
    closed = true;
    app.stop().await(60, TimeUnit.SECONDS);
    assertThat(blocked).as("Vert.x reported blocked threads").isEmpty();
  }
}
