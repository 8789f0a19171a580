package ccp.seguridad;

import ccp.platform.role.RoleContext;
import ccp.platform.db.Combiner;
import ccp.platform.http.ServiceClient;
import ccp.platform.kafka.ConsumerVerticle;
import ccp.platform.kafka.Priority;
import ccp.platform.kafka.ReliableConsumer;
import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.PoisonMessageException;
import ccp.platform.kafka.Topics;
import ccp.seguridad.RegistroReacciones.Paso;
import ccp.seguridad.RegistroReacciones.Reaccion;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * ConsumidorEscrituras of the Detector de escrituras indebidas (B3–B6): takes each committed write of Pedidos or
 * Inventario from {@code cola.detector}, asks the Gestor for the writer's current permissions (B5) and, if the write did not fit them,
 * asks the Reacción (B6, t_det). Its offset moves only once the reaction is durably open. It fails closed: a write
 * whose writer the Gestor cannot be asked about is retried until it can, never set aside unchecked.
 */
final class ConsumidorEscrituras extends ConsumerVerticle {

  static final String COLA = "cola.detector";
  private static final Logger LOG = LoggerFactory.getLogger(ConsumidorEscrituras.class);
  /**
   * The services whose writes are checked: per service, the {@code operacion} that is the App's write (the others, such
   * as the Reacción's own annulments, are no actor's write) and the field naming what it made.
   */
  private static final Map<String, Escrita> SERVICIOS = Map.of(
    "pedidos", new Escrita(EventTypes.CREAR_PEDIDO, "pedido"),
    "inventario", new Escrita(EventTypes.AJUSTAR_INVENTARIO, "ajuste"));

  private record Escrita(String operacion, String campo) {}

  private final RoleContext role;
  private final SeguridadConfig config;
  private ServiceClient gestor;
  private Combiner<String, String, Set<String>> permisos;
  private PublicadorAlertas alertas;
  /** Since when the Gestor's answers fail, without one success since; null while they succeed. */
  private Instant fallandoDesde;
  private boolean avisada;

  ConsumidorEscrituras(RoleContext role, SeguridadConfig config) {
    super(role.kafka(), role.health(), role.registry(), COLA, Topics.ESCRITURA_REALIZADA, Priority.SECURITY);
    this.role = role;
    this.config = config;
  }

  @Override
  protected void prepare() {
    gestor = new ServiceClient(vertx, role.http(), role.signer());
    permisos = new Combiner<>(config.detectorLoteMax(), actor -> actor, this::consultar);
    alertas = new PublicadorAlertas(publisher());
  }

  @Override
  protected void release() {
    gestor.close();
  }

  /**
   * Never a dead letter for a write that could not be checked: set aside, it would be a write nobody checked (fail
   * closed). A Gestor that stays unreachable is told to the area and the Bandeja instead ({@link #permitida}).
   */
  @Override
  protected ReliableConsumer.RetryPolicy retryPolicy() {
    return ReliableConsumer.RetryPolicy.UNTIL_DONE;
  }

  @Override
  protected Future<Void> handle(Envelope escritura) {
    EventTypes.require(escritura, EventTypes.ESCRITURA_REALIZADA, Topics.ESCRITURA_REALIZADA);
    UUID idEscritura = UUID.fromString(escritura.textOf("id_escritura"));
    String servicio = escritura.textOf("servicio");
    Escrita escrita = SERVICIOS.get(servicio);
    if (escrita == null) throw new PoisonMessageException("unknown servicio '" + servicio + "' (known: " + SERVICIOS.keySet() + ")");
    if (!escrita.operacion().equals(escritura.textOf("operacion"))) return Future.succeededFuture();
    String actor = escritura.textOf("actor");
    String escrito = escritura.textOf(escrita.campo());
    return permitida(actor, servicio, idEscritura).compose(permitida -> {
      if (permitida) return Future.succeededFuture();
      Reaccion reaccion = new Reaccion(idEscritura, actor, servicio, escrito, Instant.now(), Paso.ABIERTA);
      JsonObject solicitud = reaccion.toJson();
      if (escritura.data().containsKey(OrquestadorReaccion.T_ESCRITURA)) {
        solicitud.put(OrquestadorReaccion.T_ESCRITURA, escritura.instantOf(OrquestadorReaccion.T_ESCRITURA).toString());
      }
      return vertx.eventBus().<JsonObject>request(OrquestadorReaccion.DIRECCION, solicitud).mapEmpty();
    });
  }

  /**
   * B5: whether the writer may write in {@code servicio} now. A writer the Gestor does not know had no right to write
   * either. When the Gestor's answers have failed for longer than ASR-2's budget, the area and the Bandeja are told
   * once, until an answer succeeds again.
   */
  private Future<Boolean> permitida(String actor, String servicio, UUID idEscritura) {
    return permisos.submit(actor).map(servicios -> servicios != null && servicios.contains(servicio)).onSuccess(x -> {
      fallandoDesde = null;
      avisada = false;
    }).onFailure(err -> {
      Instant ahora = Instant.now();
      if (fallandoDesde == null) fallandoDesde = ahora;
      if (avisada || Duration.between(fallandoDesde, ahora).compareTo(config.asr2Budget()) <= 0) return;
      avisada = true;
      alertas.deteccionDetenida(actor, idEscritura.toString(), fallandoDesde, String.valueOf(err.getMessage())).onFailure(e -> {
        LOG.warn("Telling the area the Detector is stuck failed ({}); told at the next failure", e.toString());
        avisada = false;
      });
    });
  }

  /**
   * The writers of the writes pending meanwhile, asked together ({@link Combiner}): one request to the Gestor for a
   * batch instead of one per write. It fails closed: any answer but 200 (a refused key, a 5xx, a timeout) fails the
   * writes, which the consumer retries with back-off, its offset unmoved; no write is set aside unchecked.
   */
  private Future<Map<String, Set<String>>> consultar(List<String> actores) {
    JsonObject pregunta = new JsonObject().put("actores", new JsonArray(new ArrayList<>(actores)));
    return gestor.post("gestor", config.gestorUrl(), "/interno/actores/permisos", pregunta)
      .map(respuesta -> {
        Map<String, Set<String>> escribenEn = new HashMap<>();
        for (Object p : respuesta.getJsonArray("permisos")) {
          JsonObject permiso = (JsonObject) p;
          // An answer without it (a Gestor from before escribe_en, mid-upgrade) is no answer: taken as "may write
          // nowhere", it would revoke every writer; failing retries the writes until the Gestor answers it.
          JsonArray escribeEn = permiso.getJsonArray("escribe_en");
          if (escribeEn == null) throw new IllegalStateException("the Gestor's permissions of " + permiso.getString("actor") + " have no escribe_en");
          Set<String> servicios = new HashSet<>();
          escribeEn.forEach(s -> servicios.add(String.valueOf(s)));
          escribenEn.put(permiso.getString("actor"), servicios);
        }
        return escribenEn;
      });
  }
}
