package ccp.lab;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** The comparison tables printed after the runs, and the CSV files of the report folder. */
final class Informe {

  /** The reference's published figure for its optimized lock (Python 3.13, its machine). */
  static final double REFERENCIA_OPS = 45_781.26;

  private Informe() {}

  static String tabla(List<Outcome> outcomes) {
    StringBuilder b = new StringBuilder("""
      | strategy | requests | approved | final stock | time (s) | mean latency (ms) | p99 latency (ms) | throughput (ops/s) | lock wait mean (µs) | retries | consistency errors |
      |---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|
      """);
    for (Outcome o : outcomes) {
      b.append(String.format(Locale.ROOT, "| %s%s | %,d | %,d | %,d | %.2f | %.3f | %.3f | %,.0f | %s | %,d | %,d |%n",
        o.estrategia().clave, o.tramo().isEmpty() ? "" : " (slice)", o.carga().requests(), o.approved(), o.finalStock(), o.seconds(),
        o.meanMs(), o.p99Ms(), o.throughput(), o.waits() == 0 ? "—" : String.format(Locale.ROOT, "%.1f", o.waitMeanMicros()),
        o.retries(), o.consistencia().total()));
    }
    return b.toString();
  }

  /** Throughput by worker count, one row per strategy. */
  static String tablaTrabajadores(List<Outcome> barrido) {
    TreeSet<Integer> workers = barrido.stream().map(o -> o.carga().workers()).collect(Collectors.toCollection(TreeSet::new));
    StringBuilder b = new StringBuilder("| strategy \\ workers |");
    workers.forEach(w -> b.append(' ').append(w).append(" |"));
    b.append("\n|---|").append("---:|".repeat(workers.size())).append('\n');
    for (Map.Entry<Catalogo, List<Outcome>> fila : porEstrategia(barrido).entrySet()) {
      b.append("| ").append(fila.getKey().clave).append(" |");
      for (Outcome o : fila.getValue()) b.append(String.format(Locale.ROOT, " %,.0f |", o.throughput()));
      b.append('\n');
    }
    return b.toString();
  }

  static Map<Catalogo, List<Outcome>> porEstrategia(List<Outcome> outcomes) {
    return outcomes.stream().collect(Collectors.groupingBy(Outcome::estrategia, () -> new java.util.EnumMap<>(Catalogo.class),
      Collectors.toList()));
  }

  /**
   * The best correct strategy against the reference's 45,781 ops/s and against the workload's ceiling: with every worker
   * always in its slow completion, no strategy can do more than workers ÷ slow-work time.
   */
  static String razones(List<Outcome> outcomes, Workload carga) {
    Outcome best = outcomes.stream().filter(o -> o.estrategia().correcta && o.consistencia().total() == 0 && o.busy() == 0)
      .max((a, b) -> Double.compare(a.throughput(), b.throughput())).orElse(null);
    if (best == null) return "";
    String ceiling = carga.trabajo().completarMs() <= 0 ? "no ceiling: no slow work outside the lock"
      : String.format(Locale.ROOT, "%.2f of the workload's ceiling, %d workers ÷ %.3f ms = %,.0f ops/s", best.throughput() / techo(carga),
        carga.workers(), carga.trabajo().completarMs(), techo(carga));
    return String.format(Locale.ROOT, "Best correct strategy: %s at %,.0f ops/s = %.2f × the reference's 45,781 ops/s (its optimized lock); %s%n",
      best.estrategia().clave, best.throughput(), best.throughput() / REFERENCIA_OPS, ceiling);
  }

  static double techo(Workload carga) {
    return carga.workers() * 1000.0 / carga.trabajo().completarMs();
  }

  static void csvEstrategias(Path file, List<Outcome> outcomes) throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add("strategy,sliced,requests,workers,products,stock,approved,rejected,busy,failed,final_stock,seconds,mean_ms,p99_ms,"
      + "throughput_ops_s,lock_wait_mean_us,lock_wait_max_ms,acquisitions,retries,oversold,negative,lost_updates,approvals_short");
    for (Outcome o : outcomes) {
      Outcome.Consistencia c = o.consistencia();
      lines.add(String.format(Locale.ROOT, "%s,%b,%d,%d,%d,%d,%d,%d,%d,%d,%d,%.4f,%.4f,%.4f,%.2f,%.2f,%.3f,%d,%d,%d,%d,%d,%d",
        o.estrategia().clave, !o.tramo().isEmpty(), o.carga().requests(), o.carga().workers(), o.carga().products(), o.carga().stock(),
        o.approved(), o.rejected(), o.busy(), o.failed(), o.finalStock(), o.seconds(), o.meanMs(), o.p99Ms(), o.throughput(),
        o.waitMeanMicros(), o.waitMaxMs(), o.waits(), o.retries(), c.oversold(), c.negative(), c.lostUpdates(), c.approvalsShort()));
    }
    Files.write(file, lines);
  }

  static void csvInstancias(Path file, List<DosInstancias.Resultado> resultados) throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add("variant,stock,requests,approved_this_jvm,approved_child_jvm,final_stock,oversold,consistency_errors,seconds");
    for (DosInstancias.Resultado r : resultados) {
      lines.add(String.format(Locale.ROOT, "%s,%d,%d,%d,%d,%d,%d,%d,%.4f", r.variante().clave, r.stock(), r.requests(), r.aprobadasAqui(),
        r.aprobadasHijo(), r.finalStock(), r.consistencia().oversold(), r.consistencia().total(), r.seconds()));
    }
    Files.write(file, lines);
  }

  static void csvEtapa(Path file, List<ReservasCalientes.Medida> medidas) throws IOException {
    List<String> lines = new ArrayList<>();
    lines.add("lote_max,reservations,stock,approved,final_stock,seconds,reservations_per_s");
    for (ReservasCalientes.Medida m : medidas) {
      lines.add(String.format(Locale.ROOT, "%d,%d,%d,%d,%d,%.4f,%.1f", m.loteMax(), m.reservas(), m.stock(), m.aprobadas(),
        m.stockFinal(), m.segundos(), m.porSegundo()));
    }
    Files.write(file, lines);
  }
}
