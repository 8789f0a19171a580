package ccp.lab;

import java.util.concurrent.locks.LockSupport;

/**
 * The reference's simulated slow work. {@code completarMs} is the audit/notification done after a reservation (1 ms in
 * the reference's optimized service, outside the lock); the other four are what its coarse service does inside the lock:
 * external validation 10 ms, database query 10 ms, audit 5 ms, notification 5 ms.
 */
record TrabajoLento(double completarMs, double validacionMs, double consultaMs, double auditoriaMs, double notificacionMs) {

  static final TrabajoLento REFERENCIA = new TrabajoLento(1, 10, 10, 5, 5);

  double amplioMs() {
    return validacionMs + consultaMs + auditoriaMs + notificacionMs;
  }

  void completar() {
    dormir(completarMs);
  }

  void validacionExterna() {
    dormir(validacionMs);
  }

  void consultaBaseDatos() {
    dormir(consultaMs);
  }

  void auditoria() {
    dormir(auditoriaMs);
  }

  void notificacion() {
    dormir(notificacionMs);
  }

  /** Like the reference's {@code time.sleep}: the thread is parked, the CPU stays free for the others. */
  private static void dormir(double ms) {
    if (ms <= 0) return;
    long hasta = System.nanoTime() + (long) (ms * 1_000_000);
    for (long falta = hasta - System.nanoTime(); falta > 0; falta = hasta - System.nanoTime()) {
      LockSupport.parkNanos(falta);
    }
  }
}
