package ccp.cadena;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * RepositorioCadena: the order chain's guarded state ({@code cadena.cadenas}, {@code cadena.cadena_etapa}), and the only
 * class that writes it; its statements are in {@link SqlCadena}. Every effect is one conditional statement: of two
 * writers racing on a row (a confirmation and an escalation, two retries), the one whose statement matches nothing
 * lost. Its callers are the Coordinador (steps 2–12), the Reanudador (R6–R9) and the Bandeja's retry of an escalated
 * stage (R10), which re-arms the stage. The other tables of the schema have an owner each: RegistroSenales
 * ({@code cadena.registro_senales}) {@link RepositorioSenales}, the Bandeja ({@code cadena.bandeja})
 * {@link RepositorioBandeja}; Logística's list ({@link RepositorioLogistica}) and Pedidos' view of an order's chain
 * ({@link RepositorioCadenaDePedido}) only read.
 */
final class RepositorioCadena {

  /** The stage in flight and its attempt: what a command must carry. */
  record EnCurso(Etapa etapa, int intento) {}

  /** What a confirmation moved: the confirmed stage's state before, and what the next stage needs. */
  record Avance(EstadoEtapa antes, OffsetDateTime reintentoDesde, int intento, JsonArray lineas, OffsetDateTime iniciada) {}

  /** A confirmed stage and the one that follows it ({@code null} after the last). */
  record Confirmacion(UUID pedido, Etapa hecha, Etapa siguiente) {}

  /** A chain to start. */
  record Inicio(UUID pedido, String actor, JsonArray lineas) {}

  /** An order's chain and each of its stages' state and attempt. */
  record Situacion(EstadoCadena cadena, JsonArray lineas, Map<Etapa, EstadoEtapa> estados, Map<Etapa, Integer> intentos) {}

  /** A stage's new attempt and what its command carries. */
  record Reintento(int intento, JsonArray lineas) {}

  /** An escalated stage: its last attempt, when its stopped attempt began and when its retry began. */
  record Escalada(UUID pedido, Etapa etapa, int intento, OffsetDateTime enCursoDesde, OffsetDateTime reintentoDesde) {}

  private final SqlClient sql;

  RepositorioCadena(SqlClient sql) {
    this.sql = sql;
  }

  /** Answers, for each order, the stages in flight whose commands must be sent (none for a chain past them). */
  Future<Map<UUID, List<EnCurso>>> iniciar(List<Inicio> lote, long plazoMs) {
    JsonArray entrada = new JsonArray();
    for (Inicio i : lote) entrada.add(new JsonObject().put("pedido", i.pedido().toString()).put("actor", i.actor()).put("lineas", i.lineas()));
    return sql.preparedQuery(SqlCadena.INICIAR).execute(Tuple.of(entrada, plazoMs)).map(rows -> {
      Map<UUID, List<EnCurso>> enCurso = new HashMap<>();
      for (Row row : rows) {
        enCurso.computeIfAbsent(row.getUUID("pedido"), k -> new ArrayList<>())
          .add(new EnCurso(Etapa.valueOf(row.getString("etapa")), row.getInteger("intento")));
      }
      return enCurso;
    });
  }

  /** Answers each confirmation that moved its chain; one that the chain had moved past already has none. */
  Future<Map<UUID, Avance>> avanzar(List<Confirmacion> lote, long plazoMs) {
    JsonArray entrada = new JsonArray();
    for (Confirmacion c : lote) {
      entrada.add(new JsonObject().put("pedido", c.pedido().toString()).put("hecha", c.hecha().name())
        .put("siguiente", c.siguiente() == null ? null : c.siguiente().name()));
    }
    return sql.preparedQuery(SqlCadena.AVANZAR).execute(Tuple.of(entrada, plazoMs)).map(rows -> {
      Map<UUID, Avance> avances = new HashMap<>();
      for (Row row : rows) {
        avances.put(row.getUUID("pedido"), new Avance(EstadoEtapa.valueOf(row.getString("antes")),
          row.getOffsetDateTime("reintento_desde"), row.getInteger("intento"), row.getJsonArray("lineas"),
          row.getOffsetDateTime("iniciada_en")));
      }
      return avances;
    });
  }

  Future<Boolean> rechazar(UUID pedido, Etapa etapa) {
    return sql.preparedQuery(SqlCadena.RECHAZAR).execute(Tuple.of(pedido, etapa.name())).map(rows -> rows.size() == 1);
  }

  Future<Optional<Situacion>> situacion(UUID pedido) {
    return sql.preparedQuery(SqlCadena.SITUACION).execute(Tuple.of(pedido)).map(rows -> {
      if (rows.size() == 0) return Optional.empty();
      Map<Etapa, EstadoEtapa> estados = new EnumMap<>(Etapa.class);
      Map<Etapa, Integer> intentos = new EnumMap<>(Etapa.class);
      EstadoCadena cadena = null;
      JsonArray lineas = null;
      for (Row row : rows) {
        cadena = EstadoCadena.valueOf(row.getString("cadena"));
        lineas = row.getJsonArray("lineas");
        Etapa etapa = Etapa.valueOf(row.getString("etapa"));
        estados.put(etapa, EstadoEtapa.valueOf(row.getString("estado")));
        intentos.put(etapa, row.getInteger("intento"));
      }
      return Optional.of(new Situacion(cadena, lineas, estados, intentos));
    });
  }

  Future<Void> detener(UUID pedido, String actor) {
    return sql.preparedQuery(SqlCadena.DETENER).execute(Tuple.of(pedido, actor)).mapEmpty();
  }

  /** R6–R7; empty when the attempt moved on (confirmed, or retried by another signal) or its chain stopped. */
  Future<Optional<Reintento>> reintentar(UUID pedido, Etapa etapa, int intento, int esperaMs) {
    return sql.preparedQuery(SqlCadena.REINTENTAR).execute(Tuple.of(pedido, etapa.name(), intento, esperaMs))
      .map(RepositorioCadena::reintento);
  }

  /** R9: escalates a page ({@link RegistroSenales#PAGINA}) of the retries past their wait and answers them. */
  Future<List<Escalada>> escalarVencidas() {
    return sql.preparedQuery(SqlCadena.ESCALAR).execute(Tuple.of(RegistroSenales.PAGINA)).map(RepositorioCadena::escaladas);
  }

  /** A page ({@link RegistroSenales#PAGINA}) of the escalations whose event is not acknowledged yet, oldest first. */
  Future<List<Escalada>> escaladasSinPublicar() {
    return sql.preparedQuery(SqlCadena.ESCALADAS_SIN_PUBLICAR).execute(Tuple.of(RegistroSenales.PAGINA)).map(RepositorioCadena::escaladas);
  }

  Future<Void> escaladasPublicadas(List<Escalada> escaladas) {
    if (escaladas.isEmpty()) return Future.succeededFuture();
    // Not Tuple.of(a, b): with an array second, Java picks of(Object, Object...) and spreads it into parameters.
    return sql.preparedQuery(SqlCadena.ESCALADAS_PUBLICADAS).execute(Tuple.tuple()
        .addValue(escaladas.stream().map(Escalada::pedido).toArray(UUID[]::new))
        .addValue(escaladas.stream().map(e -> e.etapa().name()).toArray(String[]::new)))
      .mapEmpty();
  }

  /**
   * The Bandeja's retry: empty when the stage is no longer escalated (confirmed late, or retried already) or its chain
   * stopped.
   */
  Future<Optional<Reintento>> reintentarEscalada(UUID pedido, Etapa etapa, int esperaMs) {
    return sql.preparedQuery(SqlBandeja.REINTENTAR_ESCALADA).execute(Tuple.of(pedido, etapa.name(), esperaMs))
      .map(RepositorioCadena::reintento);
  }

  private static Optional<Reintento> reintento(RowSet<Row> rows) {
    if (rows.size() == 0) return Optional.empty();
    Row row = rows.iterator().next();
    return Optional.of(new Reintento(row.getInteger("intento"), row.getJsonArray("lineas")));
  }

  private static List<Escalada> escaladas(RowSet<Row> rows) {
    List<Escalada> escaladas = new ArrayList<>();
    for (Row row : rows) {
      escaladas.add(new Escalada(row.getUUID("pedido"), Etapa.valueOf(row.getString("etapa")), row.getInteger("intento"),
        row.getOffsetDateTime("en_curso_desde"), row.getOffsetDateTime("reintento_desde")));
    }
    return escaladas;
  }

  /** A time as the APIs show it: an ISO instant, or null. */
  static String text(OffsetDateTime at) {
    return at == null ? null : at.toInstant().toString();
  }
}
