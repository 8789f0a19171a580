package ccp.lab;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;

/**
 * The reference's thread pool: {@code workers} threads take the next request number until all are done, call the strategy
 * and keep each request's outcome and latency in its own slot (no shared counter on the measured path but the next
 * number). The run's time covers thread start to the last answer, as the reference's does.
 */
final class Runner {

  static final byte APROBADA = 1;
  static final byte RECHAZADA = 2;
  static final byte OCUPADA = 3;
  static final byte FALLIDA = 4;

  /** Per request: its outcome and its latency; plus the run's duration and the first unexpected failure, if any. */
  record Tally(byte[] outcomes, long[] latenciesNanos, double seconds, Throwable firstFailure) {

    long count(byte outcome) {
      long n = 0;
      for (byte o : outcomes) if (o == outcome) n++;
      return n;
    }
  }

  private Runner() {}

  static Tally execute(Estrategia estrategia, IntFunction<String> producto, int requests, int workers, LongAdder done) {
    byte[] outcomes = new byte[requests];
    long[] latencies = new long[requests];
    AtomicInteger next = new AtomicInteger();
    AtomicReference<Throwable> firstFailure = new AtomicReference<>();
    Thread[] threads = new Thread[workers];
    long began = System.nanoTime();
    for (int w = 0; w < workers; w++) {
      threads[w] = new Thread(() -> {
        for (int i = next.getAndIncrement(); i < requests; i = next.getAndIncrement()) {
          long start = System.nanoTime();
          try {
            outcomes[i] = estrategia.reservar(producto.apply(i), 1) ? APROBADA : RECHAZADA;
          } catch (InventarioOcupado busy) {
            outcomes[i] = OCUPADA;
          } catch (RuntimeException e) {
            outcomes[i] = FALLIDA;
            firstFailure.compareAndSet(null, e);
          }
          latencies[i] = System.nanoTime() - start;
          done.increment();
        }
      }, "reservation-worker-" + w);
      threads[w].start();
    }
    for (Thread t : threads) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while the workers ran", e);
      }
    }
    return new Tally(outcomes, latencies, (System.nanoTime() - began) / 1e9, firstFailure.get());
  }
}
