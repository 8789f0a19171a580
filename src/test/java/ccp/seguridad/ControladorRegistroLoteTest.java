package ccp.seguridad;

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
import io.vertx.sqlclient.SqlClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("The Verificador's device lookups (A5) made while one is in flight share one statement; each vendedor is answered once, first uses and races included")
class ControladorRegistroLoteTest {

  private static final int LOTE_MAX = 256;

  private static Settings settings;
  private static Vertx vertx;
  private static SqlClient sql;

  @BeforeAll
  static void start() {
    settings = SharedInfra.settings();
    Migrations.migrate(PgConfig.of(settings, "seguridad"), settings.flag("demo.seed"), List.of("seguridad"));
    vertx = Vertx.vertx();
    sql = PgClients.pipelined(vertx, PgConfig.of(settings, "seguridad"));
  }

  @AfterAll
  static void stop() {
    vertx.close().await();
  }

  @Test
  @DisplayName("200 lookups at once, first uses and known vendedores: a first use registers what it presented, a known one answers its own; far fewer transactions than lookups")
  void lookupsAtOnceShareStatements() throws Exception {
    String prefijo = "V-lote-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    List<String> conocidos = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      conocidos.add(prefijo + "c" + i);
      Db.update(settings, "INSERT INTO seguridad.registro_dispositivos (vendedor, huella, origen) VALUES (?, ?, 'CAMBIO')",
        prefijo + "c" + i, "registrada-" + i);
    }
    List<String> nuevos = new ArrayList<>();
    for (int i = 0; i < 180; i++) nuevos.add(prefijo + "n" + i);

    ControladorRegistro registro = new ControladorRegistro(sql, LOTE_MAX);
    Context context = vertx.getOrCreateContext();
    List<String> respuestas = onContext(context, () -> {
      List<Future<String>> all = new ArrayList<>();
      for (int i = 0; i < conocidos.size(); i++) all.add(registro.vigente(conocidos.get(i), "presentada-c" + i));
      for (int i = 0; i < nuevos.size(); i++) all.add(registro.vigente(nuevos.get(i), "presentada-n" + i));
      return Future.all(all).map(done -> all.stream().map(Future::result).toList());
    });

    for (int i = 0; i < conocidos.size(); i++) assertThat(respuestas.get(i)).as(conocidos.get(i)).isEqualTo("registrada-" + i);
    for (int i = 0; i < nuevos.size(); i++) {
      assertThat(respuestas.get(conocidos.size() + i)).as(nuevos.get(i)).isEqualTo("presentada-n" + i);
    }
    assertThat(Db.count(settings, "SELECT count(*) FROM seguridad.registro_dispositivos WHERE vendedor LIKE ? AND origen = 'PRIMER_USO'",
      prefijo + "n%")).isEqualTo(nuevos.size());
    // The rows one statement inserts share its transaction's id: one lookup per statement would give 180.
    long transacciones = Db.count(settings,
      "SELECT count(DISTINCT xmin::text) FROM seguridad.registro_dispositivos WHERE vendedor LIKE ?", prefijo + "n%");
    assertThat(transacciones).as("transactions that registered the 180 first uses").isLessThanOrEqualTo(nuevos.size() / 4);
  }

  @Test
  @DisplayName("two Verificadores racing on the first uses of the same vendedores, each presenting its own fingerprint: both answer the one registered, once per vendedor")
  void racingFirstUsesAgree() throws Exception {
    String prefijo = "V-carrera-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    int vendedores = 60;
    ControladorRegistro uno = new ControladorRegistro(sql, LOTE_MAX);
    ControladorRegistro otro = new ControladorRegistro(PgClients.pipelined(vertx, PgConfig.of(settings, "seguridad")), LOTE_MAX);
    Context primero = vertx.getOrCreateContext();
    Context segundo = vertx.getOrCreateContext();
    Future<List<String>> deUno = onContextAsync(primero, () -> lookups(uno, prefijo, vendedores, "uno"));
    Future<List<String>> deOtro = onContextAsync(segundo, () -> lookups(otro, prefijo, vendedores, "otro"));
    List<String> a = deUno.await(30, TimeUnit.SECONDS);
    List<String> b = deOtro.await(30, TimeUnit.SECONDS);

    assertThat(a).isEqualTo(b);
    for (int i = 0; i < vendedores; i++) {
      assertThat(a.get(i)).isIn("uno-" + i, "otro-" + i);
      assertThat(Db.count(settings, "SELECT count(*) FROM seguridad.registro_dispositivos WHERE vendedor = ? AND huella = ?",
        prefijo + i, a.get(i))).isEqualTo(1);
    }
  }

  private static Future<List<String>> lookups(ControladorRegistro registro, String prefijo, int vendedores, String quien) {
    List<Future<String>> all = new ArrayList<>();
    for (int i = 0; i < vendedores; i++) all.add(registro.vigente(prefijo + i, quien + "-" + i));
    return Future.all(all).map(done -> all.stream().map(Future::result).toList());
  }

  private static <T> T onContext(Context context, java.util.function.Supplier<Future<T>> action) throws Exception {
    return onContextAsync(context, action).await(30, TimeUnit.SECONDS);
  }

  private static <T> Future<T> onContextAsync(Context context, java.util.function.Supplier<Future<T>> action) {
    Promise<T> answer = Promise.promise();
    context.runOnContext(v -> action.get().onComplete(answer));
    return answer.future();
  }
}
