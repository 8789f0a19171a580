package ccp.experimento;

import ccp.carga.Histogram;

import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The run's timeline as a PNG: above, sessions and orders acknowledged per second; below, ASR-1 and ASR-2 p99 per
 * sampling period (log scale, their budgets dashed); faults shaded across both, named at their start.
 */
final class LineaTiempo {

  private static final int WIDTH = 1200;
  private static final int HEIGHT = 560;
  private static final int LEFT = 70;
  private static final int RIGHT = 20;
  private static final int TOP_PANEL = 40;
  private static final int PANEL = 220;
  private static final int GAP = 50;
  private static final Color SESIONES = new Color(0x1f77b4);
  private static final Color PEDIDOS = new Color(0xff7f0e);
  private static final Color FALLO = new Color(255, 0, 0, 40);

  static void dibujar(Path png, String titulo, List<Carga.Segundo> segundos, Muestreo muestreo, List<Fases.Evento> eventos,
                      long inicioMs) throws IOException {
    int seconds = segundos.size();
    BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = image.createGraphics();
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, WIDTH, HEIGHT);
    g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
    g.setColor(Color.BLACK);
    g.drawString(titulo, LEFT, 18);
    int bottomTop = TOP_PANEL + PANEL + GAP;
    fallos(g, eventos, inicioMs, seconds);

    double maxRate = 1;
    for (Carga.Segundo s : segundos) maxRate = Math.max(maxRate, Math.max(s.sesionesOk, s.pedidosOk));
    ejes(g, TOP_PANEL, "acknowledged per second (max " + (long) maxRate + ")", seconds);
    double[] ses = new double[seconds];
    double[] ped = new double[seconds];
    for (int i = 0; i < seconds; i++) {
      ses[i] = segundos.get(i).sesionesOk / maxRate;
      ped[i] = segundos.get(i).pedidosOk / maxRate;
    }
    serie(g, ses, 1, TOP_PANEL, SESIONES, seconds, "sessions/s", 0);
    serie(g, ped, 1, TOP_PANEL, PEDIDOS, seconds, "orders/s", 1);

    ejes(g, bottomTop, "ASR p99 per " + Muestreo.PERIOD_MS / 1000 + " s (log, 10 ms – 100 s)", seconds);
    int periods = (int) (seconds * 1000 / Muestreo.PERIOD_MS);
    Map<String, double[]> p99 = new HashMap<>();
    for (String asr : List.of("asr1_seconds", "asr2_seconds")) {
      double[] values = new double[periods];
      for (int i = 0; i < periods; i++) {
        long from = inicioMs + i * Muestreo.PERIOD_MS;
        Histogram h = muestreo.entre(asr, from, from + Muestreo.PERIOD_MS);
        values[i] = h.count() <= 0 ? Double.NaN : logScale(h.quantileMillisSince(Muestreo.vacio(), 0.99));
      }
      p99.put(asr, values);
    }
    double step = Muestreo.PERIOD_MS / 1000.0;
    serie(g, p99.get("asr1_seconds"), step, bottomTop, SESIONES, seconds, "ASR-1 (budget 2 s)", 0);
    serie(g, p99.get("asr2_seconds"), step, bottomTop, PEDIDOS, seconds, "ASR-2 (budget 5 s)", 1);
    presupuesto(g, bottomTop, logScale(2_000), SESIONES, seconds);
    presupuesto(g, bottomTop, logScale(5_000), PEDIDOS, seconds);
    g.dispose();
    ImageIO.write(image, "png", png.toFile());
  }

  /** 10 ms → 0, 100 s → 1. */
  private static double logScale(double ms) {
    if (Double.isInfinite(ms)) return 1;
    return Math.max(0, Math.min(1, (Math.log10(Math.max(ms, 10)) - 1) / 4));
  }

  private static int x(double second, int seconds) {
    return LEFT + (int) ((WIDTH - LEFT - RIGHT) * second / Math.max(1, seconds));
  }

  private static void fallos(Graphics2D g, List<Fases.Evento> eventos, long inicioMs, int seconds) {
    Map<String, Long> abiertos = new HashMap<>();
    int row = 0;
    for (Fases.Evento e : eventos) {
      if (e.nombre().equals("carga")) continue;
      if (e.tipo().equals("inicio")) {
        abiertos.put(e.nombre(), e.epochMs());
        continue;
      }
      Long desde = abiertos.remove(e.nombre());
      if (desde == null) continue;
      int x0 = x((desde - inicioMs) / 1000.0, seconds);
      int x1 = Math.max(x0 + 2, x((e.epochMs() - inicioMs) / 1000.0, seconds));
      g.setColor(FALLO);
      g.fillRect(x0, TOP_PANEL, x1 - x0, 2 * PANEL + GAP);
      g.setColor(Color.RED.darker());
      g.drawString(e.nombre(), x0 + 2, TOP_PANEL + PANEL + 14 + 12 * (row++ % 3));
    }
  }

  private static void ejes(Graphics2D g, int top, String label, int seconds) {
    g.setColor(Color.GRAY);
    g.drawRect(LEFT, top, WIDTH - LEFT - RIGHT, PANEL);
    g.setColor(Color.BLACK);
    g.drawString(label, LEFT + 4, top - 4);
    for (int s = 0; s <= seconds; s += Math.max(10, seconds / 12 / 10 * 10)) g.drawString(s + " s", x(s, seconds) - 8, top + PANEL + 12);
  }

  private static void serie(Graphics2D g, double[] values, double step, int top, Color color, int seconds, String name, int legend) {
    g.setColor(color);
    g.setStroke(new BasicStroke(1.5f));
    int px = -1;
    int py = -1;
    for (int i = 0; i < values.length; i++) {
      if (Double.isNaN(values[i])) {
        px = -1;
        continue;
      }
      int cx = x(i * step, seconds);
      int cy = top + PANEL - (int) (values[i] * PANEL);
      if (px >= 0) g.drawLine(px, py, cx, cy);
      else g.fillOval(cx - 1, cy - 1, 3, 3);
      px = cx;
      py = cy;
    }
    g.drawString(name, WIDTH - RIGHT - 160, top + 14 + 14 * legend);
  }

  private static void presupuesto(Graphics2D g, int top, double value, Color color, int seconds) {
    g.setColor(color);
    g.setStroke(new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1f, new float[] {6f, 4f}, 0f));
    int y = top + PANEL - (int) (value * PANEL);
    g.drawLine(LEFT, y, x(seconds, seconds), y);
  }
}
