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

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("A SEGURIDAD person lifts a revocation through the API, with a reason, and the lift is recorded")
class LevantamientoRevocacionTest {

  @Test
  @DisplayName("a SEGURIDAD actor lifts it with a motivo → the actor's requests pass, the audit row says who, when, why; "
    + "a VENDEDOR cannot")
  void levantamiento() throws Exception {
    // No stalled-reaction sweep during the test: the reaction below stays where it was put.
    Settings settings = SharedInfra.settings(Map.of("reaccion.reanudar-tras-ms", 600_000));
    try (RunningApp app = RunningApp.start(settings, Set.of(Role.GATEWAY, Role.GESTOR, Role.SEGURIDAD))) {
      TestTokens tokens = TestTokens.devIssuer(app.app().vertx());
      String vendedor = Db.newActor(settings, "VENDEDOR");
      String area = Db.newActor(settings, "SEGURIDAD");
      String otroVendedor = Db.newActor(settings, "VENDEDOR");
      UUID escritura = UUID.randomUUID();
      // A reaction stuck after the revoke, as when a peer keeps refusing the block.
      Db.update(settings, """
        INSERT INTO seguridad.registro_reacciones (id_escritura, actor, servicio, pedido, t_det, paso)
        VALUES (?::uuid, ?, 'pedidos', ?, now(), 'REVOCADA')""", escritura.toString(), vendedor, UUID.randomUUID().toString());
      Db.update(settings, """
        INSERT INTO seguridad.lista_revocacion (actor, revocado_en, vence_en, motivo, id_escritura)
        VALUES (?, now(), 'infinity', 'escritura indebida en pedidos', ?::uuid)""", vendedor, escritura.toString());
      String token = tokens.valid(vendedor, "VENDEDOR");
      String areaToken = tokens.valid(area, "SEGURIDAD");
      String levantar = app.gatewayUrl() + "/v1/revocaciones/" + vendedor + "/levantamiento";
      assertThat(sesion(app, token, "casa-levantamiento").status()).isEqualTo(403);

      assertThat(Http.post(levantar, tokens.valid(otroVendedor, "VENDEDOR"), "{\"motivo\":\"me lo quito yo\"}").status())
        .as("a VENDEDOR cannot lift").isEqualTo(403);
      assertThat(Http.post(levantar, token, "{\"motivo\":\"me lo quito yo\"}").status())
        .as("nor can the revoked actor itself").isEqualTo(403);
      assertThat(Http.post(levantar, areaToken, "{}").status()).as("without a motivo").isEqualTo(400);
      assertThat(Http.post(app.gatewayUrl() + "/v1/revocaciones/" + otroVendedor + "/levantamiento", areaToken,
        "{\"motivo\":\"por si acaso\"}").status()).as("an actor not revoked").isEqualTo(404);
      assertThat(Db.count(settings, "SELECT count(*) FROM seguridad.lista_revocacion WHERE actor = ?", vendedor)).isEqualTo(1);
      assertThat(sesion(app, token, "casa-levantamiento").status()).isEqualTo(403);

      Http.Response levantado = Http.post(levantar, areaToken, "{\"motivo\":\"falso positivo: pedido autorizado por teléfono\"}");
      assertThat(levantado.status()).as(levantado.body()).isEqualTo(200);
      JsonObject cuerpo = levantado.json();
      assertThat(cuerpo.getString("actor")).isEqualTo(vendedor);
      assertThat(cuerpo.getString("levantado_por")).isEqualTo(area);
      assertThat(cuerpo.getString("motivo")).isEqualTo("falso positivo: pedido autorizado por teléfono");
      assertThat(cuerpo.getJsonArray("reacciones_detenidas").getList()).containsExactly(escritura.toString());

      assertThat(sesion(app, token, "casa-levantamiento").status()).as("the actor's requests pass again").isEqualTo(201);
      assertThat(Db.strings(settings, """
        SELECT levantado_por || '|' || motivo || '|' || (levantado_en > now() - interval '1 minute')
        FROM seguridad.levantamientos WHERE actor = ?""", vendedor))
        .containsExactly(area + "|falso positivo: pedido autorizado por teléfono|true");
      assertThat(Db.strings(settings, "SELECT paso FROM seguridad.registro_reacciones WHERE id_escritura = ?::uuid",
        escritura.toString())).as("the lifted reaction takes no further step").isEqualTo(List.of("LEVANTADA"));
      assertThat(Http.post(levantar, areaToken, "{\"motivo\":\"otra vez\"}").status()).as("lifted already").isEqualTo(404);
    }
  }

  private static Http.Response sesion(RunningApp app, String token, String huella) {
    return Http.post(app.gatewayUrl() + "/v1/sesiones", token, "{\"huella\":\"" + huella + "\"}");
  }
}
