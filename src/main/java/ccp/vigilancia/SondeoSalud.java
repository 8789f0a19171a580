package ccp.vigilancia;

import ccp.cadena.Cadena;
import ccp.cadena.Etapa;
import ccp.cadena.RegistroSenales;
import ccp.platform.async.PeriodicTask;
import ccp.platform.kafka.GroupLag;
import ccp.platform.role.RoleContext;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.kafka.admin.KafkaAdminClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * SondeoSalud, the Monitor's other scheduled thread, run only by the leader: every {@code vigilancia.sondeo-ms} it asks
 * Facturación and Validación de despacho for their health, as the view draws it. Each process that runs the stage
 * ({@code vigilancia.sondeo.<etapa>-urls}) is asked its readiness; the stage answers through its consumer's check
 * ({@code stalled_ms}: how long it has held records without finishing one). A stage is healthy when one of its
 * processes answers within {@code vigilancia.sondeo-plazo-ms} that its consumer is not stalled that long; and, asked
 * of the broker, when its queue has a live consumer. A stage dead, or alive but hung, answers neither: its stages in
 * flight are signalled at once instead of at their deadline; BarridoPlazos publishes the signals (RegistroSenales
 * keeps them single).
 */
final class SondeoSalud extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(SondeoSalud.class);
  private static final List<Etapa> SONDEADAS = List.of(Etapa.FACTURACION, Etapa.DESPACHO);

  private final RoleContext role;
  private final VigilanciaConfig config;
  private RegistroSenales registro;
  private KafkaAdminClient admin;
  private WebClient http;
  private PeriodicTask sondeo;

  SondeoSalud(RoleContext role, VigilanciaConfig config) {
    this.role = role;
    this.config = config;
  }

  @Override
  public Future<?> start() {
    registro = Cadena.registroSenales(role.sql());
    admin = KafkaAdminClient.create(vertx, role.kafka().client());
    http = WebClient.create(vertx);
    sondeo = PeriodicTask.every(vertx, config.sondeoMs(), "Health probe", this::sondear);
    return Future.succeededFuture();
  }

  @Override
  public Future<?> stop() {
    sondeo.cancel();
    http.close();
    return admin.close(5_000);
  }

  private Future<?> sondear() {
    return Future.all(SONDEADAS.stream().map(etapa -> GroupLag.hasLiveMember(admin, etapa.cola()).compose(vivo -> vivo
      ? responde(etapa).compose(sana -> sana ? Future.succeededFuture() : senalar(etapa, "does not answer its health probe"))
      : senalar(etapa, "has no live consumer"))).toList());
  }

  /** Whether one of the stage's processes answers in time that its consumer is not stalled; true when none is configured. */
  private Future<Boolean> responde(Etapa etapa) {
    List<String> urls = config.sondeoUrls().getOrDefault(etapa, List.of());
    if (urls.isEmpty()) return Future.succeededFuture(true);
    List<Future<Boolean>> respuestas = urls.stream().map(url -> sana(etapa, url)).toList();
    return Future.join(respuestas).transform(x -> Future.succeededFuture(
      respuestas.stream().anyMatch(r -> r.succeeded() && r.result())));
  }

  /** Readiness answers 503 while any of the process's checks is down: the stage's own check decides. */
  private Future<Boolean> sana(Etapa etapa, String url) {
    return http.getAbs(url + "/health/ready").timeout(config.sondeoPlazoMs()).send().map(respuesta -> {
      JsonObject body = respuesta.bodyAsJsonObject();
      if (body == null || body.getJsonArray("checks") == null) return false;
      return body.getJsonArray("checks").stream().map(JsonObject.class::cast)
        .filter(check -> etapa.cola().equals(check.getString("id")))
        .anyMatch(check -> "UP".equals(check.getString("status")) && check.getJsonObject("data") != null
          && check.getJsonObject("data").getLong("stalled_ms", Long.MAX_VALUE) < config.sondeoPlazoMs());
    });
  }

  private Future<Void> senalar(Etapa etapa, String porque) {
    return registro.senalarSinRespuesta(etapa).map(senaladas -> {
      if (senaladas > 0) LOG.warn("{} {}: {} stages in flight signalled early", etapa, porque, senaladas);
      return null;
    });
  }
}
