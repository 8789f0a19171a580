package ccp.support;

import ccp.app.Application;
import ccp.app.Role;
import ccp.platform.config.Settings;
import io.vertx.core.Future;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.internal.threadchecker.BlockedThreadEvent;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One process of the system started by a test, watching for blocked event loops (a bug, DESIGN.md §1). Every process
 * still running is known ({@link #running}): one left behind by a test would hold the leaderships and sit in the
 * consumer groups of every later test on the shared infrastructure, so {@link ProcesosCerrados} fails the class
 * that left it, and stops it.
 */
public final class RunningApp implements AutoCloseable {

  private static final Map<RunningApp, String> RUNNING = new ConcurrentHashMap<>();

  private final Application app;
  private final List<BlockedThreadEvent> blocked = new CopyOnWriteArrayList<>();
  private boolean closed;

  private RunningApp(Application app, Set<Role> roles) {
    this.app = app;
    ((VertxInternal) app.vertx()).blockedThreadChecker().setThreadBlockedHandler(blocked::add);
    RUNNING.put(this, roles.toString());
  }

  /** A start that outlives the wait is stopped when it completes, so that it is not left running behind the test. */
  public static RunningApp start(Settings settings, Set<Role> roles) throws Exception {
    Future<Application> starting = Application.start(settings, roles);
    try {
      return new RunningApp(starting.await(90, TimeUnit.SECONDS), roles);
    } catch (TimeoutException late) {
      starting.onSuccess(Application::stop);
      throw late;
    }
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
    Future<Void> stopping = app.stop();
    try {
      stopping.await(60, TimeUnit.SECONDS);
    } catch (TimeoutException slow) {
      // A stop that long is worth a look, not a failure: the pod's grace period ends in a kill, which loses nothing.
      System.err.println("The stop of a process with roles " + RUNNING.get(this) + " has taken 60 s; still deployed: " + deployed()
        + "; its threads:\n" + threads());
      try {
        stopping.await(90, TimeUnit.SECONDS);
      } catch (TimeoutException stuck) {
        throw new AssertionError("the process's stop did not end within 150 s; still deployed: " + deployed(), stuck);
      }
    }
    RUNNING.remove(this);
    assertThat(blocked).as("Vert.x reported blocked threads").isEmpty();
  }

  /** The stacks of the threads that run its verticles and its Kafka clients: what a stuck stop waits on. */
  private static String threads() {
    StringBuilder out = new StringBuilder();
    Thread.getAllStackTraces().forEach((thread, stack) -> {
      String name = thread.getName();
      if (!name.startsWith("vert.x-") && !name.startsWith("kafka-")) return;
      out.append(name).append(" (").append(thread.getState()).append(")\n");
      for (int i = 0; i < Math.min(stack.length, 25); i++) out.append("    at ").append(stack[i]).append('\n');
    });
    return out.toString();
  }

  /** The verticles whose undeployment has not finished, to say which one holds a stop up. */
  private List<String> deployed() {
    return ((VertxInternal) app.vertx()).deploymentManager().deployments().stream()
      .flatMap(d -> d.deployment().instances().stream()).map(v -> v.getClass().getSimpleName()).sorted().toList();
  }

  /** The roles of each process started and not stopped (never closed, or whose stop did not finish). */
  static List<String> running() {
    return List.copyOf(RUNNING.values());
  }

  /** Stops every process still running, each given another minute. */
  static void stopAll() {
    for (RunningApp left : List.copyOf(RUNNING.keySet())) {
      try {
        left.app.stop().await(60, TimeUnit.SECONDS);
      } catch (Exception e) {
        // Reported by the caller, which names what is still running.
      }
      RUNNING.remove(left);
    }
  }
}
