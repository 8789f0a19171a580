package ccp.lab;

import ccp.etapas.Etapas;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * Measures the Inventario stage's own reservation ({@link Etapas#reservaInventario}, not a copy) on one hot product: a
 * few verticles, as the stage's processes would be, each keeping as many reservations in flight as its consumer may
 * ({@code kafka.consumer.max-in-flight}). The lab runs it with combining and with one statement per order.
 */
final class ReservasCalientes {

  /** What one run did: the rate, and what it left in stock (approved must equal the initial stock). */
  record Medida(int loteMax, int reservas, int stock, int aprobadas, int stockFinal, double segundos) {

    double porSegundo() {
      return reservas / segundos;
    }

    String linea() {
      return String.format(Locale.ROOT, "lote-max %4d: %,9.0f reservations/s  (%,d in %.2f s; approved %,d of stock %,d, final stock %,d)",
        loteMax, porSegundo(), reservas, segundos, aprobadas, stock, stockFinal);
    }
  }

  private ReservasCalientes() {}

  /** Blocking: call it from a thread that is not an event loop. The product must not exist yet. */
  static Medida medir(Vertx vertx, SqlClient sql, String producto, int stock, int reservas, int loteMax, int instancias, int enVuelo) {
    sql.preparedQuery("INSERT INTO inventario.stock (producto, disponible) VALUES ($1, $2)").execute(Tuple.of(producto, stock)).await();
    JsonArray lineas = new JsonArray().add(new JsonObject().put("producto", producto).put("cantidad", 1));
    List<Future<Integer>> aprobadas = new ArrayList<>();
    long began = System.nanoTime();
    for (int i = 0; i < instancias; i++) {
      int suyas = reservas / instancias + (i < reservas % instancias ? 1 : 0);
      Instancia instancia = new Instancia(Etapas.reservaInventario(sql, loteMax), lineas, suyas, enVuelo);
      aprobadas.add(vertx.deployVerticle(instancia).compose(id -> instancia.hecho.future()
        .eventually(() -> vertx.undeploy(id))));
    }
    int total = Future.all(aprobadas).await().<Integer>list().stream().mapToInt(Integer::intValue).sum();
    double segundos = (System.nanoTime() - began) / 1e9;
    int stockFinal = sql.preparedQuery("SELECT disponible FROM inventario.stock WHERE producto = $1").execute(Tuple.of(producto))
      .await().iterator().next().getInteger(0);
    return new Medida(loteMax, reservas, stock, total, stockFinal, segundos);
  }

  /** One stage instance: its reservation, and the batch that combines, is confined to this verticle, as in the stage. */
  private static final class Instancia extends VerticleBase {

    private final Etapas.Reserva reserva;
    private final JsonArray lineas;
    private final int reservas;
    private final int enVuelo;
    private final Promise<Integer> hecho = Promise.promise();
    private int enviadas;
    private int terminadas;
    private int aprobadas;

    Instancia(Etapas.Reserva reserva, JsonArray lineas, int reservas, int enVuelo) {
      this.reserva = reserva;
      this.lineas = lineas;
      this.reservas = reservas;
      this.enVuelo = enVuelo;
    }

    @Override
    public Future<?> start() {
      if (reservas == 0) hecho.complete(0);
      enviar();
      return Future.succeededFuture();
    }

    private void enviar() {
      while (enviadas < reservas && enviadas - terminadas < enVuelo) {
        enviadas++;
        reserva.reservar(UUID.randomUUID(), lineas).onComplete(r -> {
          if (r.failed()) {
            hecho.tryFail(r.cause());
            return;
          }
          if (r.result()) aprobadas++;
          if (++terminadas == reservas) hecho.complete(aprobadas);
          else enviar();
        });
      }
    }
  }
}
