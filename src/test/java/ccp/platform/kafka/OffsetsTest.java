package ccp.platform.kafka;

import io.vertx.core.Future;
import io.vertx.kafka.client.common.TopicPartition;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("Offsets: the commit point of each partition is one past its contiguous finished records")
class OffsetsTest {

  private static final TopicPartition P0 = new TopicPartition("prueba", 0);
  private static final TopicPartition P1 = new TopicPartition("prueba", 1);

  private final Offsets offsets = new Offsets();
  private final List<Map<Integer, Long>> commits = new ArrayList<>();

  @Test
  @DisplayName("a record finished ahead of an unfinished one does not move the commit; the unfinished one finishing moves it past both")
  void commitsOnlyPastContiguousRecords() {
    offsets.assigned(Set.of(P0));
    Offsets.Ticket first = offsets.fetched(P0, 0);
    Offsets.Ticket second = offsets.fetched(P0, 1);
    Offsets.Ticket third = offsets.fetched(P0, 2);

    offsets.done(third);
    commit();
    assertThat(commits).as("nothing contiguous finished").isEmpty();
    assertThat(offsets.waiting()).isEqualTo(3);

    offsets.done(first);
    commit();
    offsets.done(second);
    commit();
    assertThat(commits).containsExactly(Map.of(0, 1L), Map.of(0, 3L));
    assertThat(offsets.waiting()).isZero();
  }

  @Test
  @DisplayName("a partition whose point did not move since its last commit is not committed again")
  void onlyWhatMovedIsCommitted() {
    offsets.assigned(Set.of(P0, P1));
    offsets.done(offsets.fetched(P0, 5));
    commit();
    offsets.done(offsets.fetched(P1, 9));
    commit();
    assertThat(commits).containsExactly(Map.of(0, 6L), Map.of(1, 10L));
  }

  @Test
  @DisplayName("a revoked partition's records stop counting as waiting, and it is no longer committed")
  void revokedPartitionsLeave() {
    offsets.assigned(Set.of(P0, P1));
    Offsets.Ticket gone = offsets.fetched(P0, 0);
    offsets.fetched(P1, 0);
    offsets.revoked(Set.of(P0));
    assertThat(offsets.waiting()).isEqualTo(1);

    offsets.done(gone);
    commit();
    assertThat(offsets.waiting()).as("the revoked record does not count twice").isEqualTo(1);
    assertThat(commits).isEmpty();
  }

  @Test
  @DisplayName("where the group stands: past what is handled, else at the first record fetched, else unknown")
  void standing() {
    offsets.assigned(Set.of(P0));
    assertThat(offsets.standing(P0)).isEqualTo(-1);
    Offsets.Ticket first = offsets.fetched(P0, 7);
    assertThat(offsets.standing(P0)).isEqualTo(7);
    offsets.done(first);
    assertThat(offsets.standing(P0)).isEqualTo(8);
    assertThat(offsets.standing(P1)).isEqualTo(-1);
  }

  @Test
  @DisplayName("a failed commit is carried by the next one, and is the last commit until then")
  void aFailedCommitIsTriedAgain() {
    offsets.assigned(Set.of(P0));
    offsets.done(offsets.fetched(P0, 0));
    Future<Void> failed = offsets.commit(map -> Future.failedFuture("broker away"), "grupo");
    assertThat(failed.succeeded()).as("a commit never fails").isTrue();
    assertThat(offsets.lastCommit()).isSameAs(failed);
    commit();
    assertThat(commits).containsExactly(Map.of(0, 1L));
  }

  private void commit() {
    offsets.commit(map -> {
      commits.add(map.entrySet().stream().collect(Collectors.toMap(e -> e.getKey().getPartition(), e -> e.getValue().getOffset())));
      return Future.succeededFuture();
    }, "grupo");
  }
}
