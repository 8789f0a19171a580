package ccp.seguridad;

import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("The seguridad process stopped and started again while sessions keep arriving loses no session event")
class ReinicioSeguridadTest {

  private static final int SESSIONS = 120;
  /** The seguridad role's groups; only the process that leads is in them, and it owns every partition. */
  private static final List<String> GRUPOS = List.of(ConsumidorSesiones.COLA, ConsumidorEscrituras.COLA, ConsumidorAlertas.COLA);

  @Test
  @DisplayName("every session opened while the Verificador was down is verified after it returns, each alert once")
  void noSessionLostAcrossRestart() throws Exception {
    Settings settings = SharedInfra.settings();
    // The first seguridad process is stopped halfway; closing it again at the end is a no-op, or stops it on a failure.
    try (RunningApp gestor = RunningApp.start(settings, Set.of(Role.GESTOR));
         RunningApp seguridad = RunningApp.start(SharedInfra.settings(), Set.of(Role.SEGURIDAD))) {
      TestTokens tokens = TestTokens.devIssuer(gestor.app().vertx());
      String vendedor = Db.newActor(settings, "VENDEDOR");
      String token = tokens.valid(vendedor, "VENDEDOR");
      String area = tokens.valid(Db.newActor(settings, "SEGURIDAD"), "SEGURIDAD");
      assertThat(Http.put(seguridad.seguridadUrl() + "/v1/dispositivos/" + vendedor, area, "{\"huella\":\"casa-reinicio\"}").status())
        .isEqualTo(200);

      List<String> sesiones = new CopyOnWriteArrayList<>();
      ExecutorService sender = Executors.newSingleThreadExecutor();
      Future<?> sending = sender.submit(() -> {
        for (int i = 0; i < SESSIONS; i++) {
          Http.Response r = Http.post(gestor.gestorUrl() + "/v1/sesiones", token, "{\"huella\":\"intruso-" + 100_000 + i + "\"}");
          assertThat(r.status()).isEqualTo(201);
          sesiones.add(r.json().getString("sesion"));
          Thread.sleep(25);
        }
        return null;
      });
      // Stopped while it is verifying, and kept down while sessions keep arriving.
      await().atMost(Duration.ofSeconds(15)).until(() -> sesionesAlertadas(seguridad, area, vendedor).size() >= 10);
      seguridad.close();
      int alParar = sesiones.size();
      await().atMost(Duration.ofSeconds(15)).until(() -> sesiones.size() >= Math.min(SESSIONS, alParar + 20));
      try (RunningApp again = RunningApp.start(SharedInfra.settings(), Set.of(Role.SEGURIDAD))) {
        sending.get();
        sender.shutdown();
        await().atMost(Duration.ofSeconds(30)).during(Duration.ofMillis(500)).untilAsserted(() ->
          assertThat(sesionesAlertadas(again, area, vendedor)).containsExactlyInAnyOrderElementsOf(sesiones));
      }
    }
  }

  /**
   * The process to stop is the one that holds seguridad's leadership, hence every partition of its groups, read from
   * each process's readiness. Its graceful stop leaves the groups and the lock at once, so the standby must own them
   * within the session timeout (what a crash would take just to be noticed), and then verify a new session within
   * ASR-1's budget.
   */
  @Test
  @DisplayName("a second seguridad process is a ready standby and takes over when the active one stops")
  void standbyTakesOver() throws Exception {
    Settings settings = SharedInfra.settings();
    try (RunningApp gestor = RunningApp.start(settings, Set.of(Role.GESTOR));
         RunningApp primero = RunningApp.start(SharedInfra.settings(), Set.of(Role.SEGURIDAD));
         RunningApp segundo = RunningApp.start(SharedInfra.settings(), Set.of(Role.SEGURIDAD))) {
      RunningApp activo = await("one seguridad process owning the Verificador's partition, the other a ready standby")
        .atMost(Duration.ofSeconds(20)).until(() -> activo(primero, segundo), Objects::nonNull);
      RunningApp standby = activo == primero ? segundo : primero;
      TestTokens tokens = TestTokens.devIssuer(gestor.app().vertx());
      String vendedor = Db.newActor(settings, "VENDEDOR");
      String token = tokens.valid(vendedor, "VENDEDOR");
      String area = tokens.valid(Db.newActor(settings, "SEGURIDAD"), "SEGURIDAD");
      assertThat(Http.post(gestor.gestorUrl() + "/v1/sesiones", token, "{\"huella\":\"casa-standby\"}").status()).isEqualTo(201);
      assertThat(Http.post(gestor.gestorUrl() + "/v1/sesiones", token, "{\"huella\":\"intruso-standby-1\"}").status()).isEqualTo(201);
      await("the first alert").atMost(Duration.ofSeconds(15)).until(() -> sesionesAlertadas(standby, area, vendedor), l -> l.size() == 1);

      Map<String, List<Integer>> todas = particiones(activo);
      activo.close();
      await("the standby owning every seguridad group's partition").atMost(standby.settings().millis("kafka.session-timeout-ms"))
        .untilAsserted(() -> assertThat(particiones(standby)).containsAllEntriesOf(todas));

      Http.Response abierta = Http.post(gestor.gestorUrl() + "/v1/sesiones", token, "{\"huella\":\"intruso-standby-2\"}");
      assertThat(abierta.status()).isEqualTo(201);
      String sesion = abierta.json().getString("sesion");
      JsonObject alerta = await("the alert after failover").atMost(Duration.ofSeconds(15))
        .until(() -> alertas(standby, area, vendedor).stream()
            .filter(a -> sesion.equals(a.getJsonObject("detalle").getString("sesion"))).toList(),
          l -> !l.isEmpty()).get(0);
      assertThat(Duration.between(Instant.parse(abierta.json().getString("t0")), Instant.parse(alerta.getString("entregado_en"))))
        .isLessThanOrEqualTo(standby.settings().millis("asr1.budget-ms"));
    }
  }

  /**
   * The process whose groups own their partitions while the other is ready and in no group of the role; null until
   * that holds.
   */
  private static RunningApp activo(RunningApp a, RunningApp b) {
    if (dueno(a) && listo(b) && particiones(b).isEmpty()) return a;
    if (dueno(b) && listo(a) && particiones(a).isEmpty()) return b;
    return null;
  }

  private static boolean dueno(RunningApp app) {
    Map<String, List<Integer>> owned = particiones(app);
    return GRUPOS.stream().allMatch(g -> owned.get(g) != null && owned.get(g).contains(0));
  }

  private static boolean listo(RunningApp app) {
    return Http.get(app.managementUrl() + "/health/ready", null).status() == 200;
  }

  /** Per consumer group, the partitions the process says it owns ({@code /health/ready}); empty while it is not ready. */
  private static Map<String, List<Integer>> particiones(RunningApp app) {
    Http.Response ready = Http.get(app.managementUrl() + "/health/ready", null);
    Map<String, List<Integer>> owned = new HashMap<>();
    if (ready.status() != 200) return owned;
    for (Object c : ready.json().getJsonArray("checks")) {
      JsonObject data = ((JsonObject) c).getJsonObject("data");
      if (data != null && data.containsKey("partitions")) {
        owned.put(((JsonObject) c).getString("id"), data.getJsonArray("partitions").stream().map(Integer.class::cast).toList());
      }
    }
    return owned;
  }

  private static List<String> sesionesAlertadas(RunningApp app, String area, String vendedor) {
    return alertas(app, area, vendedor).stream().map(a -> a.getJsonObject("detalle").getString("sesion")).toList();
  }

  private static List<JsonObject> alertas(RunningApp app, String area, String vendedor) {
    return Http.get(app.seguridadUrl() + "/v1/alertas?limit=500&actor=" + vendedor, area).json().getJsonArray("alertas")
      .stream().map(JsonObject.class::cast).toList();
  }
}
