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
 * RepositorioCadena: the chain's guarded state ({@code cadena.cadenas}, {@code cadena.cadena_etapa}), RegistroSenales
 * ({@code cadena.registro_senales}) and the Bandeja ({@code cadena.bandeja}), and the only class that reads or writes
 * them; its statements are in {@link SqlCadena}, {@link SqlSenales} and {@link SqlBandeja}. Every effect is one
 * conditional statement: of two writers racing on a row (a confirmation and an escalation, two retries), the one whose
 * statement matches nothing lost. Its writers are the Coordinador (steps 2–12), the Reanudador (R6–R9) and the Bandeja
 * (R10–R11); the Monitor de la cadena (vigilancia) sees only {@link RegistroSenales} (R1–R5), Pedidos only
 * {@link CadenaDePedido}.
 * <p>
 * The Bandeja's items are here, not in a class of their own, because an escalation's item is part of its stage's
 * state: it is filed closed if the stage was confirmed meanwhile, read in the same statement (a confirmation between
 * two statements would leave it open for good); a late confirmation closes it; its retry re-arms the stage. Kept apart,
 * the Bandeja would be a second class reading the stages' state.
 */
final class RepositorioCadena implements RegistroSenales, CadenaDePedido {

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

  /** A finished order as Logística lists it, with its key in the list's order. */
  record PedidoListo(UUID pedido, OffsetDateTime recibido, JsonObject json) {}

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

  /** R9: escalates a page ({@link #PAGINA}) of the retries past their wait and answers them. */
  Future<List<Escalada>> escalarVencidas() {
    return sql.preparedQuery(SqlCadena.ESCALAR).execute(Tuple.of(PAGINA)).map(RepositorioCadena::escaladas);
  }

  /** A page ({@link #PAGINA}) of the escalations whose event is not acknowledged yet, oldest first. */
  Future<List<Escalada>> escaladasSinPublicar() {
    return sql.preparedQuery(SqlCadena.ESCALADAS_SIN_PUBLICAR).execute(Tuple.of(PAGINA)).map(RepositorioCadena::escaladas);
  }

  Future<Void> escaladasPublicadas(List<Escalada> escaladas) {
    if (escaladas.isEmpty()) return Future.succeededFuture();
    // Not Tuple.of(a, b): with an array second, Java picks of(Object, Object...) and spreads it into parameters.
    return sql.preparedQuery(SqlCadena.ESCALADAS_PUBLICADAS).execute(Tuple.tuple()
        .addValue(escaladas.stream().map(Escalada::pedido).toArray(UUID[]::new))
        .addValue(escaladas.stream().map(e -> e.etapa().name()).toArray(String[]::new)))
      .mapEmpty();
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

  @Override
  public Future<String> huella(List<UUID> pedidos) {
    return sql.preparedQuery(SqlCadena.HUELLA_DE_PEDIDOS).execute(Tuple.of(pedidos.toArray(UUID[]::new)))
      .map(rows -> rows.iterator().next().getString("huella"));
  }

  @Override
  public Future<Optional<JsonObject>> de(UUID pedido) {
    return sql.preparedQuery(SqlCadena.CADENA_DE_PEDIDO).execute(Tuple.of(pedido)).map(rows -> {
      if (rows.size() == 0) return Optional.empty();
      Row primera = rows.iterator().next();
      JsonArray etapas = new JsonArray();
      for (Row row : rows) {
        if (row.getString("etapa") == null) continue;
        etapas.add(new JsonObject()
          .put("etapa", row.getString("etapa"))
          .put("estado", row.getString("estado"))
          .put("intento", row.getInteger("intento"))
          .put("en_curso_desde", text(row.getOffsetDateTime("en_curso_desde")))
          .put("reintento_desde", text(row.getOffsetDateTime("reintento_desde")))
          .put("actualizada_en", text(row.getOffsetDateTime("actualizada_en"))));
      }
      return Optional.of(new JsonObject()
        .put("estado", primera.getString("cadena"))
        .put("iniciada_en", text(primera.getOffsetDateTime("iniciada_en")))
        .put("terminada_en", text(primera.getOffsetDateTime("terminada_en")))
        .put("etapas", etapas));
    });
  }

  /** Logística's finished orders after the order {@code despuesDe} that arrived at {@code desde}, oldest first. */
  Future<List<PedidoListo>> pedidosListos(OffsetDateTime desde, UUID despuesDe, int limite) {
    return sql.preparedQuery(SqlCadena.PEDIDOS_LISTOS).execute(Tuple.of(desde, despuesDe, limite)).map(rows -> {
      List<PedidoListo> listos = new ArrayList<>();
      for (Row row : rows) {
        listos.add(new PedidoListo(row.getUUID("pedido"), row.getOffsetDateTime("recibido_en"), new JsonObject()
          .put("pedido", row.getUUID("pedido").toString())
          .put("actor", row.getString("actor"))
          .put("lineas", row.getJsonArray("lineas"))
          .put("terminada_en", text(row.getOffsetDateTime("terminada_en")))
          .put("recibido_en", text(row.getOffsetDateTime("recibido_en")))));
      }
      return listos;
    });
  }

  /** R11: files an escalation in the Bandeja once per id; answers when it was filed, empty if it already was. */
  Future<Optional<OffsetDateTime>> archivarEscalada(UUID id, UUID pedido, Etapa etapa, JsonObject detalle) {
    return sql.preparedQuery(SqlBandeja.ITEM_ESCALADA).execute(Tuple.of(id, pedido, etapa.name(), detalle))
      .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getOffsetDateTime("abierta_en")));
  }

  /** Files a dead letter of {@code cola.fallidos} in the Bandeja once per id. */
  Future<Void> archivarFallido(UUID id, JsonObject detalle) {
    return sql.preparedQuery(SqlBandeja.FALLIDO).execute(Tuple.of(id, detalle)).mapEmpty();
  }

  /** Why a retried item closed by itself: after who retried it, its {@code cierre} says so. */
  static final String ETAPA_VOLVIO = "la etapa volvió y confirmó";

  /** The stage confirmed: its escalations' items close, an open one with {@code motivo}, a retried one as {@link #ETAPA_VOLVIO}. */
  Future<Void> cerrarPorConfirmacion(UUID pedido, Etapa etapa, String motivo) {
    return sql.preparedQuery(SqlBandeja.CERRAR_CONFIRMADA).execute(Tuple.of(pedido, etapa.name(), motivo, ETAPA_VOLVIO)).mapEmpty();
  }

  /** Whether this call closed the open item. */
  Future<Boolean> cerrarItem(UUID id, String motivo) {
    return sql.preparedQuery(SqlBandeja.CERRAR).execute(Tuple.of(id, motivo)).map(rows -> rows.size() == 1);
  }

  /**
   * The Bandeja's retry: empty when the stage is no longer escalated (confirmed late, or retried already) or its chain
   * stopped.
   */
  Future<Optional<Reintento>> reintentarEscalada(UUID pedido, Etapa etapa, int esperaMs) {
    return sql.preparedQuery(SqlBandeja.REINTENTAR_ESCALADA).execute(Tuple.of(pedido, etapa.name(), esperaMs))
      .map(RepositorioCadena::reintento);
  }

  /** Whether this call took the open escalation and marked it REINTENTADO. */
  Future<Boolean> marcarReintento(UUID id, String quien) {
    return sql.preparedQuery(SqlBandeja.MARCAR_REINTENTO).execute(Tuple.of(id, "reintentado por " + quien))
      .map(rows -> rows.size() == 1);
  }

  /** Changes whenever an item enters the Bandeja or leaves its open ones (the console's live list). */
  Future<String> huellaBandeja() {
    return sql.query(SqlBandeja.HUELLA).execute().map(rows -> rows.iterator().next().getString("huella"));
  }

  /** The chain of the item's order, with deadlines and signals; empty when the item has no order or it has no chain. */
  Future<Optional<JsonObject>> cadenaDelItem(UUID item) {
    return sql.preparedQuery(SqlBandeja.CADENA_DEL_ITEM).execute(Tuple.of(item))
      .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getJsonObject("cadena")));
  }

  Future<Long> abiertosBandeja() {
    return sql.query(SqlBandeja.ABIERTOS).execute().map(rows -> rows.iterator().next().getLong("abiertos"));
  }

  Future<JsonArray> itemsBandeja(String estado, int limit) {
    return sql.preparedQuery(SqlBandeja.LISTAR).execute(Tuple.of(estado, limit)).map(rows -> {
      JsonArray items = new JsonArray();
      for (Row row : rows) items.add(itemJson(row));
      return items;
    });
  }

  Future<Optional<JsonObject>> itemBandeja(UUID id) {
    return sql.preparedQuery(SqlBandeja.LEER).execute(Tuple.of(id))
      .map(rows -> rows.size() == 0 ? Optional.<JsonObject>empty() : Optional.of(itemJson(rows.iterator().next())));
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

  /** A Bandeja item as its API shows it. */
  private static JsonObject itemJson(Row row) {
    return new JsonObject()
      .put("id", row.getUUID("id").toString())
      .put("tipo", row.getString("tipo"))
      .put("pedido", row.getUUID("pedido") == null ? null : row.getUUID("pedido").toString())
      .put("etapa", row.getString("etapa"))
      .put("detalle", row.getJsonObject("detalle"))
      .put("estado", row.getString("estado"))
      .put("abierta_en", text(row.getOffsetDateTime("abierta_en")))
      .put("cerrada_en", text(row.getOffsetDateTime("cerrada_en")))
      .put("cierre", row.getString("cierre"));
  }

  private static String text(OffsetDateTime at) {
    return at == null ? null : at.toInstant().toString();
  }
}
