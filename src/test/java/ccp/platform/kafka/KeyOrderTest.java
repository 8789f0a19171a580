package ccp.platform.kafka;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("KeyOrder: one key's runs one after another, other keys' meanwhile")
class KeyOrderTest {

  private final KeyOrder order = new KeyOrder();
  private final List<String> started = new ArrayList<>();

  @Test
  @DisplayName("a run of a key starts only once the run before it of the same key has ended, even when it failed")
  void oneKeyAtATime() {
    Promise<Void> first = Promise.promise();
    Promise<Void> second = Promise.promise();
    order.after("a", run("a1", first));
    order.after("a", run("a2", second));
    order.after("a", run("a3", Promise.promise()));
    assertThat(started).containsExactly("a1");

    first.fail("down");
    assertThat(started).containsExactly("a1", "a2");
    second.complete();
    assertThat(started).containsExactly("a1", "a2", "a3");
  }

  @Test
  @DisplayName("another key's run starts at once, and a key is forgotten once its last run ends")
  void otherKeysMeanwhile() {
    Promise<Void> a = Promise.promise();
    Promise<Void> b = Promise.promise();
    order.after("a", run("a1", a));
    order.after("b", run("b1", b));
    assertThat(started).containsExactly("a1", "b1");
    assertThat(order.keys()).isEqualTo(2);

    a.complete();
    b.complete();
    assertThat(order.keys()).isZero();
  }

  private Supplier<Future<Void>> run(String name, Promise<Void> end) {
    return () -> {
      started.add(name);
      return end.future();
    };
  }
}
