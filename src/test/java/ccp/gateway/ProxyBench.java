package ccp.gateway;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.ext.web.Router;
import io.vertx.httpproxy.HttpProxy;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The gateway's hand-written forward against vertx-http-proxy, in one run on one JVM: a backend answering a small
 * JSON, one front of each kind before it, and a closed-loop load of {@code concurrency} requests in flight for
 * {@code seconds}, each front measured after a warm-up. Prints requests per second and latency percentiles.
 * Run: {@code java -cp <test classpath> ccp.gateway.ProxyBench [seconds] [concurrency]}.
 */
public final class ProxyBench {

  private static final String BODY = "{\"pedido\":\"6f1c2d3e\",\"estado\":\"REGISTRADO\",\"lineas\":[{\"producto\":\"P-1\",\"cantidad\":2}]}";

  public static void main(String[] args) throws Exception {
    int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    int concurrency = args.length > 1 ? Integer.parseInt(args[1]) : 32;
    Vertx vertx = Vertx.vertx();
    try {
      HttpServer backend = vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(b ->
        req.response().putHeader("Content-Type", "application/json").end(BODY))).listen(0, "127.0.0.1").await();
      int origin = backend.actualPort();
      HttpClientOptions toOrigin = new HttpClientOptions().setKeepAlive(true).setKeepAliveTimeout(30);
      PoolOptions pool = new PoolOptions().setHttp1MaxSize(64);

      HttpClient forwardClient = vertx.createHttpClient(toOrigin, pool);
      Router hand = Router.router(vertx);
      hand.route().handler(io.vertx.ext.web.handler.BodyHandler.create(false));
      hand.route("/v1/*").handler(ctx -> {
        RequestOptions request = new RequestOptions().setMethod(ctx.request().method())
          .setAbsoluteURI("http://127.0.0.1:" + origin + ctx.request().uri()).setTimeout(5_000);
        String auth = ctx.request().getHeader("Authorization");
        if (auth != null) request.putHeader("Authorization", auth);
        Buffer body = ctx.body().buffer() == null ? Buffer.buffer() : ctx.body().buffer();
        forwardClient.request(request).compose(req -> req.send(body)).compose(resp -> resp.body().map(payload -> {
          ctx.response().setStatusCode(resp.statusCode()).putHeader("Content-Type", resp.getHeader("Content-Type"));
          return payload;
        })).onSuccess(payload -> ctx.response().end(payload))
          .onFailure(err -> ctx.response().setStatusCode(503).end("{\"error\":\"unavailable\"}"));
      });
      int handPort = vertx.createHttpServer().requestHandler(hand).listen(0, "127.0.0.1").await().actualPort();

      HttpProxy proxy = HttpProxy.reverseProxy(vertx.createHttpClient(toOrigin, pool)).origin(origin, "127.0.0.1");
      int proxyPort = vertx.createHttpServer().requestHandler(proxy).listen(0, "127.0.0.1").await().actualPort();

      HttpClient load = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true), new PoolOptions().setHttp1MaxSize(concurrency));
      for (int round = 0; round < 2; round++) {
        boolean warmUp = round == 0;
        int s = warmUp ? Math.max(2, seconds / 3) : seconds;
        Result a = run(vertx, load, handPort, s, concurrency);
        Result b = run(vertx, load, proxyPort, s, concurrency);
        if (!warmUp) {
          System.out.printf("hand-written forward : %s%n", a);
          System.out.printf("vertx-http-proxy     : %s%n", b);
        }
      }
    } finally {
      vertx.close().await();
    }
  }

  record Result(double perSecond, double p50Ms, double p99Ms, int errors) {
    @Override
    public String toString() {
      return String.format("%.0f req/s, p50 %.2f ms, p99 %.2f ms, %d errors", perSecond, p50Ms, p99Ms, errors);
    }
  }

  private static Result run(Vertx vertx, HttpClient load, int port, int seconds, int concurrency) throws Exception {
    long[] latencies = new long[4_000_000];
    AtomicInteger count = new AtomicInteger();
    AtomicInteger errors = new AtomicInteger();
    Promise<Void> done = Promise.promise();
    AtomicInteger running = new AtomicInteger(concurrency);
    long[] began = new long[1];
    vertx.runOnContext(v -> {
      began[0] = System.nanoTime();
      long end = began[0] + seconds * 1_000_000_000L;
      for (int i = 0; i < concurrency; i++) loop(load, port, end, latencies, count, errors, running, done);
    });
    done.future().await();
    double elapsed = (System.nanoTime() - began[0]) / 1e9;
    int n = Math.max(1, Math.min(count.get(), latencies.length));
    long[] sorted = Arrays.copyOf(latencies, n);
    Arrays.sort(sorted);
    return new Result(n / elapsed, sorted[n / 2] / 1e6, sorted[(int) (n * 0.99)] / 1e6, errors.get());
  }

  private static void loop(HttpClient load, int port, long end, long[] latencies, AtomicInteger count, AtomicInteger errors,
                           AtomicInteger running, Promise<Void> done) {
    if (System.nanoTime() >= end) {
      if (running.decrementAndGet() == 0) done.complete();
      return;
    }
    long start = System.nanoTime();
    Future<Buffer> answer = load.request(new RequestOptions().setMethod(HttpMethod.POST).setPort(port).setHost("127.0.0.1")
        .setURI("/v1/pedidos").putHeader("Authorization", "Bearer x").putHeader("Content-Type", "application/json"))
      .compose(req -> req.send(BODY)).compose(resp -> resp.body());
    answer.onComplete(ar -> {
      if (ar.failed()) errors.incrementAndGet();
      int i = count.getAndIncrement();
      if (i < latencies.length) latencies[i] = System.nanoTime() - start;
      loop(load, port, end, latencies, count, errors, running, done);
    });
  }
}
