package ccp.support;

import ccp.platform.config.Settings;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * After every test class (registered for all of them by {@code META-INF/services}): each process it started is
 * stopped, and no leadership lock is held any more. One left running, or a lock that outlived its process, would make
 * every later class on the shared infrastructure a standby that never leads: the class that left it fails, naming it,
 * and what it left is cleared so that the others run as if it had not. Plain JUnit and JDBC: the lab's and the laptop's
 * suites run it too, without the system's test libraries.
 */
public final class ProcesosCerrados implements AfterAllCallback {

  @Override
  public void afterAll(ExtensionContext context) {
    List<String> left = RunningApp.running();
    RunningApp.stopAll();
    if (!left.isEmpty()) {
      throw new AssertionError(context.getDisplayName() + " left " + left.size() + " process(es) running (roles " + left
        + "): never closed, or their stop took over a minute");
    }
    SharedInfra.ifStarted().ifPresent(ProcesosCerrados::sinCandados);
  }

  /** Session advisory locks (the leaderships) go with their connection, a few milliseconds after its process stops. */
  private static void sinCandados(Settings infra) {
    String held = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'";
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (Db.count(infra, held) > 0) {
      if (System.nanoTime() > until) {
        List<String> holders = Db.strings(infra, """
          SELECT a.pid || ' ' || a.usename || ' since ' || a.backend_start
          FROM pg_locks l JOIN pg_stat_activity a USING (pid) WHERE l.locktype = 'advisory'""");
        Db.strings(infra, "SELECT pg_terminate_backend(pid)::text FROM pg_locks WHERE locktype = 'advisory'");
        throw new AssertionError("advisory locks held after every process stopped: " + holders);
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
