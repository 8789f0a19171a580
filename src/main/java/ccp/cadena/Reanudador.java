package ccp.cadena;

import ccp.app.RoleContext;
import ccp.platform.kafka.ConsumerVerticle;
import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.Topics;
import ccp.platform.metrics.AsrTimers;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Reanudador (R6–R11): takes a retry signal from {@code cola.reintentos}, moves the stage to EN_REINTENTO with a new
 * attempt and a wait of {@code reanudador.espera-ms}, and re-sends only that stage. A periodic check escalates the
 * retries that got no confirmation in time (R9) and publishes them on {@code cadena.escalada}. Confirmation and
 * escalation race on the row: each is a conditional update, the first writer wins. Keeping the wait in the row, not in
 * a timer of this process, means a Reanudador that dies mid-wait is replaced by any other one.
 */
public final class Reanudador extends ConsumerVerticle {

  static final String COLA = "cola.reintentos";
  private static final Logger LOG = LoggerFactory.getLogger(Reanudador.class);

  private static final String REINTENTAR = """
    UPDATE cadena.cadena_etapa e
    SET estado = 'EN_REINTENTO', intento = e.intento + 1, plazo = now() + make_interval(secs => $4::float8 / 1000),
        reintento_desde = now(), actualizada_en = now()
    FROM cadena.cadenas c
    WHERE e.pedido = $1 AND e.etapa = $2 AND e.intento = $3 AND e.estado IN ('EN_CURSO', 'FALLIDA') AND c.pedido = e.pedido
    RETURNING e.intento, c.lineas""";
  private static final String ESCALAR = """
    UPDATE cadena.cadena_etapa SET estado = 'ESCALADA', actualizada_en = now()
    WHERE (pedido, etapa) IN (
      SELECT pedido, etapa FROM cadena.cadena_etapa WHERE estado = 'EN_REINTENTO' AND plazo < now() LIMIT 500)
    AND estado = 'EN_REINTENTO'
    RETURNING pedido, etapa, intento, reintento_desde""";
  /** Escalations whose event is not acknowledged yet (this process or another died before): published again. */
  private static final String SIN_PUBLICAR = """
    SELECT pedido, etapa, intento, reintento_desde FROM cadena.cadena_etapa
    WHERE estado = 'ESCALADA' AND escalada_publicada_en IS NULL AND actualizada_en < now() - interval '2 seconds' LIMIT 500""";
  private static final String PUBLICADA = """
    UPDATE cadena.cadena_etapa SET escalada_publicada_en = now() WHERE pedido = $1 AND etapa = $2 AND escalada_publicada_en IS NULL""";

  private final RoleContext role;
  private PublicadorComandos comandos;
  private Timer asr4;
  private long chequeo;
  private boolean escalando;

  public Reanudador(RoleContext role) {
    super(role.settings(), role.health(), COLA, Topics.COLA_REINTENTOS);
    this.role = role;
  }

  @Override
  protected void prepare() {
    comandos = new PublicadorComandos(publisher());
    asr4 = AsrTimers.asr4(role.registry(), role.settings().millis("asr4.budget-ms"));
    long espera = role.settings().integer("reanudador.espera-ms");
    chequeo = vertx.setPeriodic(Math.max(50, Math.min(500, espera / 4)), id -> escalarVencidos());
  }

  @Override
  protected void release() {
    vertx.cancelTimer(chequeo);
  }

  /** R6–R8. A signal for an attempt that already moved on (confirmed, or retried) changes nothing. */
  @Override
  protected Future<Void> handle(Envelope senal) {
    EventTypes.require(senal, EventTypes.REINTENTO, Topics.COLA_REINTENTOS);
    UUID pedido = UUID.fromString(senal.textOf("pedido"));
    Etapa etapa = Etapa.valueOf(senal.textOf("etapa"));
    int intento = senal.data().getInteger("intento");
    Tuple params = Tuple.of(pedido, etapa.name(), intento, role.settings().integer("reanudador.espera-ms"));
    return role.sql().preparedQuery(REINTENTAR).execute(params).compose(rows -> {
      if (rows.size() == 0) return Future.succeededFuture();
      Row row = rows.iterator().next();
      return comandos.ejecutar(pedido, etapa, row.getInteger("intento"), row.getJsonArray("lineas"));
    });
  }

  private void escalarVencidos() {
    if (escalando) return;
    escalando = true;
    role.sql().preparedQuery(ESCALAR).execute()
      .compose(escaladas -> publicar(escaladas, true))
      .compose(x -> role.sql().preparedQuery(SIN_PUBLICAR).execute())
      .compose(pendientes -> publicar(pendientes, false))
      .onFailure(err -> LOG.warn("Escalation check failed: {}", err.toString()))
      .onComplete(x -> escalando = false);
  }

  /** R9: {@code cadena.escalada}, key pedido; ASR-4 ends here for the retries nobody confirmed. */
  private Future<Void> publicar(Iterable<Row> rows, boolean medir) {
    List<Future<?>> sends = new ArrayList<>();
    for (Row row : rows) {
      UUID pedido = row.getUUID("pedido");
      String etapa = row.getString("etapa");
      if (medir && row.getOffsetDateTime("reintento_desde") != null) {
        asr4.record(Duration.between(row.getOffsetDateTime("reintento_desde").toInstant(), Instant.now()));
      }
      JsonObject data = new JsonObject().put("pedido", pedido.toString()).put("etapa", etapa)
        .put("intento", row.getInteger("intento")).put("motivo", "sin confirmación tras el reintento");
      String id = "ESCALADA:" + pedido + ":" + etapa + ":" + row.getInteger("intento");
      Envelope escalada = new Envelope(UUID.nameUUIDFromBytes(id.getBytes(StandardCharsets.UTF_8)).toString(),
        EventTypes.ESCALADA, "/cadena/reanudador", Instant.now(), pedido.toString(), data);
      sends.add(publisher().publish(Topics.CADENA_ESCALADA, pedido.toString(), escalada)
        .compose(ack -> role.sql().preparedQuery(PUBLICADA).execute(Tuple.of(pedido, etapa))));
    }
    return Future.all(sends).mapEmpty();
  }
}
