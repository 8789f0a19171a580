package ccp.vigilancia;

import ccp.app.RoleContext;
import ccp.platform.kafka.EventPublisher;
import ccp.platform.metrics.AsrTimers;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * BarridoPlazos, the Monitor's scheduled thread (R1–R5), run only by the leader: every {@code vigilancia.barrido-ms}
 * it registers a signal in RegistroSenales for each stage past its deadline (unique pedido, etapa, intento: a repeated
 * sweep signals nothing twice) and has PublicadorReintentos publish the signals not yet acknowledged. ASR-3 ends here.
 */
final class BarridoPlazos extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(BarridoPlazos.class);

  /** R1–R3: read the stopped stages (read-only on the chain) and register their signals. */
  private static final String SENALAR = """
    INSERT INTO cadena.registro_senales (pedido, etapa, intento, motivo)
    SELECT pedido, etapa, intento, 'PLAZO_VENCIDO' FROM cadena.cadena_etapa
    WHERE estado IN ('EN_CURSO', 'FALLIDA') AND plazo < now()
    ORDER BY plazo LIMIT 500
    ON CONFLICT (pedido, etapa, intento) DO NOTHING""";
  private static final String POR_PUBLICAR = """
    SELECT s.pedido, s.etapa, s.intento, s.motivo, c.actor, e.en_curso_desde
    FROM cadena.registro_senales s
    JOIN cadena.cadenas c ON c.pedido = s.pedido
    JOIN cadena.cadena_etapa e ON e.pedido = s.pedido AND e.etapa = s.etapa
    WHERE s.publicada_en IS NULL
    ORDER BY s.senalada_en LIMIT 500""";
  private static final String PUBLICADA = """
    UPDATE cadena.registro_senales SET publicada_en = now()
    WHERE pedido = $1 AND etapa = $2 AND intento = $3 AND publicada_en IS NULL""";

  private final RoleContext role;
  private EventPublisher publisher;
  private PublicadorReintentos reintentos;
  private Timer asr3;
  private long timer;
  private boolean barriendo;

  BarridoPlazos(RoleContext role) {
    this.role = role;
  }

  @Override
  public Future<?> start() {
    publisher = EventPublisher.create(vertx, role.settings());
    reintentos = new PublicadorReintentos(publisher);
    asr3 = AsrTimers.asr3(role.registry(), role.settings().millis("asr3.budget-ms"));
    timer = vertx.setPeriodic(role.settings().integer("vigilancia.barrido-ms"), id -> barrer());
    return Future.succeededFuture();
  }

  @Override
  public Future<?> stop() {
    vertx.cancelTimer(timer);
    return publisher.close();
  }

  private void barrer() {
    if (barriendo) return;
    barriendo = true;
    role.sql().preparedQuery(SENALAR).execute()
      .compose(x -> role.sql().preparedQuery(POR_PUBLICAR).execute())
      .compose(rows -> {
        List<Future<?>> sends = new ArrayList<>();
        for (Row row : rows) sends.add(publicar(row));
        return Future.join(sends);
      })
      .onFailure(err -> LOG.warn("Sweep failed: {}", err.toString()))
      .onComplete(x -> barriendo = false);
  }

  private Future<Void> publicar(Row row) {
    UUID pedido = row.getUUID("pedido");
    String etapa = row.getString("etapa");
    int intento = row.getInteger("intento");
    return reintentos.reintentar(pedido, etapa, intento, row.getString("actor"), row.getString("motivo"))
      .compose(ack -> role.sql().preparedQuery(PUBLICADA).execute(Tuple.of(pedido, etapa, intento)))
      .onSuccess(updated -> {
        if (updated.rowCount() == 1 && row.getOffsetDateTime("en_curso_desde") != null) {
          asr3.record(Duration.between(row.getOffsetDateTime("en_curso_desde").toInstant(), Instant.now()));
        }
      })
      .mapEmpty();
  }
}
