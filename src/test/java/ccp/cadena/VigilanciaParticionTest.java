package ccp.cadena;

import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.support.Api;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TcpRelay;
import ccp.support.TestTokens;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The chain monitor's leader cut off from PostgreSQL while it keeps running: its process reaches the database through a
 * relay the test freezes (a partition: silence on open connections, no reset). Facturación does not run, so every
 * order's first stage stops and the monitor has work. The leader must step down on its own before the standby can take
 * over, the takeover is bounded by {@code liderazgo.sesion-ms}, and a deposed leader's statements delivered late double
 * nothing.
 */
@DisplayName("Monitor de la cadena under a partition: the cut-off leader steps down, the standby takes over within the bound, nothing doubles")
class VigilanciaParticionTest {

  /** The advisory lock's key of the chain monitor ({@code MonitorCadena.LOCK_KEY}), as pg_locks splits a bigint key. */
  private static final long LOCK_CLASSID = 0x43435076L;
  private static final long LOCK_OBJID = 0x69676C6CL;
  private static final int SESION_MS = 3_000;

  private static Settings cluster;
  private static RunningApp servicios;
  private static Api api;

  @BeforeAll
  static void start() throws Exception {
    cluster = SharedInfra.settings(Map.of("cadena.plazo-etapa-ms", 2_000, "vigilancia.barrido-ms", 300,
      "vigilancia.sondeo-ms", 600_000, "vigilancia.liderazgo-ms", 200, "liderazgo.confirmar-ms", 1_000,
      "liderazgo.sesion-ms", SESION_MS, "reanudador.espera-ms", 1_500));
    EnumSet<Role> roles = EnumSet.of(Role.GATEWAY, Role.GESTOR, Role.SEGURIDAD, Role.PEDIDOS, Role.CADENA);
    servicios = RunningApp.start(cluster, roles);
    api = new Api(servicios.gatewayUrl(), TestTokens.devIssuer(servicios.app().vertx()));
  }

  @AfterAll
  static void stop() throws Exception {
    if (servicios != null) servicios.close();
  }

  @Test
  @DisplayName("leader partitioned from PostgreSQL → it steps down first, and the standby leads within sesion-ms + a try")
  void partitionedLeaderStepsDownBeforeTheStandbyTakesOver() throws Exception {
    try (TcpRelay relay = new TcpRelay(cluster.text("pg.host"), cluster.integer("pg.port"));
         RunningApp lider = RunningApp.start(SharedInfra.process(cluster, Map.of("pg.port", relay.port())), EnumSet.of(Role.VIGILANCIA))) {
      await("the relayed process leads").atMost(Duration.ofSeconds(30)).until(() -> lidera(lider));
      try (RunningApp standby = RunningApp.start(SharedInfra.process(cluster, Map.of()), EnumSet.of(Role.VIGILANCIA))) {
        await("a standby").during(Duration.ofMillis(600)).atMost(Duration.ofSeconds(30)).until(() -> !lidera(standby));

        long cut = System.nanoTime();
        relay.freeze();
        try {
          // Both asked every 50 ms without waiting for answers: the cut-off leader's readiness answers only after its
          // PostgreSQL check times out, but its leadership flag is read when the request arrives.
          CompletableFuture<Long> stepDown = primeraVez(lider, cut, false);
          CompletableFuture<Long> takeover = primeraVez(standby, cut, true);
          long stepDownMs = stepDown.get(30, TimeUnit.SECONDS);
          long takeoverMs = takeover.get(30, TimeUnit.SECONDS);
          System.out.printf("partitioned monitor leader: stepped down after %d ms, standby led after %d ms (sesion-ms %d)%n",
            stepDownMs, takeoverMs, SESION_MS);
          assertThat(stepDownMs).as("the cut-off leader steps down on its own, ms").isBetween(0L, (long) SESION_MS);
          assertThat(takeoverMs).as("the standby's takeover, ms, after the cut-off leader stepped down")
            .isBetween(stepDownMs, SESION_MS + 5_000L);

          String pedido = crearPedido();
          await("the stopped stage signalled by the new leader").atMost(Duration.ofSeconds(20)).until(() -> Db.count(cluster,
            "SELECT count(*) FROM cadena.registro_senales WHERE pedido = ?::uuid AND publicada_en IS NOT NULL", pedido) == 1);
        } finally {
          relay.thaw();
        }
        await("the healed process stays a standby").during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(10))
          .until(() -> !lidera(lider) && lidera(standby));
      }
    }
  }

  @Test
  @DisplayName("both believe they lead (lock session ended while the leader is cut off) → every stopped stage retried once, escalated once")
  void deposedLeadersLateWorkDoublesNothing() throws Exception {
    try (TcpRelay relay = new TcpRelay(cluster.text("pg.host"), cluster.integer("pg.port"));
         // A longer confirmation than the cluster's, so that the window in which both lead is wide enough to observe.
         RunningApp viejo = RunningApp.start(SharedInfra.process(cluster, Map.of("pg.port", relay.port(),
           "liderazgo.confirmar-ms", 2_500, "liderazgo.sesion-ms", 4_000)), EnumSet.of(Role.VIGILANCIA))) {
      await("the relayed process leads").atMost(Duration.ofSeconds(30)).until(() -> lidera(viejo));
      try (RunningApp nuevo = RunningApp.start(SharedInfra.process(cluster, Map.of()), EnumSet.of(Role.VIGILANCIA))) {
        // Orders arrive over 3 s, so their deadlines fall before, during and after the cut: both leaders have work.
        List<String> pedidos = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
          pedidos.add(crearPedido());
          Thread.sleep(100);
        }
        String[] ids = pedidos.toArray(String[]::new);
        await("the old leader signals the first ones").atMost(Duration.ofSeconds(20)).until(() -> Db.count(cluster,
          "SELECT count(*) FROM cadena.registro_senales WHERE pedido = ANY(?::uuid[])", (Object) ids) > 0);

        relay.freeze();
        boolean ambos;
        try {
          // The server ends the lock's session at once; the frozen relay keeps the old leader from hearing it.
          assertThat(Db.count(cluster, "SELECT count(pg_terminate_backend(pid)) FROM pg_locks WHERE locktype = 'advisory'"
            + " AND granted AND classid = ? AND objid = ?", LOCK_CLASSID, LOCK_OBJID)).isEqualTo(1);
          await("the new leader").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20)).until(() -> lidera(nuevo));
          ambos = lidera(viejo);
          // The old leader's statements wait in the relay; they reach the database once the new leader has worked.
          Thread.sleep(1_500);
        } finally {
          relay.thaw();
        }
        assertThat(ambos).as("both processes believed they led at once").isTrue();

        await("every stopped stage escalated to the Bandeja").atMost(Duration.ofSeconds(60)).until(() -> Db.count(cluster,
          "SELECT count(*) FROM cadena.bandeja WHERE pedido = ANY(?::uuid[])", (Object) ids) >= pedidos.size());
        await("nothing doubled").during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(20)).until(() -> List.of(
            Db.count(cluster, "SELECT count(*) FROM cadena.registro_senales WHERE pedido = ANY(?::uuid[])", (Object) ids),
            Db.count(cluster, "SELECT count(*) FROM cadena.cadena_etapa WHERE pedido = ANY(?::uuid[]) AND etapa = 'FACTURACION'"
              + " AND intento = 2 AND estado = 'ESCALADA'", (Object) ids),
            Db.count(cluster, "SELECT count(*) FROM cadena.bandeja WHERE pedido = ANY(?::uuid[])", (Object) ids)),
          List.of((long) pedidos.size(), (long) pedidos.size(), (long) pedidos.size())::equals);
      }
    }
  }

  private static String crearPedido() {
    Http.Response r = api.crearPedido(Db.newActor(cluster, "VENDEDOR"), Api.pedido("T-1", "P-4", 1));
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json().getString("pedido");
  }

  /** How long after {@code desde} (nanoTime) a request first found {@code app}'s leadership flag {@code lider}. */
  private static CompletableFuture<Long> primeraVez(RunningApp app, long desde, boolean lider) {
    HttpClient client = HttpClient.newHttpClient();
    CompletableFuture<Long> primera = new CompletableFuture<>();
    Thread sondeo = new Thread(() -> {
      long limite = desde + Duration.ofSeconds(30).toNanos();
      while (!primera.isDone() && System.nanoTime() < limite) {
        long enviada = System.nanoTime();
        client.sendAsync(HttpRequest.newBuilder(URI.create(app.managementUrl() + "/health/ready")).build(),
            HttpResponse.BodyHandlers.ofString())
          .thenAccept(r -> {
            if (liderEn(new JsonObject(r.body())) == lider) primera.complete((enviada - desde) / 1_000_000);
          });
        try {
          Thread.sleep(50);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "sondeo-liderazgo");
    sondeo.setDaemon(true);
    sondeo.start();
    return primera;
  }

  private static boolean liderEn(JsonObject ready) {
    return ready.getJsonArray("checks").stream().map(JsonObject.class::cast)
      .filter(c -> "vigilancia".equals(c.getString("id")))
      .anyMatch(c -> c.getJsonObject("data").getBoolean("lider", false));
  }

  private static boolean lidera(RunningApp app) {
    Http.Response ready = Http.get(app.managementUrl() + "/health/ready", null);
    return ready.json().getJsonArray("checks").stream().map(JsonObject.class::cast)
      .filter(c -> "vigilancia".equals(c.getString("id")))
      .anyMatch(c -> c.getJsonObject("data").getBoolean("lider", false));
  }
}
