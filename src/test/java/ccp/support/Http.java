package ccp.support;

import io.vertx.core.json.JsonObject;
import org.assertj.core.api.Assertions;
import org.awaitility.Awaitility;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/** A plain blocking HTTP client for the test thread: what the App would send, byte for byte. */
public final class Http {

  private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  public record Response(int status, String body, HttpHeaders headers) {
    public JsonObject json() {
      return new JsonObject(body);
    }

    /** The header's first value, or null. */
    public String header(String name) {
      return headers.firstValue(name).orElse(null);
    }
  }

  private Http() {}

  public static Response post(String url, String token, String body) {
    return send(request(url, token).POST(HttpRequest.BodyPublishers.ofString(body)).header("content-type", "application/json"));
  }

  public static Response put(String url, String token, String body) {
    return send(request(url, token).PUT(HttpRequest.BodyPublishers.ofString(body)).header("content-type", "application/json"));
  }

  /** Any method, with extra header pairs (name, value, ...). */
  public static Response send(String method, String url, String token, String body, String... headers) {
    HttpRequest.Builder builder = request(url, token).method(method, HttpRequest.BodyPublishers.ofString(body))
      .header("content-type", "application/json");
    for (int i = 0; i < headers.length; i += 2) builder.header(headers[i], headers[i + 1]);
    return send(builder);
  }

  /** A POST whose body is of {@code contentType} (a SET, say), with no token. */
  public static Response postAs(String url, String contentType, String body) {
    return send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
      .POST(HttpRequest.BodyPublishers.ofString(body)).header("content-type", contentType));
  }

  public static Response get(String url, String token) {
    return send(request(url, token).GET());
  }

  /**
   * As the App does: a 503 with Retry-After (a door refusing while the work behind it runs late, say) is asked again
   * after the delay it names, for up to {@code within}; any other answer, or the last 503, is returned.
   */
  public static Response asAClient(Supplier<Response> request, Duration within) {
    long deadline = System.nanoTime() + within.toNanos();
    Response response = request.get();
    while (response.status() == 503 && response.header("Retry-After") != null && System.nanoTime() < deadline) {
      try {
        Thread.sleep(Long.parseLong(response.header("Retry-After")) * 1_000 + 200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return response;
      }
      response = request.get();
    }
    return response;
  }

  /**
   * The process's {@code /health/ready} answered 200 within {@code within}, asked again every half second as a
   * kubelet does: on a loaded machine one check may miss its answer bound for one probe (a 503, or a 500 when the check's
   * own timer fired first). The failure names the last answer's checks.
   */
  public static Response ready(String managementUrl, Duration within) {
    Response[] probe = new Response[1];
    Awaitility.await("ready").atMost(within).pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
      probe[0] = get(managementUrl + "/health/ready", null);
      Assertions.assertThat(probe[0].status()).as(probe[0].body()).isEqualTo(200);
    });
    return probe[0];
  }

  private static HttpRequest.Builder request(String url, String token) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
    if (token != null) builder.header("Authorization", "Bearer " + token);
    return builder;
  }

  /**
   * The request's own timeout ends at the response's headers: a body that stops coming would hold the test for ever
   * (a scrape cut short over h2c did, for 90 minutes of CI). The whole exchange is bounded here.
   */
  private static Response send(HttpRequest.Builder builder) {
    try {
      HttpResponse<String> response = CLIENT.sendAsync(builder.build(), HttpResponse.BodyHandlers.ofString())
        .get(30, TimeUnit.SECONDS);
      return new Response(response.statusCode(), response.body(), response.headers());
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("no whole answer within 30 s", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
