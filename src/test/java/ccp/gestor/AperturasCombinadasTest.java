package ccp.gestor;

import ccp.platform.config.Settings;
import ccp.platform.db.Migrations;
import ccp.platform.db.PgClients;
import ccp.platform.db.PgConfig;
import ccp.support.Db;
import ccp.support.OnVertx;
import ccp.support.SharedInfra;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sessions one verticle opens at once are recorded by shared inserts: each one recorded exactly once, and an
 * unknown or blocked actor's session in the same insert refused with its own reason, the others untouched.
 */
@DisplayName("Sessions opened together share an insert: each recorded once, a refused actor's refused alone")
class AperturasCombinadasTest {

  private static Settings settings;
  private static Vertx vertx;
  private static Actores actores;

  @BeforeAll
  static void start() {
    settings = SharedInfra.settings();
    PgConfig gestor = PgConfig.of(settings, "gestor");
    Migrations.migrate(gestor, settings.flag("demo.seed"), List.of("gestor"));
    vertx = Vertx.vertx();
    actores = new Actores(PgClients.pipelined(vertx, gestor));
  }

  @AfterAll
  static void stop() {
    vertx.close().await();
  }

  @Test
  @DisplayName("600 sessions of four actors, one unknown and one blocked, submitted in one tick")
  void sesionesJuntas() {
    String a = Db.newActor(settings, "VENDEDOR");
    String b = Db.newActor(settings, "VENDEDOR");
    String bloqueado = Db.newActor(settings, "VENDEDOR");
    Db.update(settings, "UPDATE gestor.actores SET bloqueado = true WHERE id = ?", bloqueado);
    String desconocido = "nadie-" + UUID.randomUUID();
    List<String> quienes = List.of(a, b, bloqueado, desconocido, a, b);

    // On one context, as the Gestor's verticle calls it.
    List<Future<Actores.Apertura>> aperturas = OnVertx.call(vertx, () -> {
      // All submitted before the first insert answers: the first goes alone, the rest are shared by the next ones.
      List<Future<Actores.Apertura>> futuras = new ArrayList<>();
      for (int i = 0; i < 600; i++) {
        String sesion = UUID.randomUUID().toString();
        String actor = quienes.get(i % quienes.size());
        futuras.add(actores.abrirSesion(sesion, actor, "huella-" + i));
      }
      return Future.succeededFuture(futuras);
    }).timeout(30, TimeUnit.SECONDS).await();
    Future.all(aperturas).timeout(30, TimeUnit.SECONDS).await();

    Map<String, Actores.Apertura> esperado = Map.of(a, Actores.Apertura.ABIERTA, b, Actores.Apertura.ABIERTA,
      bloqueado, Actores.Apertura.BLOQUEADO, desconocido, Actores.Apertura.DESCONOCIDO);
    for (int k = 0; k < aperturas.size(); k++) {
      String actor = quienes.get(k % quienes.size());
      assertThat(aperturas.get(k).result()).as("session %d of %s", k, actor).isEqualTo(esperado.get(actor));
    }
    assertThat(Db.count(settings, "SELECT count(*) FROM gestor.sesiones WHERE actor = ?", a)).isEqualTo(200);
    assertThat(Db.count(settings, "SELECT count(*) FROM gestor.sesiones WHERE actor = ?", b)).isEqualTo(200);
    assertThat(Db.count(settings, "SELECT count(*) FROM gestor.sesiones WHERE actor IN (?, ?)", bloqueado, desconocido)).isZero();
    assertThat(Db.count(settings, "SELECT count(DISTINCT id) FROM gestor.sesiones WHERE actor IN (?, ?)", a, b)).isEqualTo(400);
  }

}
