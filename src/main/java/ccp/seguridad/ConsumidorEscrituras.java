package ccp.seguridad;

import ccp.app.RoleContext;
import ccp.platform.http.ServiceClient;
import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventPublisher;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.PoisonMessageException;
import ccp.platform.kafka.ReliableConsumer;
import ccp.platform.kafka.Topics;
import ccp.seguridad.RegistroReacciones.Paso;
import ccp.seguridad.RegistroReacciones.Reaccion;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;

/**
 * ConsumidorEscrituras of the Detector de escrituras indebidas (B3–B6): takes each committed write from
 * {@code cola.detector}, asks the Gestor for the writer's current permissions (B5) and, if the write did not fit them,
 * asks the Reacción (B6, t_det). Its offset moves only once the reaction is durably open.
 */
public final class ConsumidorEscrituras extends VerticleBase {

  static final String COLA = "cola.detector";
  private static final Set<String> SERVICIOS = Set.of("pedidos");

  private final RoleContext role;
  private EventPublisher deadLetters;
  private ReliableConsumer consumer;
  private ServiceClient gestor;

  public ConsumidorEscrituras(RoleContext role) {
    this.role = role;
  }

  @Override
  public Future<?> start() {
    gestor = new ServiceClient(vertx, role.settings(), role.tokens(), "seguridad-detector");
    deadLetters = EventPublisher.create(vertx, role.settings(), "seguridad-detector");
    consumer = new ReliableConsumer(vertx, role.settings(), COLA, Topics.ESCRITURA_REALIZADA, deadLetters, this::detectar);
    role.health().readyWhen(COLA, context, consumer::readiness);
    return consumer.start();
  }

  @Override
  public Future<?> stop() {
    role.health().forget(COLA);
    gestor.close();
    return consumer.stop().eventually(deadLetters::close);
  }

  private Future<Void> detectar(Envelope escritura) {
    EventTypes.require(escritura, EventTypes.ESCRITURA_REALIZADA, Topics.ESCRITURA_REALIZADA);
    UUID idEscritura = UUID.fromString(escritura.textOf("id_escritura"));
    String servicio = escritura.textOf("servicio");
    if (!SERVICIOS.contains(servicio)) throw new PoisonMessageException("unknown servicio '" + servicio + "' (known: " + SERVICIOS + ")");
    String actor = escritura.textOf("actor");
    String pedido = escritura.textOf("pedido");
    return permitida(actor).compose(permitida -> {
      if (permitida) return Future.succeededFuture();
      Reaccion reaccion = new Reaccion(idEscritura, actor, servicio, pedido, Instant.now(), Paso.ABIERTA);
      return vertx.eventBus().<JsonObject>request(OrquestadorReaccion.DIRECCION, reaccion.toJson()).mapEmpty();
    });
  }

  /** B5. A writer the Gestor does not know had no right to write either. */
  private Future<Boolean> permitida(String actor) {
    String path = "/interno/actores/" + URLEncoder.encode(actor, StandardCharsets.UTF_8).replace("+", "%20") + "/permisos";
    return gestor.get(role.settings().text("gestor.url"), path)
      .map(permisos -> permisos.getBoolean("puede_escribir", false))
      .recover(err -> err instanceof ServiceClient.Failure f && f.status() == 404
        ? Future.succeededFuture(false) : Future.failedFuture(err));
  }
}
