package ccp.cadena;

import io.vertx.core.Future;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * RegistroSenales (R1–R5) for the Monitor de la cadena (vigilancia): the owner of {@code cadena.registro_senales}; it
 * reads the stages' state in the same statements ({@link SqlSenales}) and writes only the signals.
 */
final class RepositorioSenales implements RegistroSenales {

  private final SqlClient sql;

  RepositorioSenales(SqlClient sql) {
    this.sql = sql;
  }

  /** Pages until one is short: every stage past its deadline now is signalled by this call. */
  @Override
  public Future<Void> senalarVencidas() {
    return sql.preparedQuery(SqlSenales.SENALAR_VENCIDAS).execute(Tuple.of(PAGINA))
      .compose(rows -> rows.rowCount() < PAGINA ? Future.succeededFuture() : senalarVencidas());
  }

  @Override
  public Future<Integer> senalarSinRespuesta(Etapa etapa) {
    return sql.preparedQuery(SqlSenales.SENALAR_SIN_RESPUESTA).execute(Tuple.of(etapa.name(), PAGINA))
      .compose(rows -> rows.rowCount() < PAGINA
        ? Future.succeededFuture(rows.rowCount())
        : senalarSinRespuesta(etapa).map(mas -> rows.rowCount() + mas));
  }

  @Override
  public Future<List<Senal>> senalesPorPublicar() {
    return sql.preparedQuery(SqlSenales.SENALES_POR_PUBLICAR).execute(Tuple.of(PAGINA)).map(rows -> {
      List<Senal> senales = new ArrayList<>();
      for (Row row : rows) {
        senales.add(new Senal(row.getUUID("pedido"), Etapa.valueOf(row.getString("etapa")), row.getInteger("intento"),
          row.getString("motivo"), row.getString("actor"), row.getOffsetDateTime("en_curso_desde")));
      }
      return senales;
    });
  }

  @Override
  public Future<Map<Senal, OffsetDateTime>> senalesPublicadas(List<Senal> senales) {
    if (senales.isEmpty()) return Future.succeededFuture(Map.of());
    return sql.preparedQuery(SqlSenales.SENALES_PUBLICADAS).execute(Tuple.of(
        senales.stream().map(Senal::pedido).toArray(UUID[]::new),
        senales.stream().map(x -> x.etapa().name()).toArray(String[]::new),
        senales.stream().map(Senal::intento).toArray(Integer[]::new)))
      .map(rows -> {
        Map<String, OffsetDateTime> marcadas = new HashMap<>();
        for (Row row : rows) {
          marcadas.put(row.getUUID("pedido") + ":" + row.getString("etapa") + ":" + row.getInteger("intento"),
            row.getOffsetDateTime("publicada_en"));
        }
        Map<Senal, OffsetDateTime> publicadas = new HashMap<>();
        for (Senal senal : senales) {
          OffsetDateTime en = marcadas.get(senal.pedido() + ":" + senal.etapa().name() + ":" + senal.intento());
          if (en != null) publicadas.put(senal, en);
        }
        return publicadas;
      });
  }
}
