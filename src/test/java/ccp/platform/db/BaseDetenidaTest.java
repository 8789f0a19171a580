package ccp.platform.db;

import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.support.Api;
import ccp.support.Db;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("A hung PostgreSQL (SIGSTOP): 503 within the bound, unready but live; after SIGCONT all completes, nothing lost")
class BaseDetenidaTest {

  private static final int REQUEST_TIMEOUT_MS = 2_000;
  /** The bound plus the margin a shared, loaded 2-core machine needs. */
  private static final long ANSWER_WITHIN_MS = REQUEST_TIMEOUT_MS + 3_000;

  private static Settings cluster;
  private static RunningApp app;
  private static Api api;
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @BeforeAll
  static void start() throws Exception {
    cluster = SharedInfra.settings(Map.of("http.request-timeout-ms", REQUEST_TIMEOUT_MS));
    app = RunningApp.start(cluster, EnumSet.allOf(Role.class));
    api = new Api(app.gatewayUrl(), TestTokens.devIssuer(app.app().vertx()));
  }

  @AfterAll
  static void stop() throws Exception {
    app.close();
  }

  @Test
  @DisplayName("an order while the database is stopped is a 503 with Retry-After within the bound; its retry after SIGCONT is the one order")
  void hungDatabase() throws Exception {
    String vendedor = Db.newActor(cluster, "VENDEDOR");
    String antes = api.pedidoAceptado(vendedor);
    await("ready before").atMost(Duration.ofSeconds(60)).until(() -> status("/health/ready"), s -> s == 200);
    String clave = "detenida-" + UUID.randomUUID();

    List<Long> stopped = stopPostgres();
    try {
      long began = System.nanoTime();
      HttpResponse<String> during = crear(vendedor, clave);
      long tookMs = (System.nanoTime() - began) / 1_000_000;
      System.out.printf("Hung database to 503: %d ms (http.request-timeout-ms = %d)%n", tookMs, REQUEST_TIMEOUT_MS);
      assertThat(during.statusCode()).as(during.body()).isEqualTo(503);
      assertThat(during.headers().firstValue("Retry-After")).isPresent();
      assertThat(during.body()).contains("\"error\":\"unavailable\"");
      assertThat(tookMs).as("ms from the request to its 503").isLessThanOrEqualTo(ANSWER_WITHIN_MS);

      await("unready while the database does not answer").atMost(Duration.ofSeconds(15))
        .until(() -> get("/health/ready"), r -> r.statusCode() == 503);
      await("live all the while: no event loop is blocked").during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10))
        .until(() -> status("/health/live"), s -> s == 200);
    } finally {
      signal("CONT", stopped);
    }

    await("ready again by itself").atMost(Duration.ofSeconds(60)).until(() -> status("/health/ready"), s -> s == 200);
    HttpResponse<String> retry = crear(vendedor, clave);
    assertThat(retry.statusCode()).as(retry.body()).isEqualTo(201);
    String despues = api.pedidoAceptado(vendedor);
    assertThat(Db.strings(cluster, "SELECT id::text FROM pedidos.pedidos WHERE actor = ? ORDER BY creado_en", vendedor))
      .as("the order before, the one retried (once), the one after").hasSize(3).contains(antes, despues)
      .contains(new io.vertx.core.json.JsonObject(retry.body()).getString("pedido"));
  }

  private HttpResponse<String> crear(String vendedor, String clave) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(app.gatewayUrl() + "/v1/pedidos"))
      .header("Authorization", "Bearer " + api.token(vendedor)).header("Content-Type", "application/json")
      .header("Idempotency-Key", clave).timeout(Duration.ofSeconds(30))
      .POST(HttpRequest.BodyPublishers.ofString(Api.pedido("T-1", "P-1", 1))).build(), HttpResponse.BodyHandlers.ofString());
  }

  private int status(String path) throws Exception {
    return get(path).statusCode();
  }

  private HttpResponse<String> get(String path) throws Exception {
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(app.managementUrl() + path)).timeout(Duration.ofSeconds(10)).build(),
      HttpResponse.BodyHandlers.ofString());
    System.out.println(path + " " + response.statusCode() + " " + response.body());
    return response;
  }

  /**
   * Stops the shared embedded server: its postmaster (the first line of its postmaster.pid) first, so that it forks no
   * backend meanwhile, then its backends. Returns every process stopped, for the SIGCONT.
   */
  private static List<Long> stopPostgres() throws Exception {
    Path pidFile = SharedInfra.dataDir().resolve("postgres/data/postmaster.pid");
    long postmaster = Long.parseLong(Files.readAllLines(pidFile).get(0).trim());
    List<Long> stopped = new ArrayList<>(List.of(postmaster));
    signal("STOP", stopped);
    List<Long> backends = ProcessHandle.of(postmaster).orElseThrow().children().map(ProcessHandle::pid).toList();
    try {
      signal("STOP", backends);
    } finally {
      stopped.addAll(backends);
    }
    return stopped;
  }

  private static void signal(String signal, List<Long> pids) throws Exception {
    List<String> command = new ArrayList<>(List.of("kill", "-" + signal));
    pids.forEach(pid -> command.add(Long.toString(pid)));
    Process kill = new ProcessBuilder(command).inheritIO().start();
    assertThat(kill.waitFor()).as("kill -" + signal + " " + pids).isZero();
  }
}
