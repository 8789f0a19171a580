package ccp.lab;

import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The report's two PNG charts, drawn with Java2D (headless, no charting dependency): throughput and p99 per strategy,
 * and throughput against worker count. Both use log scales: the strategies differ by orders of magnitude.
 */
final class Graficas {

  private static final Color[] PALETA = {
    new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c), new Color(0xd62728), new Color(0x9467bd), new Color(0x8c564b),
    new Color(0xe377c2), new Color(0x7f7f7f), new Color(0xbcbd22), new Color(0x17becf), new Color(0x393b79), new Color(0xad494a),
    new Color(0x637939)};
  private static final Font TEXTO = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
  private static final Font TITULO = new Font(Font.SANS_SERIF, Font.BOLD, 14);

  static {
    System.setProperty("java.awt.headless", "true");
  }

  private Graficas() {}

  static void estrategias(Path file, List<Outcome> outcomes) throws IOException {
    int fila = 26;
    int alto = 90 + fila * outcomes.size();
    BufferedImage img = lienzo(1300, alto);
    Graphics2D g = img.createGraphics();
    suavizar(g);
    barras(g, outcomes, 150, 560, fila, "throughput (operations/s, log scale)", Outcome::throughput, "%,.0f");
    barras(g, outcomes, 800, 470, fila, "p99 latency (ms, log scale)", Outcome::p99Ms, "%,.2f");
    g.dispose();
    ImageIO.write(img, "png", file.toFile());
  }

  private static void barras(Graphics2D g, List<Outcome> outcomes, int x0, int ancho, int fila, String titulo,
                             ToDoubleFunction<Outcome> valor, String formato) {
    double min = outcomes.stream().mapToDouble(valor).filter(v -> v > 0).min().orElse(1);
    double max = outcomes.stream().mapToDouble(valor).max().orElse(10);
    double lo = Math.floor(Math.log10(min));
    double hi = Math.max(lo + 1, Math.ceil(Math.log10(max)));
    g.setFont(TITULO);
    g.setColor(Color.BLACK);
    g.drawString(titulo, x0, 30);
    g.setFont(TEXTO);
    int y0 = 50;
    for (double d = lo; d <= hi; d++) {
      int x = x0 + (int) ((d - lo) / (hi - lo) * ancho);
      g.setColor(new Color(0xdddddd));
      g.drawLine(x, y0, x, y0 + fila * outcomes.size());
      g.setColor(Color.DARK_GRAY);
      g.drawString(String.format(Locale.ROOT, "%,.0f", Math.pow(10, d)).replace(".0", ""), x - 10, y0 + fila * outcomes.size() + 16);
    }
    for (int i = 0; i < outcomes.size(); i++) {
      Outcome o = outcomes.get(i);
      double v = valor.applyAsDouble(o);
      int y = y0 + i * fila;
      int largo = v <= 0 ? 0 : (int) ((Math.log10(v) - lo) / (hi - lo) * ancho);
      g.setColor(PALETA[o.estrategia().ordinal() % PALETA.length]);
      g.fillRect(x0, y + 4, Math.max(1, largo), fila - 8);
      g.setColor(Color.BLACK);
      if (x0 < 200) g.drawString(o.estrategia().clave, 10, y + fila - 9);
      g.drawString(String.format(Locale.ROOT, formato, v), x0 + largo + 4, y + fila - 9);
    }
  }

  static void trabajadores(Path file, Map<Catalogo, List<Outcome>> porEstrategia) throws IOException {
    int x0 = 90;
    int y0 = 60;
    int ancho = 820;
    int alto = 520;
    BufferedImage img = lienzo(1200, 660);
    Graphics2D g = img.createGraphics();
    suavizar(g);
    List<Outcome> todos = porEstrategia.values().stream().flatMap(List::stream).toList();
    double wMax = Math.log(todos.stream().mapToInt(o -> o.carga().workers()).max().orElse(2)) / Math.log(2);
    double lo = Math.floor(Math.log10(todos.stream().mapToDouble(Outcome::throughput).min().orElse(1)));
    double hi = Math.max(lo + 1, Math.ceil(Math.log10(todos.stream().mapToDouble(Outcome::throughput).max().orElse(10))));
    g.setFont(TITULO);
    g.setColor(Color.BLACK);
    g.drawString("throughput (operations/s, log scale) against worker threads (log scale)", x0, 30);
    g.setFont(TEXTO);
    for (double d = lo; d <= hi; d++) {
      int y = y0 + alto - (int) ((d - lo) / (hi - lo) * alto);
      g.setColor(new Color(0xdddddd));
      g.drawLine(x0, y, x0 + ancho, y);
      g.setColor(Color.DARK_GRAY);
      g.drawString(String.format(Locale.ROOT, "%,.0f", Math.pow(10, d)), 10, y + 4);
    }
    for (int e = 0; e <= wMax; e++) {
      int x = x0 + (int) (wMax == 0 ? 0 : e / wMax * ancho);
      g.setColor(new Color(0xdddddd));
      g.drawLine(x, y0, x, y0 + alto);
      g.setColor(Color.DARK_GRAY);
      g.drawString(String.valueOf(1 << e), x - 6, y0 + alto + 18);
    }
    int leyenda = y0;
    g.setStroke(new BasicStroke(2f));
    for (Map.Entry<Catalogo, List<Outcome>> serie : porEstrategia.entrySet()) {
      g.setColor(PALETA[serie.getKey().ordinal() % PALETA.length]);
      int px = -1;
      int py = -1;
      for (Outcome o : serie.getValue()) {
        int x = x0 + (int) (wMax == 0 ? 0 : Math.log(o.carga().workers()) / Math.log(2) / wMax * ancho);
        int y = y0 + alto - (int) ((Math.log10(o.throughput()) - lo) / (hi - lo) * alto);
        g.fillOval(x - 3, y - 3, 6, 6);
        if (px >= 0) g.drawLine(px, py, x, y);
        px = x;
        py = y;
      }
      g.fillRect(x0 + ancho + 30, leyenda, 14, 10);
      g.setColor(Color.BLACK);
      g.drawString(serie.getKey().clave, x0 + ancho + 50, leyenda + 10);
      leyenda += 20;
    }
    g.dispose();
    ImageIO.write(img, "png", file.toFile());
  }

  private static BufferedImage lienzo(int ancho, int alto) {
    BufferedImage img = new BufferedImage(ancho, alto, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = img.createGraphics();
    g.setColor(Color.WHITE);
    g.fillRect(0, 0, ancho, alto);
    g.dispose();
    return img;
  }

  private static void suavizar(Graphics2D g) {
    g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
    g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
  }
}
