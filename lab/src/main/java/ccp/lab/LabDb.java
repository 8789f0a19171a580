package ccp.lab;

import ccp.platform.config.Settings;
import ccp.platform.db.Migrations;
import ccp.platform.db.PgConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgBuilder;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowIterator;
import io.vertx.sqlclient.SqlClient;
import io.vertx.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.List;

/**
 * The lab's PostgreSQL: {@code lab.stock}, a pool for the strategies that need a transaction and the project's
 * pipelining client for single statements. The lab's worker threads wait on its futures; none is an event loop.
 */
final class LabDb implements AutoCloseable {

  private final Pool pool;
  private final SqlClient sentencias;
  private final int conexiones;

  private LabDb(Pool pool, SqlClient sentencias, int conexiones) {
    this.pool = pool;
    this.sentencias = sentencias;
    this.conexiones = conexiones;
  }

  /** Blocking (migrations by JDBC): call it from the command's thread. */
  static LabDb abrir(Vertx vertx, Settings settings) {
    Migrations.migrate(PgConfig.of(settings, "lab"), settings.flag("demo.seed"), List.of("lab"));
    Pool pool = PgBuilder.pool().with(opciones(settings, "ccp-lab-transacciones")).connectingTo(PgConfig.of(settings, "lab").connectOptions())
      .using(vertx).build();
    SqlClient sentencias = PgBuilder.client().with(opciones(settings, "ccp-lab-sentencias")).connectingTo(PgConfig.of(settings, "lab").connectOptions())
      .using(vertx).build();
    return new LabDb(pool, sentencias, settings.integer("pg.pool-size"));
  }

  /**
   * No wait limit for a connection: waiting is part of what the lab measures, and Vert.x 5.0's pool logs a spurious
   * "Promise already completed" when the limit's timer fires for a waiter already served (a bug of Vert.x 5.0's pool, fixed upstream).
   */
  private static PoolOptions opciones(Settings settings, String name) {
    return new PoolOptions().setMaxSize(settings.integer("pg.pool-size")).setName(name).setConnectionTimeout(0);
  }

  /** Opens every connection of both clients before a measured run, so that no run pays for connecting. */
  void calentar() {
    List<Future<?>> consultas = new ArrayList<>();
    for (int i = 0; i < 4 * conexiones; i++) {
      consultas.add(pool.query("SELECT 1").execute());
      consultas.add(sentencias.query("SELECT 1").execute());
    }
    Future.all(consultas).await();
  }

  Pool pool() {
    return pool;
  }

  SqlClient sentencias() {
    return sentencias;
  }

  void sembrar(Existencias existencias) {
    List<Tuple> filas = new ArrayList<>();
    for (int i = 0; i < existencias.productos(); i++) filas.add(Tuple.of(existencias.id(i), existencias.inicial(i)));
    sentencias.preparedQuery("INSERT INTO lab.stock (producto, disponible) VALUES ($1, $2)").executeBatch(filas).await();
  }

  void borrar(String prefijo) {
    sentencias.preparedQuery("DELETE FROM lab.stock WHERE starts_with(producto, $1)").execute(Tuple.of(prefijo)).await();
  }

  int disponible(String producto) {
    RowIterator<Row> fila = sentencias.preparedQuery("SELECT disponible FROM lab.stock WHERE producto = $1")
      .execute(Tuple.of(producto)).await().iterator();
    return fila.hasNext() ? fila.next().getInteger(0) : 0;
  }

  @Override
  public void close() {
    sentencias.close().await();
    pool.close().await();
  }
}
