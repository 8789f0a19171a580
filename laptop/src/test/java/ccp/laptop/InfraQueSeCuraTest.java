package ccp.laptop;

import ccp.platform.config.Settings;
import ccp.platform.infra.PgCredentials;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.Jvm;
import ccp.support.SharedInfra;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

@DisplayName("infra heals: its PostgreSQL restarted after a crash, and a server left behind by a kill -9 taken over at once")
class InfraQueSeCuraTest {

  @Test
  @DisplayName("kill -9 of the infra's PostgreSQL → the infra starts it again on its port, ready again, every committed row there")
  void postgresRestartedAfterACrash() throws Exception {
    Path dir = Files.createTempDirectory("ccp-infra-pg-crash");
    Settings own = SharedInfra.defaults().with(Map.of("data.dir", dir.toString(), "http.host", "127.0.0.1",
      "infra.kafka-port", SharedInfra.freePort(), "infra.pg-port", SharedInfra.freePort(), "infra.issuer-port", SharedInfra.freePort(),
      "management.port", SharedInfra.freePort()));
    try (InfraProcess infra = InfraProcess.start(own)) {
      Settings settings = infra.settings();
      String ready = "http://127.0.0.1:" + infra.managementPort() + "/health/ready";
      Db.update(settings, "CREATE TABLE prueba_caida (id int PRIMARY KEY)");
      Db.update(settings, "INSERT INTO prueba_caida VALUES (1)");

      ProcessHandle postmaster = postmaster(dir).orElseThrow();
      long crashed = System.nanoTime();
      postmaster.destroyForcibly();
      postmaster.onExit().get(30, TimeUnit.SECONDS);

      await("PostgreSQL back on its port").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
        .ignoreExceptions().until(() -> Db.count(settings, "SELECT count(*) FROM prueba_caida") == 1);
      long backMs = (System.nanoTime() - crashed) / 1_000_000;
      await("the infra ready again").atMost(Duration.ofSeconds(30)).until(() -> Http.get(ready, null).status() == 200);
      System.out.printf("infra's PostgreSQL killed (-9): answering again after %d ms%n", backMs);
      assertThat(postmaster(dir).orElseThrow().pid()).isNotEqualTo(postmaster.pid());
    }
    assertThat(postmaster(dir)).as("closing the infra stops the restarted server").isEmpty();
  }

  @Test
  @DisplayName("kill -9 of the infra while a role holds a connection → the next infra ends the server left behind at once (fast shutdown), then is ready")
  void leftBehindServerTakenOverFast() throws Exception {
    Path dir = Files.createTempDirectory("ccp-infra-kill9");
    Map<String, String> env = env(dir);
    String ready = "http://127.0.0.1:" + env.get(Settings.envName("management.port")) + "/health/ready";
    Process first = start(env, dir.resolve("first.log"));
    Process second = null;
    try {
      awaitReady(ready, first, dir.resolve("first.log"), Duration.ofSeconds(240));
      // A role process's pooled connection, open and idle: a smart shutdown waits for it to go.
      String url = "jdbc:postgresql://127.0.0.1:" + env.get(Settings.envName("infra.pg-port")) + "/ccp";
      try (Connection rol = DriverManager.getConnection(url, PgCredentials.SUPERUSER,
             PgCredentials.inDataDir(dir).superuserPassword())) {
        long leftBehind = postmaster(dir).orElseThrow().pid();
        killNine(first);
        assertThat(ProcessHandle.of(leftBehind)).as("the server outlives the infra's JVM").isPresent();

        long restarted = System.nanoTime();
        second = start(env, dir.resolve("second.log"));
        // A smart shutdown would wait for the held session for as long as it stays: the server would outlive the wait.
        await("the server left behind stopped").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
          .until(() -> ProcessHandle.of(leftBehind).map(ProcessHandle::isAlive).orElse(false), alive -> !alive);
        long stoppedMs = (System.nanoTime() - restarted) / 1_000_000;
        awaitReady(ready, second, dir.resolve("second.log"), Duration.ofSeconds(240));
        long readyMs = (System.nanoTime() - restarted) / 1_000_000;
        System.out.printf("infra restarted beside the server a kill -9 left behind: that server stopped after %d ms,"
          + " the new infra ready after %d ms%n", stoppedMs, readyMs);
        assertThatThrownBy(() -> {
          try (Statement s = rol.createStatement()) {
            s.execute("SELECT 1");
          }
        }).as("the held session was ended, not waited for").isInstanceOf(SQLException.class);
      }
    } finally {
      if (first.isAlive()) killNine(first);
      if (second != null) {
        second.destroy();
        if (!second.waitFor(60, TimeUnit.SECONDS)) killNine(second);
      }
      Optional<ProcessHandle> left = postmaster(dir);
      if (left.isPresent()) {
        left.get().destroy();
        left.get().onExit().get(60, TimeUnit.SECONDS);
      }
    }
  }

  private static Optional<ProcessHandle> postmaster(Path dir) throws Exception {
    Path pidFile = dir.resolve("postgres/data/postmaster.pid");
    if (!Files.exists(pidFile)) return Optional.empty();
    return ProcessHandle.of(Long.parseLong(Files.readAllLines(pidFile).get(0).trim())).filter(ProcessHandle::isAlive);
  }

  private static Map<String, String> env(Path data) {
    Map<String, String> env = new HashMap<>();
    env.put(Settings.envName("data.dir"), data.toString());
    env.put(Settings.envName("http.host"), "127.0.0.1");
    for (String key : List.of("infra.kafka-port", "infra.pg-port", "infra.issuer-port", "management.port")) {
      env.put(Settings.envName(key), Integer.toString(SharedInfra.freePort()));
    }
    return env;
  }

  private static Process start(Map<String, String> env, Path log) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(Jvm.command(Laptop.class, "infra"));
    builder.environment().putAll(env);
    builder.redirectErrorStream(true).redirectOutput(log.toFile());
    return builder.start();
  }

  private static void awaitReady(String ready, Process process, Path log, Duration within) {
    await("ready").atMost(within).pollInterval(Duration.ofMillis(300)).ignoreExceptionsInstanceOf(IllegalStateException.class)
      .until(() -> {
        assertThat(process.isAlive()).as("the infra exited; its log: %s", log).isTrue();
        return Http.get(ready, null).status() == 200;
      });
  }

  /** SIGKILL to the JVM: no shutdown hook runs; the postmaster, which pg_ctl detached, stays running. */
  private static void killNine(Process process) throws Exception {
    List<ProcessHandle> tree = process.descendants().toList();
    process.destroyForcibly();
    tree.forEach(ProcessHandle::destroyForcibly);
    process.waitFor(60, TimeUnit.SECONDS);
    for (ProcessHandle child : tree) child.onExit().get(60, TimeUnit.SECONDS);
  }
}
