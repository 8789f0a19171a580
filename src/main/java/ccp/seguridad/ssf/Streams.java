package ccp.seguridad.ssf;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;
import io.vertx.sqlclient.templates.SqlTemplate;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The streams and their SETs ({@code seguridad.ssf_flujos}, {@code seguridad.ssf_entregas}), their one owner. Every
 * change is one statement: a PATCH merges in SQL, a push is claimed for a lease before it is sent, and each outcome
 * is recorded only on a SET not yet delivered — so two seguridad processes never send one SET together, and none is
 * sent again after its 202.
 */
final class Streams {

  /** A SET to push (its claims, signed when sent), claimed by this process until its lease ends. */
  record Reclamada(String flujo, String jti, String claims, int intentos, Instant creadaEn, String endpointUrl, String authorizationHeader) {}

  /** One SET for one stream, as the Notificador stores it with its alert: its claims, exactly as they will be signed. */
  record Entrega(String flujo, String jti, String tipoEvento, String claims) {}

  /** A stream with SETs to push: whether one is due now (else all wait for their back-off). */
  record Pendiente(String flujo, boolean vencida) {}

  /**
   * What a poll answered: the SETs not yet acknowledged (their claims, at most the maximum, to sign) and whether more
   * wait, and the acknowledged ones.
   */
  record Sondeo(Map<String, String> claims, boolean hayMas, List<Instant> reconocidas) {}

  private static final String SELECT = "SELECT " + Stream.COLUMNAS + " FROM seguridad.ssf_flujos";
  /** A stream is its creator's: only the client that created it reads, changes, polls or deletes it (SSF 1.0 §8). */
  private static final String DE_SU_DUENO = " WHERE id_flujo = $1 AND creado_por = $2";
  /**
   * Created unless its client already holds {@code porDueno} streams or the system {@code maximo}: the client's count is a row
   * of its own, raised in the same statement, so parallel requests of one client cannot pass its quota together.
   */
  private static final String CREAR = """
    WITH cupo AS (
           INSERT INTO seguridad.ssf_cupos AS c (dueno, flujos)
           SELECT #{creadoPor}, 1 WHERE (SELECT count(*) FROM seguridad.ssf_flujos) < #{maximo}
           ON CONFLICT (dueno) DO UPDATE SET flujos = c.flujos + 1
             WHERE c.flujos < #{porDueno} AND (SELECT count(*) FROM seguridad.ssf_flujos) < #{maximo}
           RETURNING dueno)
    INSERT INTO seguridad.ssf_flujos (id_flujo, aud, metodo, endpoint_url, authorization_header, eventos_solicitados,
                                      eventos_entregados, descripcion, creado_por)
    SELECT #{id}, #{aud}, #{metodo}, #{endpointUrl}, #{authorizationHeader}, #{solicitados}, #{entregados}, #{descripcion}, dueno FROM cupo
    RETURNING\s""" + Stream.COLUMNAS;
  private static final String CUPO = """
    SELECT coalesce((SELECT flujos FROM seguridad.ssf_cupos WHERE dueno = $1), 0) AS propios,
           (SELECT count(*) FROM seguridad.ssf_flujos) AS todos""";
  /** PATCH: a null member leaves the column as it is; a new delivery replaces the whole delivery. */
  private static final String ACTUALIZAR = """
    UPDATE seguridad.ssf_flujos SET
      metodo = coalesce(#{metodo}, metodo),
      endpoint_url = CASE WHEN #{metodo} IS NULL THEN endpoint_url ELSE #{endpointUrl} END,
      authorization_header = CASE WHEN #{metodo} IS NULL THEN authorization_header ELSE #{authorizationHeader} END,
      eventos_solicitados = coalesce(#{solicitados}, eventos_solicitados),
      eventos_entregados = coalesce(#{entregados}, eventos_entregados),
      descripcion = CASE WHEN #{conDescripcion} THEN #{descripcion} ELSE descripcion END
    WHERE id_flujo = #{id} AND creado_por = #{dueno}
    RETURNING\s""" + Stream.COLUMNAS;
  private static final String BORRAR = """
    WITH borrado AS (DELETE FROM seguridad.ssf_flujos WHERE id_flujo = $1 AND creado_por = $2 RETURNING creado_por),
         cupo AS (UPDATE seguridad.ssf_cupos c SET flujos = c.flujos - 1 FROM borrado WHERE c.dueno = borrado.creado_por)
    SELECT count(*) AS borrados FROM borrado""";
  private static final String POR_DUENO = "SELECT dueno, flujos FROM seguridad.ssf_cupos WHERE flujos > 0";
  /** A disabled stream holds nothing (SSF 1.0 §8.1.2): its undelivered SETs go with the change. */
  private static final String CAMBIAR_ESTADO = """
    WITH f AS (
           UPDATE seguridad.ssf_flujos SET estado = $2, motivo_estado = $3 WHERE id_flujo = $1 AND creado_por = $4
           RETURNING\s""" + Stream.COLUMNAS + """
    ),
         descartadas AS (
           DELETE FROM seguridad.ssf_entregas e
           WHERE $2 = 'disabled' AND e.id_flujo IN (SELECT id_flujo FROM f) AND e.entregada_en IS NULL)
    SELECT * FROM f""";
  private static final String VERIFICAR = """
    WITH permitida AS (
           UPDATE seguridad.ssf_flujos SET ultima_verificacion = now()
           WHERE id_flujo = $1 AND creado_por = $6
             AND (ultima_verificacion IS NULL OR ultima_verificacion <= now() - make_interval(secs => $2))
           RETURNING id_flujo)
    INSERT INTO seguridad.ssf_entregas (id_flujo, jti, tipo_evento, claims)
    SELECT id_flujo, $3, $4, $5 FROM permitida""";
  /** Only for streams still not disabled when the statement runs: one disabled meanwhile gets nothing, as it should. */
  private static final String ENCOLAR = """
    INSERT INTO seguridad.ssf_entregas (id_flujo, jti, id_alerta, tipo_evento, claims)
    SELECT x.f, x.j, $5, x.t, x.s FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS x (f, j, t, s)
    JOIN seguridad.ssf_flujos fl ON fl.id_flujo = x.f AND fl.estado <> 'disabled'
    ON CONFLICT (id_flujo, jti) DO NOTHING""";
  /** The push streams with SETs waiting, and whether one of them is due now. */
  private static final String PENDIENTES = """
    SELECT e.id_flujo,
           bool_or(e.proximo_intento <= now() AND (e.reclamada_hasta IS NULL OR e.reclamada_hasta < now())) AS vencida
    FROM seguridad.ssf_entregas e JOIN seguridad.ssf_flujos f USING (id_flujo)
    WHERE e.entregada_en IS NULL AND e.rechazada_en IS NULL AND f.estado = 'enabled' AND f.metodo = 'urn:ietf:rfc:8935'
    GROUP BY e.id_flujo""";
  /** One stream's due SETs, oldest due first, claimed for a lease. */
  private static final String RECLAMAR = """
    WITH vencidas AS (
           SELECT e.id_flujo, e.jti FROM seguridad.ssf_entregas e JOIN seguridad.ssf_flujos f USING (id_flujo)
           WHERE e.id_flujo = $1 AND e.entregada_en IS NULL AND e.rechazada_en IS NULL AND e.proximo_intento <= now()
             AND (e.reclamada_hasta IS NULL OR e.reclamada_hasta < now())
             AND f.estado = 'enabled' AND f.metodo = 'urn:ietf:rfc:8935'
           ORDER BY e.proximo_intento, e.creada_en
           LIMIT $2
           FOR UPDATE OF e SKIP LOCKED)
    UPDATE seguridad.ssf_entregas e
    SET reclamada_hasta = now() + make_interval(secs => $3::float8 / 1000), intentos = e.intentos + 1
    FROM vencidas v, seguridad.ssf_flujos f
    WHERE e.id_flujo = v.id_flujo AND e.jti = v.jti AND f.id_flujo = e.id_flujo
    RETURNING e.id_flujo, e.jti, e.claims, e.intentos, e.creada_en, f.endpoint_url, f.authorization_header""";
  private static final String ENTREGADA = """
    UPDATE seguridad.ssf_entregas SET entregada_en = now(), reclamada_hasta = NULL, ultimo_error = NULL
    WHERE id_flujo = $1 AND jti = $2 AND entregada_en IS NULL""";
  private static final String REINTENTAR = """
    UPDATE seguridad.ssf_entregas
    SET proximo_intento = now() + make_interval(secs => $3::float8 / 1000), reclamada_hasta = NULL, ultimo_error = $4
    WHERE id_flujo = $1 AND jti = $2 AND entregada_en IS NULL""";
  private static final String RECHAZADA = """
    UPDATE seguridad.ssf_entregas SET rechazada_en = now(), reclamada_hasta = NULL, ultimo_error = $3
    WHERE id_flujo = $1 AND jti = $2 AND entregada_en IS NULL""";
  /**
   * RFC 8936 in one statement: the acknowledged SETs are delivered, the ones the receiver reports errors for are
   * refused, and the rest still waiting are returned (again, until acknowledged), oldest first.
   */
  private static final String SONDEAR = """
    WITH reconocidas AS (
           UPDATE seguridad.ssf_entregas SET entregada_en = now(), ultimo_error = NULL
           WHERE id_flujo = $1 AND jti = ANY ($2::text[]) AND entregada_en IS NULL AND rechazada_en IS NULL
           RETURNING creada_en),
         erroneas AS (
           UPDATE seguridad.ssf_entregas e SET rechazada_en = now(), ultimo_error = x.error
           FROM unnest($3::text[], $4::text[]) AS x (jti, error)
           WHERE e.id_flujo = $1 AND e.jti = x.jti AND e.entregada_en IS NULL AND e.rechazada_en IS NULL
           RETURNING e.jti),
         esperan AS (
           SELECT e.jti, e.claims, e.creada_en FROM seguridad.ssf_entregas e JOIN seguridad.ssf_flujos f USING (id_flujo)
           WHERE e.id_flujo = $1 AND f.estado = 'enabled' AND e.entregada_en IS NULL AND e.rechazada_en IS NULL
             AND NOT e.jti = ANY ($2::text[]) AND NOT e.jti = ANY ($3::text[])
           ORDER BY e.creada_en, e.jti
           LIMIT $5)
    SELECT NULL AS jti, NULL AS claims, creada_en FROM reconocidas
    UNION ALL
    SELECT jti, claims, creada_en FROM esperan""";

  private final SqlClient sql;
  private final SqlTemplate<Map<String, Object>, RowSet<Row>> crear;
  private final SqlTemplate<Map<String, Object>, RowSet<Row>> actualizar;

  Streams(SqlClient sql) {
    this.sql = sql;
    this.crear = SqlTemplate.forQuery(sql, CREAR);
    this.actualizar = SqlTemplate.forQuery(sql, ACTUALIZAR);
  }

  /** Empty when its client already holds {@code porDueno} streams, or the system {@code maximo}. */
  Future<Optional<Stream>> crear(String id, String aud, String metodo, String endpointUrl, String authorizationHeader,
                                List<String> solicitados, List<String> entregados, String descripcion, String creadoPor,
                                int porDueno, int maximo) {
    Map<String, Object> params = new HashMap<>();
    params.put("id", id);
    params.put("aud", aud);
    params.put("metodo", metodo);
    params.put("endpointUrl", endpointUrl);
    params.put("authorizationHeader", authorizationHeader);
    params.put("solicitados", solicitados.toArray(String[]::new));
    params.put("entregados", entregados.toArray(String[]::new));
    params.put("descripcion", descripcion);
    params.put("creadoPor", creadoPor);
    params.put("porDueno", porDueno);
    params.put("maximo", maximo);
    return crear.execute(params).map(Streams::primero);
  }

  /** How many streams {@code dueno} holds, and the system: why a creation was refused. */
  record Cupo(long propios, long todos) {}

  Future<Cupo> cupo(String dueno) {
    return sql.preparedQuery(CUPO).execute(Tuple.of(dueno)).map(rows -> {
      Row row = rows.iterator().next();
      return new Cupo(row.getLong("propios"), row.getLong("todos"));
    });
  }

  /** The streams each client holds (those holding any). */
  Future<Map<String, Integer>> porDueno() {
    return sql.query(POR_DUENO).execute().map(rows -> {
      Map<String, Integer> cuentas = new LinkedHashMap<>();
      for (Row row : rows) cuentas.put(row.getString("dueno"), row.getInteger("flujos"));
      return cuentas;
    });
  }

  static String nuevoId() {
    return UUID.randomUUID().toString().replace("-", "");
  }

  Future<Optional<Stream>> leer(String id, String dueno) {
    return sql.preparedQuery(SELECT + DE_SU_DUENO).execute(Tuple.of(id, dueno)).map(Streams::primero);
  }

  Future<List<Stream>> listar(String dueno) {
    return sql.preparedQuery(SELECT + " WHERE creado_por = $1 ORDER BY creado_en, id_flujo").execute(Tuple.of(dueno)).map(Streams::todos);
  }

  /** The streams an alert is stored for: enabled ones, and paused ones, which hold their SETs until enabled. */
  Future<List<Stream>> receptores() {
    return sql.query(SELECT + " WHERE estado <> 'disabled'").execute().map(Streams::todos);
  }

  /** {@code metodo} null: the delivery is not changed; {@code conDescripcion} false: nor is the description. */
  Future<Optional<Stream>> actualizar(String id, String dueno, String metodo, String endpointUrl, String authorizationHeader,
                                     List<String> solicitados, List<String> entregados, String descripcion, boolean conDescripcion) {
    Map<String, Object> params = new HashMap<>();
    params.put("id", id);
    params.put("dueno", dueno);
    params.put("metodo", metodo);
    params.put("endpointUrl", endpointUrl);
    params.put("authorizationHeader", authorizationHeader);
    params.put("solicitados", solicitados == null ? null : solicitados.toArray(String[]::new));
    params.put("entregados", entregados == null ? null : entregados.toArray(String[]::new));
    params.put("descripcion", descripcion);
    params.put("conDescripcion", conDescripcion);
    return actualizar.execute(params).map(Streams::primero);
  }

  Future<Boolean> borrar(String id, String dueno) {
    return sql.preparedQuery(BORRAR).execute(Tuple.of(id, dueno)).map(rows -> rows.iterator().next().getLong("borrados") == 1);
  }

  Future<Optional<Stream>> cambiarEstado(String id, String dueno, String estado, String motivo) {
    return sql.preparedQuery(CAMBIAR_ESTADO).execute(Tuple.of(id, estado, motivo, dueno)).map(Streams::primero);
  }

  /** Queues a verification SET unless one was asked for less than {@code intervaloS} ago (false then). */
  Future<Boolean> verificar(String id, String dueno, int intervaloS, String jti, String claims) {
    return sql.preparedQuery(VERIFICAR).execute(Tuple.of(id, intervaloS, jti, TiposEvento.VERIFICACION, claims, dueno))
      .map(rows -> rows.rowCount() == 1);
  }

  /** Stores SETs of alert {@code idAlerta}; each (stream, jti) once, whatever the number of calls. */
  Future<Void> encolar(UUID idAlerta, List<Entrega> entregas) {
    if (entregas.isEmpty()) return Future.succeededFuture();
    return sql.preparedQuery(ENCOLAR).execute(Tuple.of(
      entregas.stream().map(Entrega::flujo).toArray(String[]::new), entregas.stream().map(Entrega::jti).toArray(String[]::new),
      entregas.stream().map(Entrega::tipoEvento).toArray(String[]::new), entregas.stream().map(Entrega::claims).toArray(String[]::new),
      idAlerta)).mapEmpty();
  }

  Future<List<Pendiente>> pendientes() {
    return sql.query(PENDIENTES).execute().map(rows -> {
      List<Pendiente> list = new ArrayList<>(rows.size());
      for (Row row : rows) list.add(new Pendiente(row.getString("id_flujo"), row.getBoolean("vencida")));
      return list;
    });
  }

  /** Up to {@code max} of stream {@code flujo}'s due SETs, claimed for {@code leaseMs}. */
  Future<List<Reclamada>> reclamar(String flujo, int max, long leaseMs) {
    return sql.preparedQuery(RECLAMAR).execute(Tuple.of(flujo, max, leaseMs)).map(rows -> {
      List<Reclamada> list = new ArrayList<>(rows.size());
      for (Row row : rows) {
        list.add(new Reclamada(row.getString("id_flujo"), row.getString("jti"), row.getString("claims"), row.getInteger("intentos"),
          row.getOffsetDateTime("creada_en").toInstant(), row.getString("endpoint_url"), row.getString("authorization_header")));
      }
      return list;
    });
  }

  /** True for the call that recorded the delivery (a SET delivered before stays as it was). */
  Future<Boolean> entregada(String flujo, String jti) {
    return sql.preparedQuery(ENTREGADA).execute(Tuple.of(flujo, jti)).map(rows -> rows.rowCount() == 1);
  }

  Future<Void> reintentar(String flujo, String jti, long enMs, String error) {
    return sql.preparedQuery(REINTENTAR).execute(Tuple.of(flujo, jti, enMs, error)).mapEmpty();
  }

  Future<Void> rechazada(String flujo, String jti, String error) {
    return sql.preparedQuery(RECHAZADA).execute(Tuple.of(flujo, jti, error)).mapEmpty();
  }

  Future<Sondeo> sondear(String flujo, List<String> reconocidas, Map<String, String> errores, int max) {
    return sql.preparedQuery(SONDEAR).execute(Tuple.of(flujo, reconocidas.toArray(String[]::new),
      errores.keySet().toArray(String[]::new), errores.values().toArray(String[]::new), max + 1)).map(rows -> {
      Map<String, String> sets = new LinkedHashMap<>();
      List<Instant> hechas = new ArrayList<>();
      boolean hayMas = false;
      for (Row row : rows) {
        String jti = row.getString("jti");
        if (jti == null) hechas.add(row.getOffsetDateTime("creada_en").toInstant());
        else if (sets.size() == max) hayMas = true;
        else sets.put(jti, row.getString("claims"));
      }
      return new Sondeo(sets, hayMas, hechas);
    });
  }

  private static Optional<Stream> primero(RowSet<Row> rows) {
    return rows.size() == 0 ? Optional.empty() : Optional.of(Stream.of(rows.iterator().next()));
  }

  private static List<Stream> todos(RowSet<Row> rows) {
    List<Stream> list = new ArrayList<>(rows.size());
    for (Row row : rows) list.add(Stream.of(row));
    return list;
  }

  /** The error of a receiver's poll {@code setErrs} entry, as recorded. */
  static String error(JsonObject setErr) {
    return setErr.getString("err") + (setErr.getString("description") == null ? "" : ": " + setErr.getString("description"));
  }
}
