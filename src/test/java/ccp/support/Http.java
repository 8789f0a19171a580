package ccp.support;

import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A plain blocking HTTP client for the test thread: what the App would send, byte for byte. */
public final class Http {

  private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  public record Response(int status, String body) {
    public JsonObject json() {
      return new JsonObject(body);
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

  private static HttpRequest.Builder request(String url, String token) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
    if (token != null) builder.header("Authorization", "Bearer " + token);
    return builder;
  }

  private static Response send(HttpRequest.Builder builder) {
    try {
      HttpResponse<String> response = CLIENT.send(builder.build(), HttpResponse.BodyHandlers.ofString());
      return new Response(response.statusCode(), response.body());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
