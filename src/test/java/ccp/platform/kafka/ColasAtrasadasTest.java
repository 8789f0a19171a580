package ccp.platform.kafka;

import ccp.app.Role;
import ccp.platform.config.Settings;
import ccp.support.Api;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A consumer behind a door kept in its group but stuck behind a lock the test holds on its tables, so its queue fills
 * while the door's own statement stays quick: before the doors read the consumers' lag they accepted every request,
 * each to wait behind the stuck consumer. Each door is refused once the queue keeps a record waiting past its bound,
 * accepts again once the queue drains, and nothing it accepted is lost.
 */
@DisplayName("The doors refuse while the consumers behind them run late: what is accepted is done, nothing is lost")
class ColasAtrasadasTest {

  /** The Monitor is not run, so no stage is retried meanwhile and the lag is the queue's alone. */
  @Test
  @DisplayName("Facturación hung → orders 503 overloaded naming its queue within seconds; released → 201, every accepted order finished")
  void pedidosMientrasLaCadenaVaAtrasada() throws Exception {
    Settings cluster = SharedInfra.settings(Map.of("pedidos.admission-max-chain-lag-ms", 1_000));
    EnumSet<Role> roles = EnumSet.allOf(Role.class);
    roles.remove(Role.VIGILANCIA);
    try (RunningApp app = RunningApp.start(cluster, roles)) {
      Api api = new Api(app.gatewayUrl(), TestTokens.devIssuer(app.app().vertx()));
      String vendedor = Db.newActor(cluster, "VENDEDOR");
      List<String> aceptados = new ArrayList<>();
      Supplier<Http.Response> pedir = () -> {
        Http.Response r = api.crearPedido(vendedor, Api.pedido("T-1", "P-1", 1));
        if (r.status() == 201) aceptados.add(r.json().getString("pedido"));
        return r;
      };
      // The shared broker may hold other tests' records in these queues: the chain first drains them.
      await("an order accepted").atMost(Duration.ofSeconds(60)).until(pedir::get, r -> r.status() == 201);
      await("its chain finished").atMost(Duration.ofSeconds(30)).until(() -> enCurso(cluster, aceptados) == 0);

      Http.Response rechazo = rechazadoMientrasBloqueada(cluster,
        "LOCK TABLE facturacion.etapa_procesada, facturacion.facturas IN ACCESS EXCLUSIVE MODE", pedir, aceptados::size,
        "the order chain's queue cola.etapa.facturacion");

      await("orders accepted again").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
        .until(() -> pedir.get().status() == 201);
      await("every accepted order's chain finished").atMost(Duration.ofSeconds(60))
        .until(() -> enCurso(cluster, aceptados) == 0);
      assertThat(Db.count(cluster, "SELECT count(*) FROM cadena.cadenas WHERE pedido::text = ANY (string_to_array(?, ','))",
        String.join(",", aceptados))).as("every accepted order has its chain").isEqualTo(aceptados.size());
    }
  }

  /** Each session after the first comes from a device of its own, so each accepted one must raise its alert. */
  @Test
  @DisplayName("the Verificador hung → sessions 503 overloaded naming its queue; released → 201, every accepted session's alert raised")
  void sesionesMientrasElVerificadorVaAtrasado() throws Exception {
    Settings cluster = SharedInfra.settings(Map.of("gestor.admission-max-verificador-lag-ms", 1_000));
    try (RunningApp app = RunningApp.start(cluster, Set.of(Role.GATEWAY, Role.GESTOR, Role.SEGURIDAD))) {
      String vendedor = Db.newActor(cluster, "VENDEDOR");
      String token = TestTokens.devIssuer(app.app().vertx()).valid(vendedor, "VENDEDOR");
      int[] ajenas = {0};
      Supplier<Http.Response> abrir = () -> {
        Http.Response r = Http.post(app.gatewayUrl() + "/v1/sesiones", token, "{\"huella\":\"dispositivo-ajeno-" + ajenas[0] + "\"}");
        if (r.status() == 201) ajenas[0]++;
        return r;
      };
      // The first session registers its device: the later ones, each from another, raise one alert each.
      await("a session accepted").atMost(Duration.ofSeconds(60)).until(abrir::get, r -> r.status() == 201);
      ajenas[0] = 1;
      await("its device registered").atMost(Duration.ofSeconds(30)).until(() -> Db.count(cluster,
        "SELECT count(*) FROM seguridad.registro_dispositivos WHERE vendedor = ?", vendedor) == 1);

      Http.Response rechazo = rechazadoMientrasBloqueada(cluster,
        "LOCK TABLE seguridad.registro_dispositivos IN ACCESS EXCLUSIVE MODE", abrir, () -> ajenas[0],
        "the Verificador's queue cola.verificador");

      await("sessions accepted again").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
        .until(() -> abrir.get().status() == 201);
      await("every accepted session from another device raised its alert").atMost(Duration.ofSeconds(30))
        .until(() -> Db.count(cluster, "SELECT count(*) FROM seguridad.avisos WHERE actor = ?", vendedor) == ajenas[0] - 1);
    }
  }

  /**
   * Holds {@code lock} while asking with {@code pedir} every 100 ms until a 503 names {@code cola}, and releases it;
   * that answer. Another queue of the door may run a second late meanwhile on a loaded machine: its refusals are asked
   * again, as a client would.
   */
  private static Http.Response rechazadoMientrasBloqueada(Settings cluster, String lock, Supplier<Http.Response> pedir,
                                                       Supplier<Integer> aceptados, String cola) throws SQLException {
    Http.Response rechazo;
    try (Connection bloqueo = Db.superuser(cluster)) {
      bloqueo.setAutoCommit(false);
      try (Statement s = bloqueo.createStatement()) {
        s.execute(lock);
      }
      int antes = aceptados.get();
      long desde = System.nanoTime();
      try {
        rechazo = await("a request refused").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
          .until(pedir::get, r -> r.status() == 503 && r.body().contains(cola));
        System.out.printf("consumer hung (%s): the first refusal %d ms after the lock, %d accepted meanwhile%n",
          lock, (System.nanoTime() - desde) / 1_000_000, aceptados.get() - antes);
      } finally {
        bloqueo.rollback();
      }
    }
    assertThat(rechazo.json().getString("error")).isEqualTo("overloaded");
    assertThat(rechazo.json().getString("message")).contains(cola, "over the bound of 1000 ms");
    assertThat(rechazo.headers().firstValue("Retry-After")).hasValue("1");
    return rechazo;
  }

  private static long enCurso(Settings cluster, List<String> pedidos) {
    return Db.count(cluster, "SELECT count(*) FROM cadena.cadenas WHERE estado = 'EN_CURSO'"
      + " AND pedido::text = ANY (string_to_array(?, ','))", String.join(",", pedidos));
  }
}
