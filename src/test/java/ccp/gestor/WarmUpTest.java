package ccp.gestor;

import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.platform.http.Tokens;
import ccp.support.Db;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("Warm-up: before it is ready, a Gestor opens sessions through its own route as the warm-up actor, leaving no session and no alert")
class WarmUpTest {

  @Test
  @DisplayName("the start waits for the warm-up; the sessions went the whole way (the Verificador saw them), none is left, none raised an alert")
  void warmsTheSessionPathAndLeavesNothing() throws Exception {
    Settings settings = SharedInfra.settings(Map.of("gestor.warm-up-ms", 1_500));
    Db.update(settings, "DELETE FROM seguridad.registro_dispositivos WHERE vendedor = ?", Tokens.WARM_UP_ACTOR);
    long alertsBefore = Db.count(settings, "SELECT count(*) FROM seguridad.avisos WHERE actor = ?", Tokens.WARM_UP_ACTOR);
    long began = System.nanoTime();
    try (RunningApp app = RunningApp.start(settings, Set.of(Role.GESTOR, Role.SEGURIDAD))) {
      assertThat(Duration.ofNanos(System.nanoTime() - began)).as("ready only after the warm-up").isGreaterThan(Duration.ofMillis(1_500));
      double opened = app.app().registry().counter("gestor_warm_up_sessions", "outcome", "201").count();
      assertThat(opened).as("sessions opened by the warm-up").isGreaterThan(50);
      assertThat(app.app().registry().find("gestor_warm_up_sessions").counters())
        .as("every warm-up session opened, or refused at the door while the JIT was cold")
        .allSatisfy(c -> assertThat(c.getId().getTag("outcome")).isIn("201", "503"));
      assertThat(Db.count(settings, "SELECT count(*) FROM gestor.sesiones WHERE actor = ?", Tokens.WARM_UP_ACTOR))
        .as("the warm-up's sessions deleted").isZero();
      await("the Verificador registering the warm-up's device at its first session").atMost(Duration.ofSeconds(15))
        .until(() -> Db.strings(settings, "SELECT huella FROM seguridad.registro_dispositivos WHERE vendedor = ?",
          Tokens.WARM_UP_ACTOR), h -> h.equals(java.util.List.of(WarmUp.HUELLA)));
      assertThat(Db.count(settings, "SELECT count(*) FROM seguridad.avisos WHERE actor = ?", Tokens.WARM_UP_ACTOR))
        .as("no alert").isEqualTo(alertsBefore);
    }
  }

  /**
   * The Verificador hung behind a lock the test holds for the whole warm-up, its door's bound 1 s: the warm-up's
   * sessions fill its queue past the bound in about a second, after which the door refused them (quick 503s, thousands
   * of them, for the few hundred sessions the cold JIT had opened before). They pass it: they come before the process is
   * ready, which then waits for the Verificador to check them.
   */
  @Test
  @DisplayName("the Verificador hung during the warm-up: its door refuses none of the warm-up's sessions")
  void warmUpPassesTheVerificadorsDoor() throws Exception {
    Settings settings = SharedInfra.settings(Map.of("gestor.warm-up-ms", 3_000, "gestor.admission-max-verificador-lag-ms", 1_000));
    Db.update(settings, "DELETE FROM seguridad.registro_dispositivos WHERE vendedor = ?", Tokens.WARM_UP_ACTOR);
    try (Connection bloqueo = Db.superuser(settings)) {
      bloqueo.setAutoCommit(false);
      try (Statement s = bloqueo.createStatement()) {
        s.execute("LOCK TABLE seguridad.registro_dispositivos IN ACCESS EXCLUSIVE MODE");
      }
      RunningApp app;
      try {
        app = RunningApp.start(settings, Set.of(Role.GESTOR, Role.SEGURIDAD));
      } finally {
        bloqueo.rollback();
      }
      try (app) {
        double opened = app.app().registry().counter("gestor_warm_up_sessions", "outcome", "201").count();
        double refused = app.app().registry().counter("gestor_warm_up_sessions", "outcome", "503").count();
        System.out.printf("warm-up with the Verificador hung: %.0f sessions opened, %.0f refused%n", opened, refused);
        assertThat(refused).as("warm-up sessions refused (a cold JIT's few at the concurrency limit at most)")
          .isLessThan(opened / 4);
        await("the Verificador registering the warm-up's device once released").atMost(Duration.ofSeconds(30))
          .until(() -> Db.strings(settings, "SELECT huella FROM seguridad.registro_dispositivos WHERE vendedor = ?",
            Tokens.WARM_UP_ACTOR), h -> h.equals(java.util.List.of(WarmUp.HUELLA)));
      }
    }
  }
}
