package ccp.lab;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

@DisplayName("Lock with timeout")
class BloqueoConTimeoutTest {

  private static final TrabajoLento NADA = new TrabajoLento(0, 0, 0, 0, 0);

  @Test
  @DisplayName("raises the busy error while another thread holds the stock, and leaves the stock untouched")
  void busyWhileHeld() throws Exception {
    Existencias existencias = new Existencias("t-", 1, 10);
    BloqueoConTimeout inventario = new BloqueoConTimeout(existencias, NADA, new LockWait(), Duration.ofMillis(50));
    CountDownLatch tomado = new CountDownLatch(1);
    CountDownLatch soltar = new CountDownLatch(1);
    CompletableFuture<Boolean> holder = CompletableFuture.supplyAsync(() -> inventario.exclusivo(() -> {
      tomado.countDown();
      try {
        return soltar.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        throw new IllegalStateException(e);
      }
    }));
    assertThat(tomado.await(10, TimeUnit.SECONDS)).isTrue();

    assertThatThrownBy(() -> inventario.reservar(existencias.id(0), 1)).isInstanceOf(InventarioOcupado.class);

    soltar.countDown();
    assertThat(holder.get(10, TimeUnit.SECONDS)).isTrue();
    assertThat(inventario.disponible(existencias.id(0))).isEqualTo(10);
    assertThat(inventario.reservar(existencias.id(0), 1)).isTrue();
    assertThat(inventario.disponible(existencias.id(0))).isEqualTo(9);
  }

  @Test
  @DisplayName("under contention with no patience: busy errors, and approvals plus stock still add up")
  void contentionNeverCorrupts() {
    Bench bench = new Bench(null, null, Duration.ZERO, 1, Progress.silent());
    for (int attempt = 1; attempt <= 5; attempt++) {
      Outcome outcome = bench.run(Catalogo.CON_TIMEOUT, new Workload(1_000, 200_000, 50, 1, NADA), "");
      assertThat(outcome.consistencia().total()).as(outcome.block()).isZero();
      assertThat(outcome.finalStock()).isEqualTo(1_000 - outcome.approved()).isNotNegative();
      if (outcome.busy() > 0) return;
    }
    fail("tryLock with no timeout never found the lock taken in 5 runs of 200,000 requests by 50 threads");
  }
}
