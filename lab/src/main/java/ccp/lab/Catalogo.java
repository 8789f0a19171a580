package ccp.lab;

import io.vertx.core.Vertx;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/** Every strategy the lab runs, by the name {@code --strategies} takes, with what it needs to be built. */
enum Catalogo {

  SIN_SINCRONIZACION("sin-sincronizacion", "no synchronization: read, check and write unguarded", false, false, 0,
    c -> new SinSincronizacion(c.existencias(), c.trabajo())),
  BLOQUEO_AMPLIO("bloqueo-amplio", "coarse lock: the whole method synchronized, slow work inside (the reference's CoarseGrainedInventoryService)",
    false, true, 0, c -> new BloqueoAmplio(c.existencias(), c.trabajo(), c.espera())),
  BLOQUEO_REDUCIDO("bloqueo-reducido", "narrow lock: synchronized around check-and-decrement only (the reference's OptimizedInventoryService)",
    false, true, 0, c -> new BloqueoReducido(c.existencias(), c.trabajo(), c.espera())),
  REENTRANTE("reentrante", "ReentrantLock with nested acquisition (the reference's RLock)", false, true, 0,
    c -> new BloqueoReentrante(c.existencias(), c.trabajo(), c.espera())),
  CON_TIMEOUT("con-timeout", "ReentrantLock.tryLock with a timeout, busy error counted (the reference's TimeoutInventoryService)", false, true, 0,
    c -> new BloqueoConTimeout(c.existencias(), c.trabajo(), c.espera(), c.timeout())),
  POR_PRODUCTO("por-producto", "one lock per product, its table bounded by its current users (the reference's ProductInventoryService)",
    false, true, 0, c -> new BloqueoPorProducto(c.existencias(), c.trabajo(), c.espera())),
  COLA("cola", "queue hand-off to one owner thread (the reference's queue.Queue); wait = time in the queue", false, true, 0,
    c -> new ColaDuena(c.existencias(), c.trabajo(), c.espera())),
  SEMAFORO("semaforo", "narrow lock + Semaphore bounding the slow external calls; wait = wait for a permit", false, true, 0,
    c -> new SemaforoLlamadas(c.existencias(), c.trabajo(), c.espera(), c.permisos())),
  VERTICLE("verticle", "one verticle owns the stock, event-bus requests, no lock; wait = time in its mailbox", false, true, 0,
    c -> new VerticleDueno(c.vertx(), c.existencias(), c.trabajo(), c.espera())),
  CAS("cas", "compare-and-set loop on an AtomicIntegerArray, no lock; retries = lost races", false, true, 0,
    c -> new Cas(c.existencias(), c.trabajo())),
  PG_PESIMISTA("pg-pesimista", "PostgreSQL: SELECT … FOR UPDATE, UPDATE, COMMIT; wait = the FOR UPDATE statement", true, true, 1.0,
    c -> new PgPesimista(c.db(), c.trabajo(), c.espera())),
  PG_OPTIMISTA("pg-optimista", "PostgreSQL: read with version, UPDATE … WHERE version = read, retried; retries = lost races", true, true, 4.0,
    c -> new PgOptimista(c.db(), c.trabajo())),
  PG_ATOMICA("pg-atomica", "PostgreSQL: one UPDATE … SET disponible = disponible - q WHERE disponible >= q", true, true, 0.3,
    c -> new PgAtomica(c.db(), c.trabajo()));

  /** What a strategy may need to be built; {@code db} is null when no PostgreSQL strategy runs. */
  record Contexto(Existencias existencias, TrabajoLento trabajo, LockWait espera, Duration timeout, int permisos, Vertx vertx, LabDb db) {}

  final String clave;
  final String descripcion;
  final boolean enPg;
  final boolean correcta;
  /**
   * Milliseconds a request holds one hot row in PostgreSQL (round trips under the row lock, retries), as measured on
   * the 2-core development machine: only used to size a bounded slice before the run.
   */
  private final double filaCalienteMs;
  private final Function<Contexto, Estrategia> crear;

  Catalogo(String clave, String descripcion, boolean enPg, boolean correcta, double filaCalienteMs, Function<Contexto, Estrategia> crear) {
    this.clave = clave;
    this.descripcion = descripcion;
    this.enPg = enPg;
    this.correcta = correcta;
    this.filaCalienteMs = filaCalienteMs;
    this.crear = crear;
  }

  Estrategia crear(Contexto contexto) {
    return crear.apply(contexto);
  }

  /**
   * The time a request keeps the others of its product out, in milliseconds: the slow work done inside the coarse
   * lock, the hot row's hold in PostgreSQL; zero where the exclusive part is a few instructions.
   */
  double serialMs(Workload carga) {
    if (this == BLOQUEO_AMPLIO) return carga.trabajo().amplioMs();
    return filaCalienteMs / carga.products();
  }

  static Catalogo porClave(String clave) {
    return Arrays.stream(values()).filter(c -> c.clave.equals(clave)).findFirst().orElse(null);
  }

  static List<String> claves() {
    return Arrays.stream(values()).map(c -> c.clave).toList();
  }
}
