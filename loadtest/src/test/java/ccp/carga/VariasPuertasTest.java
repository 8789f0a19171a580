package ccp.carga;

import ccp.platform.http.JwtConfig;
import ccp.platform.http.Jwks;
import ccp.platform.infra.DevIssuer;
import ccp.support.OnVertx;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.client.WebClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("The load drivers spread their requests over several gateways and read the ASR timers and CPU of every process")
class VariasPuertasTest {

  private Vertx vertx;

  @BeforeEach
  void start() {
    vertx = Vertx.vertx();
  }

  @AfterEach
  void stop() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
  }

  @Test
  @DisplayName("sessions and orders alternate between two gateways, round-robin")
  void roundRobin() throws Exception {
    List<URI> gateways = List.of(URI.create("http://127.0.0.1:18080"), URI.create("http://127.0.0.1:18090"));
    DevIssuer minter = DevIssuer.of(vertx, Jwks.generateRs256("prueba"), new JwtConfig("", "ccp", "ccp-app", 60, 15));

    var sesiones = CargaSesiones.shots(minter, gateways, 4, 0.5);
    var pedidos = CargaPedidos.shots(minter, gateways, 4, 0, "consulta-", 0);
    for (int i = 0; i < 6; i++) {
      assertThat(sesiones.get().request().getPort()).isEqualTo(gateways.get(i % 2).getPort());
      assertThat(pedidos.get().request().getPort()).isEqualTo(gateways.get(i % 2).getPort());
    }
  }

  @Test
  @DisplayName("two processes' scrapes are read together: their ASR histograms and CPU are summed")
  void summedOverProcesses() throws Exception {
    List<URI> metrics = List.of(serve(new AtomicInteger(), scrape(3, 1.5)), serve(new AtomicInteger(), scrape(5, 2.5)));
    Corrida corrida = new Corrida(vertx, null, WebClient.create(vertx), metrics.stream().map(u -> u.resolve("/metrics")).toList(),
      Path.of("no-postgres-here"), java.util.OptionalLong.empty(), new OpcionesCarga());

    Corrida.Scrape both = OnVertx.call(vertx, corrida::scrape).await(10, TimeUnit.SECONDS);

    assertThat(Histogram.parse(both.text(), "asr1_seconds").count()).isEqualTo(8);
    assertThat(Cpu.systemIn(both.text()).orElseThrow()).isEqualTo(4.0);
  }

  private static String scrape(long count, double cpuSeconds) {
    return "asr1_seconds_bucket{le=\"0.5\"} " + count + "\nasr1_seconds_bucket{le=\"+Inf\"} " + count + "\nasr1_seconds_count "
      + count + "\nasr1_seconds_max 0.3\nprocess_cpu_time_ns_total " + (long) (cpuSeconds * 1e9) + "\n";
  }

  private URI serve(AtomicInteger asked, String body) throws Exception {
    HttpServer server = vertx.createHttpServer()
      .requestHandler(req -> {
        asked.incrementAndGet();
        req.response().end(body);
      })
      .listen(0, "127.0.0.1").await(10, TimeUnit.SECONDS);
    return URI.create("http://127.0.0.1:" + server.actualPort());
  }
}
