package ccp.etapas;

import ccp.cadena.Etapa;
import ccp.cadena.Lineas;
import ccp.platform.kafka.ConsumerVerticle;
import ccp.platform.kafka.Priority;
import ccp.platform.kafka.Envelope;
import ccp.platform.kafka.EventTypes;
import ccp.platform.kafka.Topics;
import ccp.platform.role.RoleContext;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.kafka.client.consumer.KafkaConsumerRecord;
import io.vertx.kafka.client.producer.KafkaHeader;

import java.util.UUID;
import java.util.function.Supplier;

/**
 * ConsumidorEtapa of one stage (steps 7–8): takes the commands for its stage from its own queue on
 * {@code etapa.ejecutar}, applies the stage's effect once per order (a redelivered command only re-confirms) and
 * publishes {@code etapa.completada} with what it did. Its offset moves only after the confirmation is acknowledged.
 */
final class ConsumidorEtapa extends ConsumerVerticle {

  private final Etapa etapa;
  private final Supplier<Efecto> fabrica;
  private Efecto efecto;

  private ConsumidorEtapa(RoleContext role, Etapa etapa, Supplier<Efecto> fabrica) {
    super(role.kafka(), role.health(), role.registry(), etapa.cola(), Topics.ETAPA_EJECUTAR, Priority.CHAIN);
    this.etapa = etapa;
    this.fabrica = fabrica;
  }

  static ConsumidorEtapa facturacion(RoleContext role, int loteMax) {
    return new ConsumidorEtapa(role, Etapa.FACTURACION, () -> new Facturacion(role.sql(), loteMax));
  }

  static ConsumidorEtapa inventario(RoleContext role, int loteMax) {
    return new ConsumidorEtapa(role, Etapa.INVENTARIO, () -> new Inventario(role.sql(), loteMax));
  }

  static ConsumidorEtapa despacho(RoleContext role, int loteMax) {
    return new ConsumidorEtapa(role, Etapa.DESPACHO, () -> new ValidacionDespacho(role.sql(), loteMax));
  }

  @Override
  protected void prepare() {
    efecto = fabrica.get();
  }

  /** A command whose header names another stage is not parsed; one without the header is, and judged by its body. */
  @Override
  protected boolean concierne(KafkaConsumerRecord<String, String> record) {
    for (KafkaHeader header : record.headers()) {
      if (Etapa.CABECERA.equals(header.key())) return etapa.name().equals(header.value().toString());
    }
    return true;
  }

  @Override
  protected Future<Void> handle(Envelope comando) {
    EventTypes.require(comando, EventTypes.ETAPA_EJECUTAR, Topics.ETAPA_EJECUTAR);
    if (!etapa.name().equals(comando.textOf("etapa"))) return Future.succeededFuture();
    UUID pedido = UUID.fromString(comando.textOf("pedido"));
    int intento = comando.data().getInteger("intento", 0);
    boolean compensar = "COMPENSAR".equals(comando.data().getString("accion"));
    Future<Resultado> hecho = compensar ? efecto.compensar(pedido) : efecto.aplicar(pedido, Lineas.de(comando.data()));
    return hecho.compose(resultado -> confirmar(pedido, intento, resultado));
  }

  private Future<Void> confirmar(UUID pedido, int intento, Resultado resultado) {
    JsonObject data = new JsonObject()
      .put("pedido", pedido.toString())
      .put("etapa", etapa.name())
      .put("intento", intento)
      .put("resultado", resultado.resultado().name())
      .put("motivo", resultado.motivo());
    Envelope confirmacion = Envelope.create(EventTypes.ETAPA_COMPLETADA, "/etapas/" + etapa.name().toLowerCase(), pedido.toString(), data);
    return publisher().publish(Topics.ETAPA_COMPLETADA, pedido.toString(), confirmacion).mapEmpty();
  }

}
