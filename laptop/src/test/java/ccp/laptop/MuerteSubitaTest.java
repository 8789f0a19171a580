package ccp.laptop;

import ccp.platform.config.Settings;
import ccp.support.Jvm;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("kill -9 of the all-in-one right after a 201: the order is there after restart")
class MuerteSubitaTest {

  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @Test
  @DisplayName("an order answered 201, then SIGKILL to the JVM; restarted on the same data directory (beside the PostgreSQL it left running), it reads back")
  void orderSurvivesKillNine() throws Exception {
    Path data = Files.createTempDirectory("ccp-kill9");
    Map<String, String> env = env(data);
    String gateway = "http://127.0.0.1:" + env.get(Settings.envName("gateway.port"));
    String management = "http://127.0.0.1:" + env.get(Settings.envName("management.port"));

    Process first = start(env, data.resolve("first.log"));
    String pedido;
    String token;
    Vertx vertx = Vertx.vertx();
    try {
      awaitReady(management, first, data.resolve("first.log"));
      token = TestTokens.devIssuer(vertx, data).valid("vendedor-1", "VENDEDOR");
      HttpResponse<String> created = http.send(HttpRequest.newBuilder(URI.create(gateway + "/v1/pedidos"))
        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json").timeout(Duration.ofSeconds(30))
        .POST(HttpRequest.BodyPublishers.ofString("{\"tendero\":\"T-1\",\"lineas\":[{\"producto\":\"P-1\",\"cantidad\":1}]}")).build(),
        HttpResponse.BodyHandlers.ofString());
      assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
      pedido = new JsonObject(created.body()).getString("pedido");
    } finally {
      killNine(first);
      vertx.close().await(30, TimeUnit.SECONDS);
    }

    Process second = start(env, data.resolve("second.log"));
    try {
      awaitReady(management, second, data.resolve("second.log"));
      HttpResponse<String> read = http.send(HttpRequest.newBuilder(URI.create(gateway + "/v1/pedidos/" + pedido))
        .header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
      assertThat(new JsonObject(read.body()).getString("pedido")).isEqualTo(pedido);
    } finally {
      second.destroy();
      if (!second.waitFor(60, TimeUnit.SECONDS)) killNine(second);
      stopPostgresLeftOn(data);
    }
  }

  /** A server still running on the test's data directory (a restart that failed to take it over) is stopped. */
  private static void stopPostgresLeftOn(Path data) throws Exception {
    Path pidFile = data.resolve("postgres/data/postmaster.pid");
    if (!Files.exists(pidFile)) return;
    Optional<ProcessHandle> server = ProcessHandle.of(Long.parseLong(Files.readAllLines(pidFile).get(0).trim()));
    if (server.isPresent()) {
      server.get().destroy();
      server.get().onExit().get(60, TimeUnit.SECONDS);
    }
  }

  /** The laptop jar's all-in-one on its own ports and data directory; durable PostgreSQL, as configured by default. */
  private static Map<String, String> env(Path data) {
    Map<String, String> env = new HashMap<>();
    env.put(Settings.envName("data.dir"), data.toString());
    env.put(Settings.envName("http.host"), "127.0.0.1");
    for (String key : List.of("infra.kafka-port", "infra.pg-port", "infra.issuer-port", "management.port", "gateway.port")) {
      env.put(Settings.envName(key), Integer.toString(SharedInfra.freePort()));
    }
    for (String role : List.of("gestor", "seguridad", "pedidos", "cadena")) {
      String port = Integer.toString(SharedInfra.freePort());
      env.put(Settings.envName(role + ".port"), port);
      env.put(Settings.envName(role + ".url"), "http://127.0.0.1:" + port);
    }
    return env;
  }

  private static Process start(Map<String, String> env, Path log) throws Exception {
    ProcessBuilder builder = new ProcessBuilder(Jvm.command(Laptop.class, "run", "--role=all"));
    builder.environment().putAll(env);
    builder.redirectErrorStream(true).redirectOutput(log.toFile());
    return builder.start();
  }

  private void awaitReady(String management, Process process, Path log) {
    await("ready").atMost(Duration.ofSeconds(240)).pollInterval(Duration.ofMillis(500)).ignoreExceptionsInstanceOf(IOException.class)
      .until(() -> {
        assertThat(process.isAlive()).as("the all-in-one exited; its log: %s", log).isTrue();
        return http.send(HttpRequest.newBuilder(URI.create(management + "/health/ready")).timeout(Duration.ofSeconds(5)).build(),
          HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
      });
  }

  /**
   * SIGKILL to the JVM and the processes still its children: nothing runs a shutdown hook. The embedded PostgreSQL's
   * postmaster is not among them (pg_ctl detached it): it stays running, as after a real kill -9 of the all-in-one.
   */
  private static void killNine(Process process) throws Exception {
    List<ProcessHandle> tree = process.descendants().toList();
    process.destroyForcibly();
    tree.forEach(ProcessHandle::destroyForcibly);
    process.waitFor(60, TimeUnit.SECONDS);
    for (ProcessHandle child : tree) child.onExit().get(60, TimeUnit.SECONDS);
  }
}
