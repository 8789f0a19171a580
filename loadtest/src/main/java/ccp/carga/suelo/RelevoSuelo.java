package ccp.carga.suelo;

import ccp.platform.kafka.EventPublisher;
import ccp.platform.kafka.KafkaConfig;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.List;

/**
 * The floor of the outbox relay: claims a batch of unsent rows in id order, publishes each, and marks the batch sent —
 * two statements a batch, as the system's relay; woken by each commit and by a timer.
 */
final class RelevoSuelo extends VerticleBase {

  private static final int LOTE = 256;
  private static final long CADA_MS = 50;
  private static final String RECLAMAR = """
    UPDATE pedidos.suelo_outbox o SET reclamado_en = now()
    FROM (SELECT id FROM pedidos.suelo_outbox WHERE enviado_en IS NULL AND reclamado_en IS NULL ORDER BY id LIMIT $1
          FOR UPDATE SKIP LOCKED) c
    WHERE o.id = c.id RETURNING o.id, o.topic, o.clave, o.valor""";
  private static final String ENVIADOS = "UPDATE pedidos.suelo_outbox SET enviado_en = now() WHERE id = ANY($1)";

  private final KafkaConfig kafka;
  private final SqlClient sql;
  private EventPublisher publisher;
  private boolean drenando;
  private boolean otraVez;

  RelevoSuelo(KafkaConfig kafka, SqlClient sql) {
    this.kafka = kafka;
    this.sql = sql;
  }

  @Override
  public Future<?> start() {
    publisher = EventPublisher.create(vertx, kafka);
    vertx.setPeriodic(CADA_MS, id -> drenar());
    return vertx.eventBus().consumer(SueloPedidos.DESPERTAR, message -> drenar()).completion();
  }

  @Override
  public Future<?> stop() {
    return publisher.close();
  }

  /** One batch at a time; a wake-up during a batch drains again after it. */
  private void drenar() {
    if (drenando) {
      otraVez = true;
      return;
    }
    drenando = true;
    otraVez = false;
    sql.preparedQuery(RECLAMAR).execute(Tuple.of(LOTE)).compose(this::publicar).onComplete(ar -> {
      drenando = false;
      if (otraVez || (ar.succeeded() && ar.result() == LOTE)) drenar();
    });
  }

  private Future<Integer> publicar(RowSet<Row> lote) {
    if (lote.size() == 0) return Future.succeededFuture(0);
    List<Future<?>> envios = new ArrayList<>();
    Long[] ids = new Long[lote.size()];
    int i = 0;
    for (Row row : lote) {
      ids[i++] = row.getLong("id");
      envios.add(publisher.publishEncoded(row.getString("topic"), row.getString("clave"), row.getString("valor")));
    }
    return Future.all(envios).compose(x -> sql.preparedQuery(ENVIADOS).execute(Tuple.of(ids))).map(x -> lote.size());
  }
}
