package ccp.lab;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("Lock per product")
class BloqueoPorProductoTest {

  private static final TrabajoLento NADA = new TrabajoLento(0, 0, 0, 0, 0);

  @Test
  @DisplayName("a long hold on product A does not delay product B; A's own reservations wait for it")
  void productsDoNotWaitForEachOther() throws Exception {
    Existencias existencias = new Existencias("t-", 2, 20);
    String a = existencias.id(0);
    String b = existencias.id(1);
    BloqueoPorProducto inventario = new BloqueoPorProducto(existencias, NADA, new LockWait());
    CountDownLatch tomado = new CountDownLatch(1);
    CountDownLatch soltar = new CountDownLatch(1);
    CompletableFuture<Boolean> holdingA = CompletableFuture.supplyAsync(() -> inventario.conProducto(a, () -> {
      tomado.countDown();
      try {
        return soltar.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    }));
    assertThat(tomado.await(10, TimeUnit.SECONDS)).isTrue();
    CompletableFuture<Boolean> reservingA = CompletableFuture.supplyAsync(() -> inventario.reservar(a, 1));

    long began = System.nanoTime();
    boolean reservedB = CompletableFuture.supplyAsync(() -> inventario.reservar(b, 1)).get(10, TimeUnit.SECONDS);
    double millisB = (System.nanoTime() - began) / 1e6;
    System.out.printf("reservation of B while A is held: %.3f ms%n", millisB);

    assertThat(reservedB).isTrue();
    assertThat(reservingA).as("A's reservation waits while A is held").isNotDone();
    soltar.countDown();
    assertThat(holdingA.get(10, TimeUnit.SECONDS)).isTrue();
    assertThat(reservingA.get(10, TimeUnit.SECONDS)).isTrue();
    assertThat(inventario.disponible(a)).isEqualTo(9);
    assertThat(inventario.disponible(b)).isEqualTo(9);
  }

  @Test
  @DisplayName("its lock table stays bounded by the threads: a million distinct product ids leave it empty")
  void lockTableStaysBounded() {
    Existencias existencias = new Existencias("t-", 1, 10);
    BloqueoPorProducto inventario = new BloqueoPorProducto(existencias, NADA, new LockWait());
    int workers = 8;

    Runner.Tally tally = Runner.execute(inventario, i -> "desconocido-" + i, 1_000_000, workers, new LongAdder());

    assertThat(tally.firstFailure()).isNull();
    assertThat(tally.count(Runner.RECHAZADA)).isEqualTo(1_000_000);
    assertThat(inventario.picoEntradas()).isBetween(1L, (long) workers);
    assertThat(inventario.entradas()).isZero();
  }
}
