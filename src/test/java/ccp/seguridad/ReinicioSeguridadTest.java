package ccp.seguridad;

import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.support.Await;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("The seguridad process stopped and started again while sessions keep arriving loses no session event")
class ReinicioSeguridadTest {

  private static final int SESSIONS = 120;

  @Test
  @DisplayName("every session opened while the Verificador was down is verified after it returns, each alert once")
  void noSessionLostAcrossRestart() throws Exception {
    Settings settings = SharedInfra.settings();
    try (RunningApp gestor = RunningApp.start(settings, Set.of(Role.GESTOR))) {
      RunningApp seguridad = RunningApp.start(SharedInfra.settings(), Set.of(Role.SEGURIDAD));
      TestTokens tokens = TestTokens.signedWith(gestor.app().vertx(), SharedInfra.JWT_SECRET);
      String vendedor = Db.newActor(settings, "VENDEDOR");
      String token = tokens.valid(vendedor, "VENDEDOR");
      String area = tokens.valid(Db.newActor(settings, "SEGURIDAD"), "SEGURIDAD");
      assertThat(Http.put(seguridad.seguridadUrl() + "/v1/dispositivos/" + vendedor, area, "{\"huella\":\"casa-reinicio\"}").status())
        .isEqualTo(200);

      ExecutorService sender = Executors.newSingleThreadExecutor();
      Future<List<String>> opened = sender.submit(() -> {
        List<String> sesiones = new ArrayList<>();
        for (int i = 0; i < SESSIONS; i++) {
          Http.Response r = Http.post(gestor.gestorUrl() + "/v1/sesiones", token, "{\"huella\":\"intruso-" + 100_000 + i + "\"}");
          assertThat(r.status()).isEqualTo(201);
          sesiones.add(r.json().getString("sesion"));
          Thread.sleep(25);
        }
        return sesiones;
      });
      Thread.sleep(800);
      seguridad.close();
      Thread.sleep(800);
      try (RunningApp again = RunningApp.start(SharedInfra.settings(), Set.of(Role.SEGURIDAD))) {
        List<String> sesiones = opened.get();
        sender.shutdown();
        List<String> alertadas = Await.until(Duration.ofSeconds(30), () -> sesionesAlertadas(again, area, vendedor),
          list -> list.size() >= SESSIONS, SESSIONS + " alerts");
        Thread.sleep(500);
        assertThat(sesionesAlertadas(again, area, vendedor)).containsExactlyInAnyOrderElementsOf(sesiones);
      }
    }
  }

  @Test
  @DisplayName("a second seguridad process is a ready standby and takes over when the active one stops")
  void standbyTakesOver() throws Exception {
    Settings settings = SharedInfra.settings();
    try (RunningApp gestor = RunningApp.start(settings, Set.of(Role.GESTOR));
         RunningApp primero = RunningApp.start(SharedInfra.settings(), Set.of(Role.SEGURIDAD));
         RunningApp segundo = RunningApp.start(SharedInfra.settings(), Set.of(Role.SEGURIDAD))) {
      for (RunningApp app : List.of(primero, segundo)) {
        Await.until(Duration.ofSeconds(20), () -> Http.get(app.managementUrl() + "/health/ready", null).status(),
          status -> status == 200, "readiness of both seguridad processes");
      }
      TestTokens tokens = TestTokens.signedWith(gestor.app().vertx(), SharedInfra.JWT_SECRET);
      String vendedor = Db.newActor(settings, "VENDEDOR");
      String token = tokens.valid(vendedor, "VENDEDOR");
      String area = tokens.valid(Db.newActor(settings, "SEGURIDAD"), "SEGURIDAD");
      Http.post(gestor.gestorUrl() + "/v1/sesiones", token, "{\"huella\":\"casa-standby\"}");
      Http.post(gestor.gestorUrl() + "/v1/sesiones", token, "{\"huella\":\"intruso-standby-1\"}");
      Await.until(Duration.ofSeconds(15), () -> sesionesAlertadas(segundo, area, vendedor), l -> l.size() == 1, "the first alert");

      primero.close();
      Http.post(gestor.gestorUrl() + "/v1/sesiones", token, "{\"huella\":\"intruso-standby-2\"}");
      Await.until(Duration.ofSeconds(30), () -> sesionesAlertadas(segundo, area, vendedor), l -> l.size() == 2, "the alert after failover");
    }
  }

  private static List<String> sesionesAlertadas(RunningApp app, String area, String vendedor) {
    return Http.get(app.seguridadUrl() + "/v1/alertas?limit=500&actor=" + vendedor, area).json().getJsonArray("alertas")
      .stream().map(a -> ((JsonObject) a).getJsonObject("detalle").getString("sesion")).toList();
  }
}
