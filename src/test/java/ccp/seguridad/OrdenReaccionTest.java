package ccp.seguridad;

import ccp.app.Role;
import ccp.support.Api;
import ccp.support.Db;
import ccp.support.Http;
import ccp.support.RunningApp;
import ccp.support.SharedInfra;
import ccp.support.TestTokens;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.EnumSet;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("Flow B (B8–B14): the reaction revokes, then blocks, then compensates, then notifies, within ASR-2's 5 s")
class OrdenReaccionTest {

  private static final Duration PRESUPUESTO_ASR2 = Duration.ofSeconds(5);

  private static RunningApp app;
  private static Api api;

  @BeforeAll
  static void start() throws Exception {
    app = RunningApp.start(SharedInfra.settings(), EnumSet.allOf(Role.class));
    api = new Api(app.gatewayUrl(), TestTokens.signedWith(app.app().vertx(), SharedInfra.JWT_SECRET));
  }

  @AfterAll
  static void stop() throws Exception {
    app.close();
  }

  @Test
  @DisplayName("the database's own clock orders revocado_en ≤ block ≤ anulado_en ≤ entregado_en, all within t_det + 5 s")
  void stepsHappenInTheViewsOrder() {
    String consulta = Db.newActor(app.settings(), "CONSULTA");
    // An open session, so that the block (B10) leaves a timestamp: gestor.actores has none of its own.
    assertThat(Http.post(app.gatewayUrl() + "/v1/sesiones", api.token(consulta), "{\"huella\":\"consulta-orden\"}").status())
      .isEqualTo(201);
    String pedido = api.pedidoAceptado(consulta);

    await("the reaction NOTIFICADA and its alert delivered").atMost(Duration.ofSeconds(15)).until(() ->
      Db.strings(app.settings(), "SELECT paso FROM seguridad.registro_reacciones WHERE actor = ?", consulta).equals(List.of("NOTIFICADA"))
        && Db.count(app.settings(), "SELECT count(*) FROM seguridad.avisos WHERE actor = ? AND entregado_en IS NOT NULL", consulta) == 1);

    // Every instant below but t_det is the one PostgreSQL server's now(); t_det is the Detector's clock on this host.
    Instant tDet = instante("SELECT t_det FROM seguridad.registro_reacciones WHERE actor = ?", consulta);
    Instant revocado = instante("SELECT revocado_en FROM seguridad.lista_revocacion WHERE actor = ?", consulta);
    Instant bloqueado = instante("SELECT terminada_en FROM gestor.sesiones WHERE actor = ? AND motivo_fin = 'BLOQUEO'", consulta);
    Instant anulado = instante("SELECT anulado_en FROM pedidos.pedidos WHERE id = ?::uuid", pedido);
    Instant entregado = instante("SELECT entregado_en FROM seguridad.avisos WHERE actor = ? AND tipo = 'ACCESO_INDEBIDO'", consulta);
    Instant terminada = instante("SELECT terminada_en FROM seguridad.registro_reacciones WHERE actor = ?", consulta);

    assertThat(revocado).as("revoked in the Lista de revocación after the detection").isAfterOrEqualTo(tDet);
    assertThat(bloqueado).as("blocked in the Gestor (B10) after revoked").isAfterOrEqualTo(revocado);
    assertThat(anulado).as("order annulled in Pedidos (B11) after blocked").isAfterOrEqualTo(bloqueado);
    assertThat(entregado).as("security notified (B12–B14) after the order annulled").isAfterOrEqualTo(anulado);
    assertThat(terminada).as("reaction recorded NOTIFICADA after the order annulled").isAfterOrEqualTo(anulado);
    assertThat(Duration.between(tDet, entregado)).as("t_det → alert delivered").isLessThanOrEqualTo(PRESUPUESTO_ASR2);
    assertThat(Duration.between(tDet, terminada)).as("t_det → reaction finished").isLessThanOrEqualTo(PRESUPUESTO_ASR2);
  }

  /** The one timestamp the query selects, read as JSON text so the server's offset travels with it. */
  private static Instant instante(String query, String param) {
    List<String> values = Db.strings(app.settings(), "SELECT to_json(t) #>> '{}' FROM (" + query + ") AS q(t)", param);
    assertThat(values).as(query).hasSize(1).doesNotContainNull();
    return OffsetDateTime.parse(values.get(0)).toInstant();
  }
}
