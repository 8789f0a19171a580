package ccp.gestor;

import ccp.platform.config.Settings;
import ccp.platform.db.Migrations;
import ccp.platform.db.PgClients;
import ccp.platform.db.PgConfig;
import ccp.support.Db;
import ccp.support.SharedInfra;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("The Gestor's sessions (A2) opened while one statement is in flight are recorded together; an unknown or blocked actor in the batch is refused alone")
class ActoresLoteTest {

  private static Settings settings;
  private static Vertx vertx;
  private static Actores actores;

  @BeforeAll
  static void start() {
    settings = SharedInfra.settings();
    Migrations.migrate(PgConfig.of(settings, "gestor"), settings.flag("demo.seed"), List.of("gestor"));
    vertx = Vertx.vertx();
    actores = new Actores(PgClients.pipelined(vertx, PgConfig.of(settings, "gestor")), 256);
  }

  @AfterAll
  static void stop() {
    vertx.close().await();
  }

  @Test
  @DisplayName("100 sessions of a registered actor, one of an unknown and one of a blocked actor at once → 100 ABIERTA in far fewer transactions, DESCONOCIDO, BLOQUEADO")
  void sessionsAtOnceShareStatements() throws Exception {
    String vendedor = Db.newActor(settings, "VENDEDOR");
    String bloqueado = Db.newActor(settings, "VENDEDOR");
    Db.update(settings, "UPDATE gestor.actores SET bloqueado = true WHERE id = ?", bloqueado);
    List<String> sesiones = new ArrayList<>();
    for (int i = 0; i < 100; i++) sesiones.add(UUID.randomUUID().toString());

    Context context = vertx.getOrCreateContext();
    Promise<List<Actores.Apertura>> answer = Promise.promise();
    context.runOnContext(v -> {
      List<Future<Actores.Apertura>> all = new ArrayList<>();
      for (String sesion : sesiones) all.add(actores.abrirSesion(sesion, vendedor, "huella-1"));
      all.add(actores.abrirSesion(UUID.randomUUID().toString(), "V-nadie-" + UUID.randomUUID(), "huella-1"));
      all.add(actores.abrirSesion(UUID.randomUUID().toString(), bloqueado, "huella-1"));
      Future.all(all).map(done -> all.stream().map(Future::result).toList()).onComplete(answer);
    });
    List<Actores.Apertura> aperturas = answer.future().await(30, TimeUnit.SECONDS);

    assertThat(aperturas.subList(0, 100)).containsOnly(Actores.Apertura.ABIERTA);
    assertThat(aperturas.subList(100, 102)).containsExactly(Actores.Apertura.DESCONOCIDO, Actores.Apertura.BLOQUEADO);
    assertThat(Db.count(settings, "SELECT count(*) FROM gestor.sesiones WHERE actor = ?", vendedor)).isEqualTo(100);
    assertThat(Db.count(settings, "SELECT count(*) FROM gestor.sesiones WHERE actor = ?", bloqueado)).isZero();
    // The rows one statement inserts share its transaction's id: one session per statement would give 100.
    assertThat(Db.count(settings, "SELECT count(DISTINCT xmin::text) FROM gestor.sesiones WHERE actor = ?", vendedor))
      .as("transactions that recorded the 100 sessions").isLessThanOrEqualTo(25);
  }
}
