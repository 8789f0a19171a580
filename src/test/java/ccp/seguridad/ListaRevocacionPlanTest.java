package ccp.seguridad;

import ccp.platform.config.Settings;
import ccp.platform.db.PgClients;
import ccp.platform.db.PgConfig;
import ccp.support.Db;
import ccp.support.SharedInfra;
import io.vertx.core.Vertx;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lookup that every App request makes is planned once per connection, not once per request: its plan does not
 * depend on how many actors a batch asks for, and planning it cost PostgreSQL nearly three times its execution.
 */
@DisplayName("The Lista de revocación's lookup: one plan per connection, reused by every request")
class ListaRevocacionPlanTest {

  private static Vertx vertx;
  private static SqlClient sql;

  @BeforeAll
  static void start() {
    // One connection, so that the statement's plan cache read below is the lookups' own.
    Settings settings = SharedInfra.settings(Map.of("pg.pool-size", 1));
    vertx = Vertx.vertx();
    sql = PgClients.pipelined(vertx, PgConfig.of(settings, "gateway"));
  }

  @AfterAll
  static void stop() {
    vertx.close().await();
  }

  @Test
  @DisplayName("forty-one lookups on one connection: PostgreSQL reuses one generic plan instead of planning each of them")
  void theLookupReusesItsPlan() {
    Settings settings = SharedInfra.settings();
    String vigente = Db.newActor(settings, "VENDEDOR");
    String revocado = Db.newActor(settings, "VENDEDOR");
    Db.update(settings, "INSERT INTO seguridad.lista_revocacion (actor, revocado_en, vence_en, motivo, id_escritura)"
      + " VALUES (?, now(), 'infinity', 'prueba del plan', gen_random_uuid())", revocado);
    ListaRevocacion lista = new ListaRevocacion(sql, 64);
    for (int i = 0; i < 20; i++) {
      assertThat(lista.estado(vigente).await().revocado()).isFalse();
      assertThat(lista.estado(revocado).await().revocado()).isTrue();
    }
    assertThat(lista.estado("nadie-" + vigente).await().perfil()).as("an unknown actor has no profile").isNull();

    Row planes = sql.query("SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE '%lista_revocacion%'")
      .execute().await().iterator().next();
    assertThat(planes.getLong("custom_plans")).as("lookups planned for their own parameters").isLessThanOrEqualTo(5);
    assertThat(planes.getLong("generic_plans")).as("lookups that reused the generic plan").isGreaterThanOrEqualTo(30);
  }
}
