package ccp.platform.http;

import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One server verticle's share of {@code http.max-connections}. At the cap a new connection takes the place of the
 * oldest idle one (no request in flight: one that never sent a complete request, or a keep-alive connection between
 * requests), so idle and half-open connections cannot lock new clients out; only when every connection is serving a
 * request is the new one closed at once. The state is the verticle's own, touched only on its event loop.
 */
final class ConnectionCap {

  private final int share;
  // Insertion order: the oldest connection first. The value holds its latest request: HTTP/1.1 answers in order, so
  // the connection is idle once that one's response has ended.
  private final Map<HttpConnection, HttpServerRequest[]> open = new LinkedHashMap<>();

  ConnectionCap(int share) {
    this.share = share;
  }

  void admit(HttpConnection connection) {
    if (open.size() >= share && !evictOldestIdle()) {
      connection.close();
      return;
    }
    open.put(connection, new HttpServerRequest[1]);
    connection.closeHandler(closed -> open.remove(connection));
  }

  /** Holds {@code request}'s connection busy until its response has ended. */
  void serving(HttpServerRequest request) {
    HttpServerRequest[] latest = open.get(request.connection());
    if (latest != null) latest[0] = request;
  }

  private boolean evictOldestIdle() {
    for (Iterator<Map.Entry<HttpConnection, HttpServerRequest[]>> it = open.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<HttpConnection, HttpServerRequest[]> entry = it.next();
      HttpServerRequest latest = entry.getValue()[0];
      if (latest == null || latest.response().ended()) {
        it.remove();
        entry.getKey().close();
        return true;
      }
    }
    return false;
  }
}
