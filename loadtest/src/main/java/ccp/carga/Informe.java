package ccp.carga;

import java.util.Locale;
import java.util.OptionalDouble;

/**
 * A load run's report, and what the floor's ratio compares: the rate of accepted requests, and the CPU each cost the
 * system (or the floor) and its PostgreSQL.
 */
record Informe(String texto, double porSegundo, OptionalDouble cpuMs) {

  /** A report that is not compared with a floor. */
  static Informe solo(String texto) {
    return new Informe(texto, 0, OptionalDouble.empty());
  }

  /** The same load against the floor ({@link ccp.carga.suelo.Suelo}), what it achieved and at what cost. */
  static Informe delSuelo(String que, OpenLoad.Result r, Corrida.Scrape before, Corrida.Scrape after) {
    Cpu cpu = after.cpu().since(before.cpu());
    return new Informe(String.format(Locale.ROOT, """
      floor: the same load against a program that does only the path's I/O (its own JVM, Kafka and PostgreSQL)
        %-19s sent %d, answered %d, failed %d %s
        achieved            %.1f %s/s
        HTTP latency        %s
        CPU                 %s""",
      que + "s", r.sent(), r.ok(), r.sent() - r.ok(), r.failures(), r.perSecond(), que, r.latency(), cpu.perRequest(r.ok(), que)),
      r.perSecond(), cpu.msPer(r.ok()));
  }

  /** {@code ratio: rate <r>x, CPU <c>x}: ours ÷ the floor's. */
  static String ratio(Informe nuestro, Informe suelo) {
    String cpu = nuestro.cpuMs.isPresent() && suelo.cpuMs.isPresent() && suelo.cpuMs.getAsDouble() > 0
      ? String.format(Locale.ROOT, "%.2fx", nuestro.cpuMs.getAsDouble() / suelo.cpuMs.getAsDouble()) : "unknown";
    String cpuDetail = nuestro.cpuMs.isPresent() && suelo.cpuMs.isPresent()
      ? String.format(Locale.ROOT, "%.3f ms against %.3f ms", nuestro.cpuMs.getAsDouble(), suelo.cpuMs.getAsDouble()) : "not measured";
    return String.format(Locale.ROOT, "ratio: rate %.2fx, CPU %s  (ours ÷ the floor's: %.1f/s against %.1f/s; CPU per request, PostgreSQL included, %s)",
      suelo.porSegundo > 0 ? nuestro.porSegundo / suelo.porSegundo : 0, cpu, nuestro.porSegundo, suelo.porSegundo, cpuDetail);
  }
}
