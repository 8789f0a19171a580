package ccp.vigilancia;

import ccp.cadena.Etapa;
import ccp.platform.config.Settings;
import ccp.platform.db.Liderazgo;

import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code vigilancia} role's settings: how often the standby tries the leadership (and the bounds of a leader cut
 * off from PostgreSQL), the leader sweeps deadlines and probes the stages, where it asks each probed stage for its
 * health and how long a stage may take to answer or hold records without finishing one, and the ASR-3 budget.
 *
 * @param sondeoUrls     the management URLs of the processes that run each probed stage ({@code
 *                       vigilancia.sondeo.<etapa>-urls}); none: only the broker is asked
 * @param sondeoPlazoMs  a stage that does not answer within this, or has held records this long without finishing one,
 *                       is hung ({@code vigilancia.sondeo-plazo-ms})
 */
public record VigilanciaConfig(Liderazgo.Plazos liderazgo, int barridoMs, int sondeoMs, Map<Etapa, List<String>> sondeoUrls,
                               int sondeoPlazoMs, Duration asr3Budget) {

  public static VigilanciaConfig from(Settings settings) {
    Map<Etapa, List<String>> urls = new EnumMap<>(Etapa.class);
    urls.put(Etapa.FACTURACION, urls(settings.text("vigilancia.sondeo.facturacion-urls")));
    urls.put(Etapa.DESPACHO, urls(settings.text("vigilancia.sondeo.despacho-urls")));
    return new VigilanciaConfig(Liderazgo.Plazos.from(settings, "vigilancia.liderazgo-ms"), settings.integer("vigilancia.barrido-ms"),
      settings.integer("vigilancia.sondeo-ms"), urls, settings.integer("vigilancia.sondeo-plazo-ms"), settings.millis("asr3.budget-ms"));
  }

  private static List<String> urls(String text) {
    return text.isEmpty() ? List.of() : Arrays.stream(text.split(",")).map(String::trim).toList();
  }
}
