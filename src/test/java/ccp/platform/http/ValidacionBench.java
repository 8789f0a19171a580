package ccp.platform.http;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.Json;
import io.vertx.json.schema.Validator;
import io.vertx.openapi.contract.OpenAPIContract;
import io.vertx.openapi.contract.Operation;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * What the contract's check costs per request, on one thread: finding the operation, decoding the body (which the
 * handlers did before), and the schema validation of a session's body and of an order's (the drivers' two-line
 * order), each timed over {@code n} requests for several rounds (the first ones warm the JIT). Prints microseconds per
 * request. Run: {@code java -cp <test classpath> ccp.platform.http.ValidacionBench [n] [rounds]}.
 */
public final class ValidacionBench {

  private static final Buffer SESION = Buffer.buffer("{\"huella\":\"dispositivo-0001-abcdef\"}");
  private static final Buffer PEDIDO = Buffer.buffer("{\"tendero\":\"T-1\",\"lineas\":[{\"producto\":\"P-1\",\"cantidad\":2},"
    + "{\"producto\":\"P-16\",\"cantidad\":1}]}");

  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 6;
    Vertx vertx = Vertx.vertx();
    try {
      OpenAPIContract contract = Contrato.cargar(vertx).await(30, TimeUnit.SECONDS).contract();
      Validator sesion = validator(contract, "/v1/sesiones");
      Validator pedido = validator(contract, "/v1/pedidos");
      Object sesionJson = Json.decodeValue(SESION);
      Object pedidoJson = Json.decodeValue(PEDIDO);
      for (int round = 1; round <= rounds; round++) {
        double find = per(n, () -> contract.findOperation("/v1/pedidos", HttpMethod.POST));
        double decode = per(n, () -> Json.decodeValue(PEDIDO));
        double sesiones = per(n, () -> check(sesion.validate(sesionJson).getValid()));
        double pedidos = per(n, () -> check(pedido.validate(pedidoJson).getValid()));
        System.out.printf(Locale.ROOT, "round %d: find the operation %.2f us, decode an order %.2f us, validate a session %.2f us,"
          + " validate an order %.2f us%n", round, find, decode, sesiones, pedidos);
      }
    } finally {
      vertx.close().await();
    }
  }

  private static Validator validator(OpenAPIContract contract, String path) {
    Operation operation = contract.findOperation(path, HttpMethod.POST);
    return contract.getSchemaRepository().validator(operation.getRequestBody().getContent().get("application/json").getSchema());
  }

  private static Object check(Boolean valid) {
    if (!Boolean.TRUE.equals(valid)) throw new IllegalStateException("the benchmark's body is not valid");
    return valid;
  }

  private static double per(int n, java.util.function.Supplier<Object> work) {
    long start = System.nanoTime();
    for (int i = 0; i < n; i++) work.get();
    return (System.nanoTime() - start) / 1e3 / n;
  }
}
