package ccp.cadena;

import ccp.platform.async.PeriodicTask;
import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.Topics;
import ccp.platform.role.RoleContext;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Reanudador (R6–R11): takes a retry signal from {@code cola.reintentos}, moves the stage to EN_REINTENTO with a new
 * attempt and a wait of {@code reanudador.espera-ms}, and re-sends only that stage. A periodic check escalates the
 * retries that got no confirmation in time (R9) and publishes them on {@code cadena.escalada}. Confirmation and
 * escalation race on the row: each is a conditional update, the first writer wins. Keeping the wait in the row, not in
 * a timer of this process, means a Reanudador that dies mid-wait is replaced by any other one. Both read the chain in
 * the same statement: the stage of an order annulled meanwhile (chain DETENIDO) is neither retried nor escalated.
 */
final class Reanudador extends ConsumidorCadena {

  static final String COLA = "cola.reintentos";

  private PeriodicTask chequeo;

  Reanudador(RoleContext role, CadenaConfig config) {
    super(role, config, COLA, Topics.COLA_REINTENTOS);
  }

  @Override
  protected void preparar() {
    long espera = config.esperaReintentoMs();
    chequeo = PeriodicTask.every(vertx, Math.max(50, Math.min(500, espera / 4)), "Escalation check", this::escalarVencidos);
  }

  @Override
  protected void release() {
    chequeo.cancel();
  }

  /** R6–R8. A signal for an attempt that already moved on (confirmed, or retried) changes nothing. */
  @Override
  protected Future<Void> handle(Envelope senal) {
    EventTypes.require(senal, EventTypes.REINTENTO, Topics.COLA_REINTENTOS);
    UUID pedido = UUID.fromString(senal.textOf("pedido"));
    Etapa etapa = Etapa.valueOf(senal.textOf("etapa"));
    int intento = senal.data().getInteger("intento");
    return cadenas.reintentar(pedido, etapa, intento, config.esperaReintentoMs()).compose(reintento -> reintento.isEmpty()
      ? Future.succeededFuture()
      : comandos.ejecutar(pedido, etapa, reintento.get().intento(), reintento.get().lineas()));
  }

  /**
   * R9, then the escalations whose event is not acknowledged yet (this process or another died before): published
   * again. Each a page ({@link RegistroSenales#PAGINA}) at a time until one is short: no cap per check.
   */
  private Future<Void> escalarVencidos() {
    return porPaginas(cadenas::escalarVencidas).compose(x -> porPaginas(cadenas::escaladasSinPublicar));
  }

  private Future<Void> porPaginas(Supplier<Future<List<RepositorioCadena.Escalada>>> pagina) {
    return pagina.get().compose(escaladas -> publicar(escaladas)
      .compose(x -> escaladas.size() < RegistroSenales.PAGINA ? Future.succeededFuture() : porPaginas(pagina)));
  }

  /**
   * R9: {@code cadena.escalada}, key pedido, marked acknowledged in one statement. ASR-4 for the retries nobody
   * confirmed ends further on, when the Bandeja holds the item (R11, {@link ConsumidorBandeja}): the event carries when
   * the stopped attempt and its retry began.
   */
  private Future<Void> publicar(List<RepositorioCadena.Escalada> escaladas) {
    return Future.all(escaladas.stream().map(e -> {
      JsonObject data = new JsonObject().put("pedido", e.pedido().toString()).put("etapa", e.etapa().name())
        .put("intento", e.intento()).put("motivo", "sin confirmación tras el reintento")
        .put("en_curso_desde", texto(e.enCursoDesde())).put("reintento_desde", texto(e.reintentoDesde()));
      String id = "ESCALADA:" + e.pedido() + ":" + e.etapa().name() + ":" + e.intento();
      Envelope escalada = new Envelope(UUID.nameUUIDFromBytes(id.getBytes(StandardCharsets.UTF_8)).toString(),
        EventTypes.ESCALADA, "/cadena/reanudador", Instant.now(), e.pedido().toString(), data);
      return publisher().publish(Topics.CADENA_ESCALADA, e.pedido().toString(), escalada).map(e);
    }).toList()).compose(publicadas -> cadenas.escaladasPublicadas(publicadas.list()));
  }

  private static String texto(OffsetDateTime t) {
    return t == null ? null : t.toInstant().toString();
  }
}
