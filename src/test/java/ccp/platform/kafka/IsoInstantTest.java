package ccp.platform.kafka;

import org.junit.jupiter.api.Test;

import java.time.DateTimeException;
import java.time.Instant;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class IsoInstantTest {

  @Test
  void readsWhatInstantWritesAtEveryPrecision() {
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 100_000; i++) {
      long second = random.nextLong(-62_135_596_800L, 253_402_300_799L);
      int nanos = switch (i % 4) {
        case 0 -> 0;
        case 1 -> random.nextInt(1000) * 1_000_000;
        case 2 -> random.nextInt(1_000_000) * 1_000;
        default -> random.nextInt(1_000_000_000);
      };
      Instant instant = Instant.ofEpochSecond(second, nanos);
      assertEquals(instant, IsoInstant.parse(instant.toString()), instant.toString());
    }
  }

  @Test
  void agreesWithInstantParseOnOtherForms() {
    for (String text : new String[] {"2026-11-30T01:02:03.5Z", "2026-11-30T01:02:03+01:00", "+12026-11-30T01:02:03Z",
      "2016-12-31T23:59:60Z"}) {
      assertEquals(Instant.parse(text), IsoInstant.parse(text), text);
    }
  }

  @Test
  void refusesWhatIsNotAnInstant() {
    for (String text : new String[] {"2026-13-30T01:02:03Z", "2026-02-30T01:02:03Z", "2026-11-30T24:02:03Z",
      "2026-11-30T01:60:03Z", "2026-11-30T01:02:03.1234567890Z", "2026-11-3xT01:02:03Z",
      "2026-11-30 01:02:03Z", "yesterday", ""}) {
      assertThrows(DateTimeException.class, () -> IsoInstant.parse(text), text);
    }
  }
}
