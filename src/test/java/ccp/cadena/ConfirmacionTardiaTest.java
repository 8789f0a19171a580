package ccp.cadena;

import ccp.platform.config.Settings;
import ccp.platform.db.Migrations;
import ccp.platform.db.PgClients;
import ccp.platform.db.PgConfig;
import ccp.platform.kafka.EventPublisher;
import ccp.platform.kafka.KafkaConfig;
import ccp.support.Db;
import ccp.support.SharedInfra;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Transaction;
import io.vertx.sqlclient.Tuple;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A late confirmation racing the escalation (R9) and the Bandeja's item (R11), on the real database: one side's
 * statement runs in a transaction this test holds open, the other is started and seen waiting on the stage's row (or
 * done, when it does not wait), then the held one commits. And the confirmation of a stage the operator retried from
 * the Bandeja, which closes the item that waited for it.
 */
@DisplayName("A confirmation after an escalation closes its Bandeja item: a late one racing the escalation's commit and its item, or the operator's retry")
class ConfirmacionTardiaTest {

  private static final long PLAZO_MS = 25_000;
  private static final Duration WAIT = Duration.ofSeconds(15);

  private static Settings settings;
  private static Vertx vertx;
  private static Pool transacciones;
  private static RepositorioCadena cadenas;
  private static RepositorioBandeja bandeja;
  private static EventPublisher publisher;

  private SimpleMeterRegistry registry;
  private Timer asr4;
  private OrquestadorCadena orquestador;

  @BeforeAll
  static void start() {
    settings = SharedInfra.settings();
    PgConfig cadena = PgConfig.of(settings, "cadena");
    Migrations.migrate(cadena, settings.flag("demo.seed"), List.of("cadena"));
    vertx = Vertx.vertx();
    SqlClient sql = PgClients.pipelined(vertx, cadena);
    cadenas = new RepositorioCadena(sql);
    bandeja = new RepositorioBandeja(sql);
    transacciones = PgBuilder.pool().connectingTo(cadena.connectOptions()).using(vertx).build();
    publisher = EventPublisher.create(vertx, KafkaConfig.of(settings, "cadena"));
  }

  @AfterAll
  static void stop() {
    publisher.close().await();
    vertx.close().await();
  }

  @BeforeEach
  void orquestador() {
    registry = new SimpleMeterRegistry();
    asr4 = Timer.builder("asr4").register(registry);
    orquestador = new OrquestadorCadena(cadenas, bandeja, new PublicadorComandos(publisher), PLAZO_MS, 100, asr4,
      Timer.builder("chain_completion").register(registry));
  }

  @Test
  @DisplayName("the escalation commits while the confirmation waits on the stage's row: a late confirmation, no ASR-4 sample, the item closed")
  void escalationCommitsWhileTheConfirmationWaits() {
    UUID pedido = enReintentoVencido();
    Future<Void> confirmacion = enTransaccion(
      conexion -> conexion.preparedQuery(SqlCadena.ESCALAR).execute(Tuple.of(RegistroSenales.PAGINA)).map(rows -> {
        assertThat(rows.size()).as("stages escalated").isPositive();
        return (Void) null;
      }),
      () -> orquestador.confirmada(pedido, Etapa.FACTURACION, ResultadoEtapa.COMPLETADA), true);
    confirmacion.timeout(WAIT.toMillis(), TimeUnit.MILLISECONDS).await();

    assertThat(asr4.count()).as("ASR-4 samples").isZero();
    archivar(pedido);
    assertThat(item(pedido)).isEqualTo("CERRADO confirmación tardía");
  }

  @Test
  @DisplayName("the item is filed (uncommitted) when the late confirmation comes: the confirmation waits for it, then closes it")
  void itemFiledBeforeTheConfirmation() {
    UUID pedido = escalada();
    Future<Void> confirmacion = enTransaccion(
      conexion -> conexion.preparedQuery(SqlBandeja.ITEM_ESCALADA).execute(itemDe(pedido)).mapEmpty(),
      () -> orquestador.confirmada(pedido, Etapa.FACTURACION, ResultadoEtapa.COMPLETADA), false);
    confirmacion.timeout(WAIT.toMillis(), TimeUnit.MILLISECONDS).await();

    assertThat(item(pedido)).isEqualTo("CERRADO confirmación tardía");
    assertThat(asr4.count()).isZero();
  }

  @Test
  @DisplayName("the late confirmation (uncommitted) when the item is filed: the item waits for it and enters closed")
  void confirmationBeforeTheItem() {
    UUID pedido = escalada();
    JsonArray entrada = new JsonArray().add(new JsonObject().put("pedido", pedido.toString()).put("hecha", "FACTURACION")
      .put("siguiente", "INVENTARIO"));
    Future<Void> archivo = enTransaccion(
      conexion -> conexion.preparedQuery(SqlCadena.AVANZAR).execute(Tuple.of(entrada, PLAZO_MS)).map(rows -> {
        assertThat(rows.iterator().next().getString("antes")).isEqualTo("ESCALADA");
        return (Void) null;
      }),
      () -> bandeja.archivarEscalada(idItem(pedido), pedido, Etapa.FACTURACION, new JsonObject()).mapEmpty(), false);
    archivo.timeout(WAIT.toMillis(), TimeUnit.MILLISECONDS).await();

    assertThat(item(pedido)).isEqualTo("CERRADO confirmación tardía");
  }

  @Test
  @DisplayName("an item the operator retried waits as REINTENTADO, and closes by itself when the stage comes back and confirms")
  void reintentadoSeCierraAlVolverLaEtapa() {
    UUID pedido = escalada();
    archivar(pedido);
    assertThat(cadenas.reintentarEscalada(pedido, Etapa.FACTURACION, (int) PLAZO_MS).await()).isPresent();
    assertThat(bandeja.marcarReintento(idItem(pedido), "operador-1").await()).isTrue();
    assertThat(item(pedido)).isEqualTo("REINTENTADO reintentado por operador-1");

    orquestador.confirmada(pedido, Etapa.FACTURACION, ResultadoEtapa.COMPLETADA).timeout(WAIT.toMillis(), TimeUnit.MILLISECONDS).await();
    assertThat(item(pedido)).isEqualTo("CERRADO reintentado por operador-1; la etapa volvió y confirmó");
    assertThat(asr4.count()).as("the retry confirmed: an ASR-4 sample").isEqualTo(1);
  }

  @Test
  @DisplayName("the retried stage confirms before the item is marked: the item closes all the same, and is not marked after")
  void reintentoConfirmadoAntesDeMarcarlo() {
    UUID pedido = escalada();
    archivar(pedido);
    assertThat(cadenas.reintentarEscalada(pedido, Etapa.FACTURACION, (int) PLAZO_MS).await()).isPresent();
    orquestador.confirmada(pedido, Etapa.FACTURACION, ResultadoEtapa.COMPLETADA).timeout(WAIT.toMillis(), TimeUnit.MILLISECONDS).await();

    assertThat(bandeja.marcarReintento(idItem(pedido), "operador-1").await()).isFalse();
    assertThat(item(pedido)).isEqualTo("CERRADO la etapa volvió y confirmó");
  }

  @Test
  @DisplayName("a retried item whose stage never comes back is closed by the operator with a reason, once")
  void reintentadoCerradoConMotivo() {
    UUID pedido = escalada();
    archivar(pedido);
    assertThat(cadenas.reintentarEscalada(pedido, Etapa.FACTURACION, (int) PLAZO_MS).await()).isPresent();
    assertThat(bandeja.marcarReintento(idItem(pedido), "operador-1").await()).isTrue();

    assertThat(bandeja.cerrarItem(idItem(pedido), "pedido anulado por el cliente (operador-2)").await()).isTrue();
    assertThat(item(pedido)).isEqualTo("CERRADO reintentado por operador-1; pedido anulado por el cliente (operador-2)");
    assertThat(bandeja.cerrarItem(idItem(pedido), "otra vez (operador-2)").await()).as("already closed").isFalse();
  }

  /**
   * Runs {@code primero} in a transaction left open, starts {@code segundo}, waits until it waits on a lock (or, when
   * {@code debeEsperar} is false, until it waits or is done), commits, and answers {@code segundo}'s outcome.
   */
  private static <T> Future<T> enTransaccion(Function<SqlConnection, Future<Void>> primero,
                                             Supplier<Future<T>> segundo, boolean debeEsperar) {
    SqlConnection conexion = transacciones.getConnection().await();
    try {
      Transaction tx = conexion.begin().await();
      primero.apply(conexion).await();
      Future<T> despues = segundo.get();
      await("the second statement waits on the row").atMost(WAIT)
        .until(() -> esperandoLock() > 0 || (!debeEsperar && despues.isComplete()));
      tx.commit().await();
      return despues;
    } finally {
      conexion.close().await();
    }
  }

  private static long esperandoLock() {
    return Db.count(settings, "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()");
  }

  /** A chain whose FACTURACION is on its retry, past its wait: the Reanudador's next check escalates it. */
  private static UUID enReintentoVencido() {
    UUID pedido = UUID.randomUUID();
    JsonArray lineas = new JsonArray().add(new JsonObject().put("producto", "P-tardia-" + pedido).put("cantidad", 1));
    cadenas.iniciar(List.of(new RepositorioCadena.Inicio(pedido, "vendedor-tardio", lineas)), PLAZO_MS).await();
    Db.update(settings, "UPDATE cadena.cadena_etapa SET estado = 'EN_REINTENTO', intento = 2, reintento_desde = now() - interval '4 seconds', "
      + "plazo = now() - interval '1 second' WHERE pedido = ? AND etapa = 'FACTURACION'", pedido);
    return pedido;
  }

  /** The same, already escalated (committed). */
  private static UUID escalada() {
    UUID pedido = enReintentoVencido();
    Db.update(settings, "UPDATE cadena.cadena_etapa SET estado = 'ESCALADA' WHERE pedido = ? AND etapa = 'FACTURACION'", pedido);
    return pedido;
  }

  private static void archivar(UUID pedido) {
    bandeja.archivarEscalada(idItem(pedido), pedido, Etapa.FACTURACION, new JsonObject()).await();
  }

  private static Tuple itemDe(UUID pedido) {
    return Tuple.of(idItem(pedido), pedido, Etapa.FACTURACION.name(), new JsonObject());
  }

  private static UUID idItem(UUID pedido) {
    return UUID.nameUUIDFromBytes(("ESCALADA:" + pedido + ":FACTURACION:2").getBytes(StandardCharsets.UTF_8));
  }

  private static String item(UUID pedido) {
    return Db.strings(settings, "SELECT estado || ' ' || coalesce(cierre, '') FROM cadena.bandeja WHERE pedido = ?", pedido).get(0);
  }
}
