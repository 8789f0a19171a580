package ccp.experimento;

import ccp.carga.Histogram;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The run cut at every fault's start and end ({@code eventos.log}, written by {@code bin/experiment}: epoch ms,
 * {@code inicio|fin}, name): each phase is named by the faults active in it, or "no fault". Per phase, what the load got
 * and the ASRs the processes recorded.
 */
final class Fases {

  /** A fault's start or end. */
  record Evento(long epochMs, String tipo, String nombre) {}

  /** Seconds {@code desde} to {@code hasta} of the load, with the faults active then. */
  record Fase(int desde, int hasta, String nombre) {}

  static final long[] BUDGETS_MS = {2_000, 5_000, 30_000, 5_000};
  /** The phase column: wide enough for three faults at once (the short form overlaps them). */
  private static final int ANCHO = 86;

  static List<Evento> leer(Path log) throws IOException {
    List<Evento> eventos = new ArrayList<>();
    if (!Files.exists(log)) return eventos;
    for (String line : Files.readAllLines(log)) {
      String[] parts = line.trim().split(" ", 3);
      if (parts.length == 3 && (parts[1].equals("inicio") || parts[1].equals("fin"))) {
        eventos.add(new Evento(Long.parseLong(parts[0]), parts[1], parts[2]));
      }
    }
    return eventos;
  }

  /** The load's {@code seconds} from {@code inicioMs}, cut at every fault's start and end. */
  static List<Fase> cortar(List<Evento> eventos, long inicioMs, int seconds) {
    List<Fase> fases = new ArrayList<>();
    Set<String> activas = new LinkedHashSet<>();
    int desde = 0;
    for (Evento e : eventos) {
      if (e.nombre().equals("carga")) continue;
      int at = (int) Math.max(0, Math.min(seconds, (e.epochMs() - inicioMs + 500) / 1000));
      if (at > desde) fases.add(new Fase(desde, at, nombre(activas)));
      desde = Math.max(desde, at);
      if (e.tipo().equals("inicio")) activas.add(e.nombre());
      else activas.remove(e.nombre());
    }
    if (seconds > desde) fases.add(new Fase(desde, seconds, nombre(activas)));
    return fases;
  }

  private static String nombre(Set<String> activas) {
    return activas.isEmpty() ? "no fault" : String.join(" + ", activas);
  }

  /** The table: one row per phase; ASR p99s from the histograms recorded in it (n: how many), budgets marked. */
  static String tabla(List<Fase> fases, List<Carga.Segundo> segundos, Muestreo muestreo, long inicioMs) {
    StringBuilder out = new StringBuilder(String.format(Locale.ROOT,
      "%-" + ANCHO + "s %9s %11s %11s %8s %6s  %-18s %-18s %-18s %-18s%n", "phase", "seconds", "sessions", "orders", "refused",
      "failed", "ASR-1 p99 (n)", "ASR-2 p99 (n)", "ASR-3 p99 (n)", "ASR-4 p99 (n)"));
    for (Fase f : fases) {
      long sesEnv = 0, sesOk = 0, pedEnv = 0, pedOk = 0, rechazadas = 0, fallidas = 0;
      for (int s = f.desde(); s < f.hasta() && s < segundos.size(); s++) {
        Carga.Segundo seg = segundos.get(s);
        sesEnv += seg.sesionesEnviadas;
        sesOk += seg.sesionesOk;
        pedEnv += seg.pedidosEnviados;
        pedOk += seg.pedidosOk;
        rechazadas += seg.rechazadas;
        fallidas += seg.fallidas;
      }
      out.append(String.format(Locale.ROOT, "%-" + ANCHO + "s %4d–%-4d %5d/%-5d %5d/%-5d %8d %6d ", recortar(f.nombre()),
        f.desde(), f.hasta(), sesOk, sesEnv, pedOk, pedEnv, rechazadas, fallidas));
      for (int i = 0; i < Muestreo.ASRS.size(); i++) {
        Histogram h = muestreo.entre(Muestreo.ASRS.get(i), inicioMs + f.desde() * 1000L, inicioMs + f.hasta() * 1000L);
        out.append(String.format(Locale.ROOT, " %-18s", asr(h, BUDGETS_MS[i])));
      }
      out.append('\n');
    }
    return out.toString();
  }

  /** p99 in ms and the count; "!" when over the ASR's budget, "–" when nothing was recorded. */
  static String asr(Histogram h, long budgetMs) {
    if (h.count() <= 0) return "–";
    double p99 = h.quantileMillisSince(Muestreo.vacio(), 0.99);
    String ms = Double.isInfinite(p99) ? "> top" : String.format(Locale.ROOT, "%.0f ms", p99);
    return ms + (p99 > budgetMs ? "!" : "") + " (" + h.count() + ")";
  }

  private static String recortar(String s) {
    return s.length() <= ANCHO ? s : s.substring(0, ANCHO - 1) + "…";
  }
}
