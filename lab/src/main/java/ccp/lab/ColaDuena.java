package ccp.lab;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The reference's {@code queue.Queue} hand-off: one owner thread alone reads and writes the stock; the others put their
 * request on its queue and wait for the answer. A single-thread executor is exactly that queue and that thread.
 * The wait recorded is the time a request spends in the queue.
 */
final class ColaDuena extends EnMemoria {

  private final ExecutorService duena = Executors.newSingleThreadExecutor(r -> new Thread(r, "lab-cola-duena"));

  ColaDuena(Existencias existencias, TrabajoLento trabajo, LockWait espera) {
    super(existencias, trabajo, espera);
  }

  @Override
  public boolean reservar(String producto, int cantidad) {
    Estrategia.validar(producto, cantidad);
    int i = existencias.indice(producto);
    long encolada = System.nanoTime();
    boolean aprobada = respuesta(duena.submit(() -> {
      espera.record(System.nanoTime() - encolada);
      return descontar(i, cantidad);
    }));
    trabajo.completar();
    return aprobada;
  }

  @Override
  public int disponible(String producto) {
    int i = existencias.indice(producto);
    return respuesta(duena.submit(() -> leer(i)));
  }

  private static <T> T respuesta(Future<T> future) {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the stock's owner", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("the stock's owner failed", e.getCause());
    }
  }

  @Override
  public void close() {
    duena.shutdownNow();
  }
}
