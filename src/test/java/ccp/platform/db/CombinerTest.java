package ccp.platform.db;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The statements stand for the database here: each batch waits until the test answers it. */
class CombinerTest {

  private record Item(String key, int n) {}

  private final List<List<Item>> batches = new ArrayList<>();
  private final List<Promise<Map<String, Integer>>> answers = new ArrayList<>();

  private Combiner<String, Item, Integer> combiner(int maxBatch) {
    return new Combiner<>(maxBatch, Item::key, batch -> {
      batches.add(batch);
      Promise<Map<String, Integer>> answer = Promise.promise();
      answers.add(answer);
      return answer.future();
    });
  }

  /** Answers a batch with each item's number times ten. */
  private void answer(int batch) {
    Map<String, Integer> byKey = new HashMap<>();
    for (Item item : batches.get(batch)) byKey.put(item.key(), item.n() * 10);
    answers.get(batch).complete(byKey);
  }

  @Test
  void anIdleItemGoesAloneAndWhatArrivesMeanwhileGoesTogetherNext() {
    Combiner<String, Item, Integer> combiner = combiner(100);
    Future<Integer> first = combiner.submit(new Item("a", 1));
    Future<Integer> second = combiner.submit(new Item("b", 2));
    Future<Integer> third = combiner.submit(new Item("c", 3));
    assertEquals(List.of(List.of(new Item("a", 1))), batches);

    answer(0);
    assertEquals(10, first.result());
    assertEquals(List.of(new Item("b", 2), new Item("c", 3)), batches.get(1));
    assertTrue(!second.isComplete() && !third.isComplete(), "answered before its statement");

    answer(1);
    assertEquals(20, second.result());
    assertEquals(30, third.result());
    assertEquals(2, batches.size());
  }

  @Test
  void aBatchHoldsOneItemPerKeyAndASecondOfAKeyFollowsTheFirst() {
    Combiner<String, Item, Integer> combiner = combiner(100);
    combiner.submit(new Item("x", 0));
    Future<Integer> a1 = combiner.submit(new Item("a", 1));
    combiner.submit(new Item("b", 2));
    Future<Integer> a2 = combiner.submit(new Item("a", 3));
    combiner.submit(new Item("c", 4));
    Future<Integer> a3 = combiner.submit(new Item("a", 5));

    answer(0);
    assertEquals(List.of(new Item("a", 1), new Item("b", 2), new Item("c", 4)), batches.get(1));
    answer(1);
    assertEquals(List.of(new Item("a", 3)), batches.get(2));
    answer(2);
    assertEquals(List.of(new Item("a", 5)), batches.get(3));
    answer(3);
    assertEquals(List.of(10, 30, 50), List.of(a1.result(), a2.result(), a3.result()));
  }

  @Test
  void aBatchIsBoundedAndTheRestWaitsInOrder() {
    Combiner<String, Item, Integer> combiner = combiner(2);
    for (int i = 0; i < 6; i++) combiner.submit(new Item("k" + i, i));
    for (int b = 0; b < 4; b++) answer(b);
    assertEquals(List.of(
      List.of(new Item("k0", 0)),
      List.of(new Item("k1", 1), new Item("k2", 2)),
      List.of(new Item("k3", 3), new Item("k4", 4)),
      List.of(new Item("k5", 5))), batches);
  }

  @Test
  void aFailedBatchSendsEachItemAgainAloneSoThatOnlyTheBadOneFails() {
    Combiner<String, Item, Integer> combiner = combiner(100);
    Future<Integer> first = combiner.submit(new Item("a", 1));
    Future<Integer> b = combiner.submit(new Item("b", 2));
    Future<Integer> bad = combiner.submit(new Item("c", 3));
    Future<Integer> d = combiner.submit(new Item("d", 4));
    answer(0);
    answers.get(1).fail("deadlock detected");
    assertTrue(!b.isComplete() && !bad.isComplete() && !d.isComplete(), "a batch's failure is not yet its items'");
    assertEquals(List.of(new Item("b", 2)), batches.get(2));
    answer(2);
    assertEquals(List.of(new Item("c", 3)), batches.get(3));
    answers.get(3).fail("value too long");
    assertEquals(List.of(new Item("d", 4)), batches.get(4));
    answer(4);
    assertEquals(List.of(10, 20, 40), List.of(first.result(), b.result(), d.result()));
    assertTrue(bad.failed());
  }

  @Test
  void anItemFailingAloneFailsItsCallerAndTheNextStillGoes() {
    Combiner<String, Item, Integer> combiner = combiner(100);
    Future<Integer> alone = combiner.submit(new Item("a", 1));
    Future<Integer> after = combiner.submit(new Item("b", 2));
    answers.get(0).fail("connection closed");
    assertTrue(alone.failed());
    answer(1);
    assertEquals(20, after.result());
  }

  @Test
  void aCallerWhoseHandlerThrowsStopsNeitherTheOthersNorTheNextBatch() {
    Combiner<String, Item, Integer> combiner = combiner(100);
    combiner.submit(new Item("x", 0));
    combiner.submit(new Item("a", 1)).onSuccess(n -> {
      throw new IllegalStateException("a caller's bug");
    });
    Future<Integer> b = combiner.submit(new Item("b", 2));
    answer(0);
    answer(1);
    assertEquals(20, b.result());
    Future<Integer> later = combiner.submit(new Item("c", 3));
    answer(2);
    assertEquals(30, later.result());
  }

  @Test
  void aStatementAnsweringNoMapAnswersNullToEachItem() {
    Combiner<String, Item, Integer> combiner = new Combiner<>(10, Item::key, batch -> Future.succeededFuture(null));
    Future<Integer> answer = combiner.submit(new Item("a", 1));
    assertTrue(answer.succeeded());
    assertNull(answer.result());
    assertTrue(combiner.submit(new Item("b", 2)).succeeded());
  }

  @Test
  void aKeyTheStatementDidNotAnswerGetsNull() {
    Combiner<String, Item, Integer> combiner = new Combiner<>(10, Item::key, batch -> Future.succeededFuture(Map.of()));
    Future<Integer> answer = combiner.submit(new Item("a", 1));
    assertTrue(answer.succeeded());
    assertNull(answer.result());
  }

  @Test
  void aStatementThatThrowsFailsItsBatchInsteadOfStoppingTheCombiner() {
    int[] calls = {0};
    Combiner<String, Item, Integer> combiner = new Combiner<>(10, Item::key, batch -> {
      if (calls[0]++ == 0) throw new IllegalStateException("bad batch");
      return Future.succeededFuture(Map.of(batch.get(0).key(), 7));
    });
    assertTrue(combiner.submit(new Item("a", 1)).failed());
    assertEquals(7, combiner.submit(new Item("b", 2)).result());
  }

  @Test
  void aStatementThatNeverAnswersFailsItsWholeBatchWithinTheBoundAndTheNextBatchGoes() {
    List<List<Item>> sent = java.util.Collections.synchronizedList(new ArrayList<>());
    Combiner<String, Item, Integer> combiner = new Combiner<>(100, 300, Item::key, batch -> {
      sent.add(batch);
      // The first statement is lost (a stopped server); the next ones answer.
      return sent.size() == 1 ? Promise.<Map<String, Integer>>promise().future() : Future.succeededFuture(Map.of("c", 7));
    });
    Future<Integer> lost = combiner.submit(new Item("a", 1));
    Future<Integer> b = combiner.submit(new Item("b", 2));
    Future<Integer> c = combiner.submit(new Item("c", 3));

    await().atMost(java.time.Duration.ofSeconds(5)).until(() -> lost.isComplete() && c.isComplete());
    assertTrue(lost.failed() && lost.cause() instanceof TimeoutException, "the lost statement's caller fails with a timeout");
    assertEquals(7, c.result());
    assertTrue(b.succeeded());
    assertEquals(List.of(List.of(new Item("a", 1)), List.of(new Item("b", 2), new Item("c", 3))), sent);
  }

  @Test
  void aBatchThatTimesOutFailsAsOneAndIsNotRetriedItemByItem() {
    List<List<Item>> sent = java.util.Collections.synchronizedList(new ArrayList<>());
    Promise<Map<String, Integer>> first = Promise.promise();
    Combiner<String, Item, Integer> combiner = new Combiner<>(100, 300, Item::key, batch -> {
      sent.add(batch);
      return sent.size() == 1 ? first.future() : Promise.<Map<String, Integer>>promise().future();
    });
    combiner.submit(new Item("a", 1));
    Future<Integer> b = combiner.submit(new Item("b", 2));
    Future<Integer> c = combiner.submit(new Item("c", 3));
    first.complete(Map.of("a", 10));

    await().atMost(java.time.Duration.ofSeconds(5)).until(() -> b.isComplete() && c.isComplete());
    assertTrue(b.cause() instanceof TimeoutException && c.cause() instanceof TimeoutException);
    assertEquals(2, sent.size(), "one statement for the batch that timed out, none item by item: " + sent);
  }

  /**
   * A pool closed under a full queue (a process stopping while a stage waits on a lock) fails every statement at
   * once. Each failure then starts the next statement within the same call: the items must be answered in a loop,
   * not by a call nested per item, which overflowed the event loop's stack and killed it.
   */
  @Test
  void statementsThatFailAtOnceAnswerAFullQueueWithoutNestingACallPerItem() {
    Promise<Map<String, Integer>> first = Promise.promise();
    boolean[] closed = {false};
    Combiner<String, Item, Integer> combiner = new Combiner<>(100, Item::key, batch ->
      closed[0] ? Future.failedFuture(new IllegalStateException("Pool closed")) : first.future());
    combiner.submit(new Item("first", 0));
    List<Future<Integer>> queued = new ArrayList<>();
    for (int i = 0; i < 50_000; i++) queued.add(combiner.submit(new Item("k" + i, i)));

    closed[0] = true;
    first.fail(new IllegalStateException("Pool closed"));

    assertTrue(queued.stream().allMatch(f -> f.failed() && f.cause().getMessage().equals("Pool closed")),
      "every queued item failed with the statement's error");
  }
}
