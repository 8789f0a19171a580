package ccp.pedidos;

import ccp.cadena.Cadena;
import ccp.cadena.CadenaDePedido;
import ccp.etapas.Comprobantes;
import ccp.etapas.Etapas;
import ccp.platform.http.Actor;
import ccp.platform.http.ApiErrors;
import ccp.platform.http.BacklogAdmission;
import ccp.platform.http.EventStream;
import ccp.platform.http.Idempotencia;
import ccp.platform.http.JsonBody;
import ccp.platform.http.JsonResponse;
import ccp.platform.outbox.Outbox;
import ccp.platform.role.AppApi;
import ccp.platform.role.RoleContext;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Set;
import java.util.UUID;

/**
 * The App's order routes (B1): an order is written with its outbox event by one statement, then the RelevoOutbox is
 * woken; orders are read back, with the state of their chain and Facturación's invoice, by their writer, CONSULTA,
 * SEGURIDAD or OPERADOR; a vendedor lists its own, a page at a time, and follows them live (the console's Mis pedidos). Permissions are not checked on writes: in the view an improper write is written, then detected
 * (B3–B6).
 */
final class ApiPedidos implements AppApi {

  private static final int MAX_PAGINA = 50;
  /**
   * Who reads any order, besides its writer: the read-only profile, the security area (the orders the Reacción
   * annulled) and the person responsible for escalated orders (an escalated order's chain and invoice).
   */
  private static final Set<String> LECTORES = Set.of("CONSULTA", "SEGURIDAD", "OPERADOR");

  private final Vertx vertx;
  private final Outbox outbox;
  /** Refuses writes while this service's outbox is behind (the overload admission control). */
  private final BacklogAdmission admission;
  /** Refuses orders while the chain's queues are behind ({@link Pedidos}). */
  private final BacklogAdmission cadenaAtrasada;
  private final RepositorioPedidos pedidos;
  private final CadenaDePedido cadenas;
  private final Comprobantes comprobantes;

  ApiPedidos(RoleContext role, Outbox outbox) {
    this.vertx = role.vertx();
    this.outbox = outbox;
    this.pedidos = new RepositorioPedidos(role.sql());
    this.cadenas = Cadena.cadenaDePedido(role.sql());
    this.comprobantes = Etapas.comprobantes(role.sql());
    this.admission = outbox.admission(vertx);
    this.cadenaAtrasada = new BacklogAdmission(vertx, Pedidos.RETRASO_CADENA);
  }

  @Override
  public void doors(Router router) {
    router.post("/v1/pedidos").handler(admission).handler(cadenaAtrasada);
  }

  @Override
  public void mount(Router router) {
    router.post("/v1/pedidos").handler(this::crear);
    router.get("/v1/pedidos").handler(this::listar);
    router.get("/v1/pedidos/flujo").handler(this::cambios);
    router.get("/v1/pedidos/:pedido").handler(this::leer);
  }

  @Override
  public Future<Void> close() {
    return Future.all(admission.close(), cadenaAtrasada.close()).mapEmpty();
  }

  private void crear(RoutingContext ctx) {
    SolicitudPedido solicitud = SolicitudPedido.from(JsonBody.of(ctx));
    String clave = Idempotencia.clave(ctx);
    Actor actor = Actor.of(ctx);
    UUID id = UUID.randomUUID();
    pedidos.crear(id, actor.id(), solicitud, clave)
      .onSuccess(pedido -> {
        vertx.eventBus().send(outbox.wakeAddress(), null);
        responder(ctx, 201, pedido);
      })
      .onFailure(err -> {
        if (err instanceof Idempotencia.ClaveUsada) {
          Idempotencia.repetido(ctx, pedidos.respuestaGuardada(actor.id(), clave), clave, solicitud.resumenCuerpo(),
            ApiPedidos::responder);
        } else {
          ctx.fail(err);
        }
      });
  }

  private void leer(RoutingContext ctx) {
    UUID id = pedidoId(ctx);
    Actor actor = Actor.of(ctx);
    pedidos.leer(id).compose(pedido -> {
      if (pedido.isEmpty()) {
        ApiErrors.send(ctx, 404, "not_found", "no order " + id);
      } else if (!pedido.get().getString("actor").equals(actor.id()) && !LECTORES.contains(actor.perfil())) {
        ApiErrors.send(ctx, 403, "forbidden", "order " + id + " belongs to another actor");
      } else {
        return conSuCadena(id, pedido.get()).onSuccess(body -> responder(ctx, 200, body)).mapEmpty();
      }
      return Future.succeededFuture();
    }).onFailure(ctx::fail);
  }

  /**
   * The caller's own orders, newest first, each with its chain and documents, a page at a time ({@code limit}, 1 to
   * {@value #MAX_PAGINA}; {@code siguiente} is the cursor of the next page, null after the last). {@code actor=me} is
   * required (the contract's): no one lists another actor's orders here.
   */
  private void listar(RoutingContext ctx) {
    int limit = pagina(ctx.queryParams().get("limit"));
    Cursor antes = Cursor.parse(ctx.queryParams().get("despues_de"));
    pedidos.deActor(Actor.of(ctx).id(), antes == null ? null : antes.creadoEn(), antes == null ? null : antes.pedido(), limit)
      .compose(pagina -> Future.all(pagina.stream().map(p -> conSuCadena(UUID.fromString(p.getString("pedido")), p)).toList())
        .map(completos -> {
          JsonObject ultimo = pagina.size() < limit ? null : pagina.get(pagina.size() - 1);
          return new JsonObject().put("pedidos", new JsonArray(completos.list()))
            .put("siguiente", ultimo == null ? null : new Cursor(Instant.parse(ultimo.getString("creado_en")),
              UUID.fromString(ultimo.getString("pedido"))).text());
        }))
      .onSuccess(body -> JsonResponse.ok(ctx, body))
      .onFailure(ctx::fail);
  }

  /**
   * The caller's orders live, for the console: {@code pedidos} each time it creates one, or one of its newest
   * {@value #MAX_PAGINA} is annulled or has a stage of its chain move (what the console's pages show).
   */
  private void cambios(RoutingContext ctx) {
    String actor = Actor.of(ctx).id();
    EventStream.open(ctx, EventStream.changes("pedidos", () -> pedidos.version(actor, MAX_PAGINA)
      .compose(propios -> cadenas.version(propios.recientes()).map(cadena -> propios.texto() + "/" + cadena))));
  }

  /** The contract bounds it (1 to {@value #MAX_PAGINA}). */
  private static int pagina(String raw) {
    return raw == null ? 20 : Integer.parseInt(raw);
  }

  /** Where a page of an actor's orders ended: its last order's creation and id, as one opaque text. */
  record Cursor(Instant creadoEn, UUID pedido) {
    String text() {
      return Base64.getUrlEncoder().withoutPadding().encodeToString((creadoEn + " " + pedido).getBytes(StandardCharsets.UTF_8));
    }

    static Cursor parse(String raw) {
      if (raw == null) return null;
      try {
        String[] parts = new String(Base64.getUrlDecoder().decode(raw), StandardCharsets.UTF_8).split(" ");
        if (parts.length == 2) return new Cursor(Instant.parse(parts[0]), UUID.fromString(parts[1]));
      } catch (IllegalArgumentException | java.time.format.DateTimeParseException ignored) {
        // reported below
      }
      throw new JsonBody.BadRequest("despues_de", "must be the 'siguiente' of a previous page");
    }
  }

  /**
   * The order with its chain (null until the Coordinador starts it), Facturación's invoice and credit note, and its
   * {@link #situacion}. The chain is read first: a stage it shows done has its effect written already, so the invoice
   * read after it is there.
   */
  private Future<JsonObject> conSuCadena(UUID id, JsonObject pedido) {
    return cadenas.de(id).compose(cadena -> comprobantes.de(id).map(documentos ->
      pedido.put("cadena", cadena.orElse(null)).put("situacion", situacion(pedido, cadena.orElse(null))).mergeIn(documentos)));
  }

  /**
   * Where the order stands, in one word: {@code estado} is Pedidos' own record (REGISTRADO until annulled), which
   * says nothing of the chain, so a reader would otherwise have to combine it with the chain's. REGISTRADO until the
   * chain starts, then the chain's EN_CURSO, LISTO or RECHAZADO; ANULADO once annulled. A chain stops only for an
   * annulled order, so DETENIDO is ANULADO too: the annulment may commit between the order's read and the chain's.
   */
  private static String situacion(JsonObject pedido, JsonObject cadena) {
    if ("ANULADO".equals(pedido.getString("estado"))) return "ANULADO";
    if (cadena == null) return "REGISTRADO";
    String estado = cadena.getString("estado");
    return "DETENIDO".equals(estado) ? "ANULADO" : estado;
  }

  static UUID pedidoId(RoutingContext ctx) {
    try {
      return UUID.fromString(ctx.pathParam("pedido"));
    } catch (IllegalArgumentException e) {
      throw new JsonBody.BadRequest("pedido", "must be a UUID");
    }
  }

  /** An order as JSON; a created one (or a retry answering its creation) also says where to read it. */
  static void responder(RoutingContext ctx, int status, JsonObject body) {
    if (status == 201) ctx.response().putHeader("location", "/v1/pedidos/" + body.getString("pedido"));
    JsonResponse.send(ctx, status, body);
  }
}
