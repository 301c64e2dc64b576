package io.github.memplan.core.chip;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ChipsTest {

  private static final List<String> REFERENCE_CHIPS =
      List.of(
          "bm1684",
          "bm1684x",
          "bm1688",
          "bm1690",
          "bm1690e",
          "bm1684x2",
          "sg2380",
          "cv184x",
          "sgtpuv8",
          "cv183x",
          "cv182x",
          "cv181x",
          "cv180x");

  @Test
  void everyChipOfTheReferenceTableLoadsSortedByName() {
    List<String> names = Chips.all().stream().map(Chip::name).toList();
    assertThat(names).containsExactlyInAnyOrderElementsOf(REFERENCE_CHIPS);
    assertThat(names).isSorted();
  }

  @Test
  void everyChipIsConsistent() {
    for (Chip c : Chips.all()) {
      assertThat(c.bankBytes() * c.banks()).as(c.name()).isEqualTo(c.lmemBytesPerLane());
      assertThat(c.family()).as(c.name()).isIn("bm168x", "cv18xx");
      assertThat(c.name()).as(c.name()).isEqualTo(c.name().toLowerCase(java.util.Locale.ROOT));
      assertThat(c.notes()).as(c.name()).isNotBlank();
      long expectedAlignment = c.isCv18xx() ? 16 : 4096;
      assertThat(c.gmemAlignment()).as(c.name()).isEqualTo(expectedAlignment);
      assertThat(c.weightAlignment()).as(c.name()).isEqualTo(expectedAlignment);
    }
  }

  @Test
  void bm1684xIsTheDefault() {
    Chip c = Chips.defaultChip();
    assertThat(Chips.DEFAULT).isEqualTo("bm1684x");
    assertThat(c.name()).isEqualTo("bm1684x");
    assertThat(c.family()).isEqualTo("bm168x");
    assertThat(c.lanes()).isEqualTo(64);
    assertThat(c.lmemBytesPerLane()).isEqualTo(256 * 1024);
    assertThat(c.lmemBytesTotal()).isEqualTo(16L * 1024 * 1024);
    assertThat(c.banks()).isEqualTo(16);
    assertThat(c.bankBytes()).isEqualTo(16 * 1024);
    assertThat(c.euBytes()).isEqualTo(64);
    assertThat(c.gmemAlignment()).isEqualTo(4096);
    assertThat(c.dmaAlignBytes()).isEqualTo(512);
    assertThat(c.maxCores()).isEqualTo(1);
    assertThat(c.tiuMhz()).isEqualTo(OptionalDouble.of(1000));
    assertThat(c.ddrGBps()).isEmpty();
  }

  @Test
  void cv183xHasTheCvikernelConstants() {
    Chip c = Chips.get("cv183x");
    assertThat(c.isCv18xx()).isTrue();
    assertThat(c.lanes()).isEqualTo(32);
    assertThat(c.lmemBytesPerLane()).isEqualTo(32 * 1024);
    assertThat(c.banks()).isEqualTo(8);
    assertThat(c.euBytes()).isEqualTo(16);
    assertThat(c.gmemAlignment()).isEqualTo(16);
    assertThat(c.weightAlignment()).isEqualTo(16);
    assertThat(c.dmaAlignBytes()).isZero();
    assertThat(c.tiuMhz()).isEqualTo(OptionalDouble.of(650));
    assertThat(c.ddrGBps().getAsDouble()).isEqualTo(1886 * 4 / 1000.0);
  }

  @Test
  void otherRowsOfTheTable() {
    Chip bm1684 = Chips.get("bm1684");
    assertThat(bm1684.lmemBytesPerLane()).isEqualTo(512 * 1024);
    assertThat(bm1684.banks()).isEqualTo(8);
    assertThat(bm1684.euBytes()).isEqualTo(128);
    assertThat(bm1684.gdmaMhz()).isEqualTo(OptionalDouble.of(575));

    Chip bm1688 = Chips.get("bm1688");
    assertThat(bm1688.lanes()).isEqualTo(32);
    assertThat(bm1688.maxCores()).isEqualTo(2);
    assertThat(bm1688.ddrGBps()).isEqualTo(OptionalDouble.of(24));

    Chip bm1690 = Chips.get("bm1690");
    assertThat(bm1690.maxCores()).isEqualTo(8);
    assertThat(bm1690.dmaAlignBytes()).isEqualTo(256);
    assertThat(bm1690.ddrGBps()).isEqualTo(OptionalDouble.of(68.264));

    Chip bm1690e = Chips.get("bm1690e");
    assertThat(bm1690e.dmaAlignBytes()).isZero();
    assertThat(bm1690e.maxCores()).isEqualTo(1);
    assertThat(bm1690e.tiuMhz()).isEmpty();

    Chip cv184x = Chips.get("cv184x");
    assertThat(cv184x.family()).isEqualTo("bm168x");
    assertThat(cv184x.gmemAlignment()).isEqualTo(4096);
    assertThat(cv184x.ddrGBps()).isEqualTo(OptionalDouble.of(4));

    assertThat(Chips.get("cv180x").lanes()).isEqualTo(2);
    assertThat(Chips.get("bm1684x2").lanes()).isEqualTo(16);
    assertThat(Chips.get("sg2380").maxCores()).isEqualTo(4);
  }

  @ParameterizedTest
  @ValueSource(strings = {"BM1684X", "Bm1684x", " bm1684x "})
  void lookupIgnoresCase(String name) {
    assertThat(Chips.get(name)).isSameAs(Chips.get("bm1684x"));
  }

  @Test
  void unknownChipListsTheKnownOnes() {
    assertThatThrownBy(() -> Chips.get("bm9999"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unknown chip 'bm9999'")
        .hasMessageContaining("bm1684x")
        .hasMessageContaining("cv183x");
  }

  @Test
  void allIsUnmodifiable() {
    List<Chip> all = Chips.all();
    assertThatThrownBy(() -> all.remove(0)).isInstanceOf(UnsupportedOperationException.class);
  }

  // ---- parsing of malformed tables ----

  private static final String GOOD_ENTRY =
      "\"name\": \"t1\", \"family\": \"bm168x\", \"lanes\": 4, \"lmemBytesPerLane\": 1024,"
          + " \"banks\": 4, \"bankBytes\": 256, \"euBytes\": 16, \"gmemAlignment\": 4096,"
          + " \"weightAlignment\": 4096, \"dmaAlignBytes\": 0, \"maxCores\": 1";

  private static String table(String entry) {
    return "{\"chips\": [{" + entry + "}]}";
  }

  @Test
  void absentAndNullClocksAreEmpty() {
    Chip c =
        Chips.parse(table(GOOD_ENTRY + ", \"tiuMhz\": null, \"ddrGBps\": 1.5"), "t.json").get(0);
    assertThat(c.tiuMhz()).isEmpty();
    assertThat(c.gdmaMhz()).isEmpty();
    assertThat(c.ddrGBps()).isEqualTo(OptionalDouble.of(1.5));
    assertThat(c.notes()).isEmpty();
  }

  @Test
  void missingFieldNamesChipAndField() {
    String entry = GOOD_ENTRY.replace(" \"banks\": 4,", "");
    assertThatThrownBy(() -> Chips.parse(table(entry), "t.json"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("t.json")
        .hasMessageContaining("chip 't1'")
        .hasMessageContaining("'banks' is missing");
  }

  @Test
  void wrongTypeNamesChipAndField() {
    String entry = GOOD_ENTRY.replace("\"lanes\": 4", "\"lanes\": \"4\"");
    assertThatThrownBy(() -> Chips.parse(table(entry), "t.json"))
        .hasMessageContaining("chip 't1'")
        .hasMessageContaining("'lanes' must be an integer");
    String fractional = GOOD_ENTRY.replace("\"lanes\": 4", "\"lanes\": 4.5");
    assertThatThrownBy(() -> Chips.parse(table(fractional), "t.json"))
        .hasMessageContaining("'lanes' must be an integer");
    String clock = GOOD_ENTRY + ", \"gdmaMhz\": -3";
    assertThatThrownBy(() -> Chips.parse(table(clock), "t.json"))
        .hasMessageContaining("chip 't1'")
        .hasMessageContaining("'gdmaMhz' must be a positive number");
  }

  @Test
  void outOfRangeAndInconsistentValuesFail() {
    String zeroLanes = GOOD_ENTRY.replace("\"lanes\": 4", "\"lanes\": 0");
    assertThatThrownBy(() -> Chips.parse(table(zeroLanes), "t.json"))
        .hasMessageContaining("chip 't1'")
        .hasMessageContaining("'lanes' is 0");
    String badBanks = GOOD_ENTRY.replace("\"bankBytes\": 256", "\"bankBytes\": 200");
    assertThatThrownBy(() -> Chips.parse(table(badBanks), "t.json"))
        .hasMessageContaining("t.json")
        .hasMessageContaining("chip 't1'")
        .hasMessageContaining("bank");
  }

  @Test
  void unknownFieldFamilyAndNameFail() {
    assertThatThrownBy(() -> Chips.parse(table(GOOD_ENTRY + ", \"lane\": 4"), "t.json"))
        .hasMessageContaining("chip 't1'")
        .hasMessageContaining("unknown field 'lane'");
    String family = GOOD_ENTRY.replace("bm168x", "gpu");
    assertThatThrownBy(() -> Chips.parse(table(family), "t.json"))
        .hasMessageContaining("chip 't1'")
        .hasMessageContaining("'family'");
    String upper = GOOD_ENTRY.replace("\"t1\"", "\"T1\"");
    assertThatThrownBy(() -> Chips.parse(table(upper), "t.json"))
        .hasMessageContaining("chip #0")
        .hasMessageContaining("'name'");
    String noName = GOOD_ENTRY.replace("\"name\": \"t1\", ", "");
    assertThatThrownBy(() -> Chips.parse(table(noName), "t.json"))
        .hasMessageContaining("chip #0")
        .hasMessageContaining("'name' is missing");
  }

  @Test
  void duplicatesAndBadShapesFail() {
    String two = "{\"chips\": [{" + GOOD_ENTRY + "}, {" + GOOD_ENTRY + "}]}";
    assertThatThrownBy(() -> Chips.parse(two, "t.json")).hasMessageContaining("'t1' appears twice");
    assertThatThrownBy(() -> Chips.parse("{\"chip\": []}", "t.json"))
        .hasMessageContaining("'chips' array");
    assertThatThrownBy(() -> Chips.parse("{\"chips\": [", "t.json"))
        .hasMessageContaining("not valid JSON");
    assertThatThrownBy(() -> Chips.parse(table(GOOD_ENTRY + ", \"lanes\": 8"), "t.json"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
