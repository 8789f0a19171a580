package ccp.platform.http;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Calls from one role to another's internal endpoints ({@code /interno/...}), each with a token the calling role signs
 * with its own key for the role called ({@link PeerSigner}).
 * A 2xx answers its JSON body; anything else fails with {@link Failure} carrying the status.
 */
public final class ServiceClient {

  /**
   * A non-2xx answer of another role, with the {@code error} code of its body (null when it has none). Whether an
   * answer means "done" or "try again" is the caller's to decide, per endpoint.
   */
  public static final class Failure extends RuntimeException {
    private final int status;
    private final String error;

    Failure(int status, String error, String message) {
      super(message, null, false, false);
      this.status = status;
      this.error = error;
    }

    public int status() {
      return status;
    }

    public String error() {
      return error;
    }
  }

  private final WebClient client;
  private final PeerSigner signer;
  private final long timeoutMs;
  private final Map<String, Token> tokens = new HashMap<>();

  private record Token(String value, long renewAt) {}

  public ServiceClient(Vertx vertx, HttpConfig http, PeerSigner signer) {
    // A consumer may have a thousand records in flight; the default five connections would queue them past the
    // timeout, and each retry would add to the queue.
    this.client = WebClient.create(vertx, new WebClientOptions().setKeepAlive(true).setKeepAliveTimeout(http.clientKeepAliveSeconds()),
      new PoolOptions().setHttp1MaxSize(http.clientPoolSize()));
    this.signer = signer;
    this.timeoutMs = http.clientTimeoutMs();
  }

  /** A value (an actor id, an order id) made safe as one segment of an internal path. */
  public static String segment(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** POSTs {@code body} to role {@code callee} at {@code baseUrl}. */
  public Future<JsonObject> post(String callee, String baseUrl, String path, JsonObject body) {
    HttpRequest<Buffer> request = client.postAbs(baseUrl + path).timeout(timeoutMs).bearerTokenAuthentication(token(callee));
    // The client's own timeout again, from outside: Vert.x 5.0.7's client was seen leaving a request unsent with its
    // connect and idle timeouts never firing (design.md, Bounded waits: seen only when called from outside Vert.x, which
    // this code never is), and a consumer whose call never ends would hold its record for ever, with nothing to page on.
    return request.sendJsonObject(body).timeout(2L * timeoutMs, TimeUnit.MILLISECONDS).compose(response -> response.statusCode() / 100 == 2
      ? Future.succeededFuture(response.bodyAsJsonObject())
      : Future.failedFuture(new Failure(response.statusCode(), errorCode(response.bodyAsString()), request.method() + " " + request.uri() + " answered "
          + response.statusCode() + ": " + response.bodyAsString())));
  }

  private static String errorCode(String body) {
    try {
      return body == null ? null : new JsonObject(body).getString("error");
    } catch (RuntimeException notJson) {
      return null;
    }
  }

  /** One token per role called, signed again when half its life has passed. */
  private String token(String callee) {
    long now = System.currentTimeMillis();
    Token token = tokens.get(callee);
    if (token == null || now >= token.renewAt()) {
      token = new Token(signer.token(callee), now + signer.renewAfterMillis());
      tokens.put(callee, token);
    }
    return token.value();
  }

  public void close() {
    client.close();
  }
}
