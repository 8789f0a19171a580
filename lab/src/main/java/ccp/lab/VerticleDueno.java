package ccp.lab;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;

import java.util.UUID;

/**
 * This project's answer: the stock is plain fields of one verticle, touched only by its event loop; threads ask it
 * over the event bus and wait for the reply. No lock anywhere; the wait recorded is the time a request spends in
 * the verticle's mailbox before its handler runs.
 */
final class VerticleDueno implements Estrategia {

  private final Vertx vertx;
  private final Existencias existencias;
  private final TrabajoLento trabajo;
  private final String direccion = "lab.existencias." + UUID.randomUUID();
  private final String despliegue;

  VerticleDueno(Vertx vertx, Existencias existencias, TrabajoLento trabajo, LockWait espera) {
    this.vertx = vertx;
    this.existencias = existencias;
    this.trabajo = trabajo;
    this.despliegue = vertx.deployVerticle(new Dueno(direccion, existencias.copia(), espera)).await();
  }

  /** The owner: {@code stock} is its own field, read and written only from its handlers. */
  private static final class Dueno extends VerticleBase {
    private final String direccion;
    private final int[] stock;
    private final LockWait espera;

    Dueno(String direccion, int[] stock, LockWait espera) {
      this.direccion = direccion;
      this.stock = stock;
      this.espera = espera;
    }

    @Override
    public Future<?> start() {
      return Future.join(
        vertx.eventBus().<JsonArray>consumer(direccion, msg -> {
          JsonArray pedido = msg.body();
          espera.record(System.nanoTime() - pedido.getLong(2));
          int i = pedido.getInteger(0);
          int cantidad = pedido.getInteger(1);
          boolean aprobada = stock[i] >= cantidad;
          if (aprobada) stock[i] -= cantidad;
          msg.reply(aprobada);
        }).completion(),
        vertx.eventBus().<Integer>consumer(direccion + ".disponible", msg -> msg.reply(stock[msg.body()])).completion());
    }
  }

  @Override
  public boolean reservar(String producto, int cantidad) {
    Estrategia.validar(producto, cantidad);
    int i = existencias.indice(producto);
    boolean aprobada = i >= 0 && vertx.eventBus().<Boolean>request(direccion, new JsonArray().add(i).add(cantidad).add(System.nanoTime()))
      .await().body();
    trabajo.completar();
    return aprobada;
  }

  @Override
  public int disponible(String producto) {
    int i = existencias.indice(producto);
    return i < 0 ? 0 : vertx.eventBus().<Integer>request(direccion + ".disponible", i).await().body();
  }

  @Override
  public void close() {
    vertx.undeploy(despliegue).await();
  }
}
