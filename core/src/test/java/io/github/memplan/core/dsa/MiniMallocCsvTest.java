package io.github.memplan.core.dsa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class MiniMallocCsvTest {

  private static DsaInstance parse(String text) throws IOException {
    return MiniMallocCsv.parse("t.csv", new StringReader(text));
  }

  private static String write(DsaInstance instance, DsaSolution solution) throws IOException {
    StringWriter w = new StringWriter();
    MiniMallocCsv.write(instance, solution, w);
    return w.toString();
  }

  private static DsaInstance rich() {
    return DsaInstance.of(
        "rich",
        List.of(
            Buffer.of("a", 0, 4, 16).withAlignment(8),
            new Buffer(
                "b",
                1,
                9,
                32,
                1,
                List.of(Gap.empty(2, 3), new Gap(5, 7, 8, 24)),
                OptionalLong.of(64)),
            Buffer.of("c", 3, 5, 0)));
  }

  @Test
  void writesMiniMallocLayoutAndReadsItBack() throws IOException {
    DsaInstance in = rich();
    String text = write(in, null);
    assertThat(text)
        .isEqualTo(
            "id,lower,upper,size,alignment,gaps,offset\n"
                + "a,0,4,16,8,,\n"
                + "b,1,9,32,1,2-3 5-7@8:24,64\n"
                + "c,3,5,0,1,,\n");
    DsaInstance back = parse(text);
    assertThat(back.name()).isEqualTo("t");
    assertThat(back.buffers()).isEqualTo(in.buffers());
    assertThat(write(back.withName("rich"), null)).isEqualTo(text);
  }

  @Test
  void plainInstanceHasOnlyTheFourRequiredColumns() throws IOException {
    DsaInstance in = DsaInstance.of("p", List.of(Buffer.of("x", 0, 2, 5), Buffer.of("y", 1, 3, 7)));
    assertThat(write(in, null)).isEqualTo("id,lower,upper,size\nx,0,2,5\ny,1,3,7\n");
    assertThat(write(in, new DsaSolution(new long[] {0, 5})))
        .isEqualTo("id,lower,upper,size,offset\nx,0,2,5,0\ny,1,3,7,5\n");
  }

  @Test
  void solutionRoundTripsThroughTheOffsetColumn() throws IOException {
    DsaInstance in = rich();
    DsaSolution sol = new DsaSolution(new long[] {0, 64, 16});
    String text = write(in, sol);
    MiniMallocCsv.Solved solved = MiniMallocCsv.parseSolved("s.csv", new StringReader(text));
    assertThat(solved.solution()).isEqualTo(sol);
    assertThat(solved.instance().buffers())
        .allSatisfy(b -> assertThat(b.fixedOffset()).isEmpty())
        .extracting(Buffer::id)
        .containsExactly("a", "b", "c");
    assertThat(solved.instance().buffer(1).gaps()).isEqualTo(in.buffer(1).gaps());
  }

  @Test
  void offsetColumnOfAnInstanceBecomesFixedOffsets() throws IOException {
    DsaInstance in = parse("id,lower,upper,size,offset\na,0,2,4,8\nb,0,2,4,\n");
    assertThat(in.buffer(0).fixedOffset()).isEqualTo(OptionalLong.of(8));
    assertThat(in.buffer(1).fixedOffset()).isEmpty();
  }

  @Test
  void aliasesWithInclusiveEnd() throws IOException {
    DsaInstance in = parse("buffer,start,end,size,gaps\nx,0,0,4,\ny,2,9,8,3-4 6-6@0:2\n");
    assertThat(in.buffer(0)).isEqualTo(Buffer.of("x", 0, 1, 4));
    Buffer y = in.buffer(1);
    assertThat(y.lower()).isEqualTo(2);
    assertThat(y.upper()).isEqualTo(10);
    assertThat(y.gaps()).containsExactly(Gap.empty(3, 5), new Gap(6, 7, 0, 2));

    DsaInstance other = parse("buffer_id,begin,end,size\nz,1,3,2\n");
    assertThat(other.buffer(0)).isEqualTo(Buffer.of("z", 1, 4, 2));
  }

  @Test
  void columnsInAnyOrder() throws IOException {
    DsaInstance in = parse("size,upper,id,lower\n10,5,q,2\n");
    assertThat(in.buffer(0)).isEqualTo(Buffer.of("q", 2, 5, 10));
  }

  @Test
  void toleratesBomCrlfBlankLinesAndSpaces() throws IOException {
    DsaInstance in =
        parse("\uFEFF id , lower,upper ,size\r\n\r\n  a , 0 ,2, 4 \r\n   \r\nb,1,3,4\r\n\r\n");
    assertThat(in.buffers()).containsExactly(Buffer.of("a", 0, 2, 4), Buffer.of("b", 1, 3, 4));
  }

  @Test
  void emptyBodyIsAnEmptyInstance() throws IOException {
    assertThat(parse("id,lower,upper,size\n").size()).isZero();
  }

  static Stream<Arguments> malformed() {
    String h = "id,lower,upper,size\n";
    return Stream.of(
        Arguments.of("", "t.csv: no header row (expected columns id,lower,upper,size)"),
        Arguments.of("\n  \n", "t.csv: no header row (expected columns id,lower,upper,size)"),
        Arguments.of(h + "a,0,2\n", "t.csv:2: expected 4 fields (id,lower,upper,size), found 3"),
        Arguments.of(
            h + "a,0,2,4,5\n", "t.csv:2: expected 4 fields (id,lower,upper,size), found 5"),
        Arguments.of(h + "a,0,2,4\n\nb,0,2,x\n", "t.csv:4: size 'x' is not an integer"),
        Arguments.of(h + "a,zero,2,4\n", "t.csv:2: lower 'zero' is not an integer"),
        Arguments.of(h + "a,0,2.5,4\n", "t.csv:2: upper '2.5' is not an integer"),
        Arguments.of(h + "a,0,2,\n", "t.csv:2: size '' is not an integer"),
        Arguments.of(h + "a,0,2,-4\n", "t.csv:2: size -4 is negative"),
        Arguments.of(h + "a,-1,2,4\n", "t.csv:2: lower -1 is negative"),
        Arguments.of(h + "a,3,3,4\n", "t.csv:2: upper 3 must be greater than lower 3"),
        Arguments.of(h + "a,3,1,4\n", "t.csv:2: upper 1 must be greater than lower 3"),
        Arguments.of("id,start,end,size\na,3,2,4\n", "t.csv:2: end 2 is before start 3"),
        Arguments.of(h + ",0,2,4\n", "t.csv:2: empty id"),
        Arguments.of(
            h + "a,0,2,4\nb,0,2,4\na,1,2,4\n", "t.csv:4: duplicate id 'a' (first on line 2)"),
        Arguments.of(
            "id,lower,upper,size,alignment\na,0,2,4,0\n",
            "t.csv:2: alignment 0 must be at least 1"),
        Arguments.of(
            "id,lower,upper,size,alignment\na,0,2,4,x\n",
            "t.csv:2: alignment 'x' is not an integer"),
        Arguments.of(
            "id,lower,upper,size,gaps\na,0,9,4,2\n",
            "t.csv:2: gap '2' is not of the form lower-upper or lower-upper@from:to"),
        Arguments.of(
            "id,lower,upper,size,gaps\na,0,9,4,2-x\n",
            "t.csv:2: gap '2-x' is not of the form lower-upper or lower-upper@from:to"),
        Arguments.of(
            "id,lower,upper,size,gaps\na,0,9,4,2-3@1\n",
            "t.csv:2: gap '2-3@1' is not of the form lower-upper or lower-upper@from:to"),
        Arguments.of(
            "id,lower,upper,size,gaps\na,0,9,4,3-3\n", "t.csv:2: gap '3-3': gap 3-3 is empty"),
        Arguments.of(
            "id,lower,upper,size,gaps\na,0,9,4,2-3@3:1\n",
            "t.csv:2: gap '2-3@3:1': gap window 3:1 is not a range"),
        Arguments.of(
            "id,lower,upper,size,gaps\na,0,9,4,5-12\n",
            "t.csv:2: buffer 'a': gaps must be sorted, disjoint and inside [0, 9)"),
        Arguments.of(
            "id,lower,upper,size,gaps\na,0,9,4,2-3@0:8\n",
            "t.csv:2: buffer 'a': gap window ends at 8 > size 4"),
        Arguments.of("id,lower,upper,size,offset\na,0,2,4,-8\n", "t.csv:2: offset -8 is negative"),
        Arguments.of(
            "id,lower,upper,size,offset\na,0,2,4,x\n", "t.csv:2: offset 'x' is not an integer"),
        Arguments.of("id,lower,upper,size,lower\n", "t.csv:1: duplicate column 'lower'"),
        Arguments.of(
            "id,start,upper,size,begin\n",
            "t.csv:1: duplicate column 'lower' (both 'start' and 'begin')"),
        Arguments.of(
            "id,lower,end,upper,size\n",
            "t.csv:1: duplicate column 'upper' (both 'end' and 'upper')"),
        Arguments.of(
            "\n\nid,lower,size\n",
            "t.csv:3: missing required column 'upper' (header needs id, lower, upper, size; found"
                + " id,lower,size)"),
        Arguments.of(
            "id,lower,upper,size,ofset\n",
            "t.csv:1: unknown column 'ofset' (known: id, lower, upper, size, alignment, gaps,"
                + " offset, buffer, buffer_id, begin, start, end)"),
        Arguments.of("id,lower,upper,,size\n", "t.csv:1: header column 4 has no name"));
  }

  @ParameterizedTest
  @MethodSource("malformed")
  void rejectsMalformedInputWithSourceAndLine(String text, String message) {
    assertThatThrownBy(() -> parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
    assertThat(message).doesNotContain("\n");
  }

  @Test
  void solvedNeedsAnOffsetOnEveryLine() {
    assertThatThrownBy(
            () -> MiniMallocCsv.parseSolved("s.csv", new StringReader("id,lower,upper,size\n")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("s.csv:1: no 'offset' column: the file holds no solution");
    assertThatThrownBy(
            () ->
                MiniMallocCsv.parseSolved(
                    "s.csv", new StringReader("id,lower,upper,size,offset\na,0,1,2,0\nb,0,1,2,\n")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("s.csv:3: offset '' is not an integer");
  }

  @Test
  void refusesToWriteWhatCannotBeReadBack() {
    DsaInstance bad = DsaInstance.of("bad", List.of(Buffer.of("a,b", 0, 1, 1)));
    assertThatThrownBy(() -> write(bad, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'a,b'");
    DsaInstance ok = DsaInstance.of("ok", List.of(Buffer.of("a", 0, 1, 1)));
    assertThatThrownBy(() -> write(ok, new DsaSolution(new long[] {0, 1})))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("solution has 2 offsets for 1 buffers of 'ok'");
  }

  @Test
  void writesFilesAtomically(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("plan.csv");
    DsaInstance in = rich();
    MiniMallocCsv.write(in, new DsaSolution(new long[] {0, 64, 16}), file);
    MiniMallocCsv.Solved back = MiniMallocCsv.readSolved(file);
    assertThat(back.instance().name()).isEqualTo("plan");
    assertThat(back.solution().offsets()).containsExactly(0, 64, 16);

    String before = Files.readString(file);
    DsaInstance bad = DsaInstance.of("bad", List.of(Buffer.of(" a", 0, 1, 1)));
    assertThatThrownBy(() -> MiniMallocCsv.write(bad, null, file))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(Files.readString(file)).isEqualTo(before);
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).containsExactly(file);
    }
  }

  @Test
  void readInstanceNamesAfterTheFile(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("My.Inst.csv");
    Files.writeString(file, "id,lower,upper,size\na,0,1,1\nb,0,1,x\n");
    assertThatThrownBy(() -> MiniMallocCsv.readInstance(file))
        .hasMessage(file + ":3: size 'x' is not an integer");
    Files.writeString(file, "id,lower,upper,size\na,0,1,1\n");
    assertThat(MiniMallocCsv.readInstance(file).name()).isEqualTo("My.Inst");
  }
}
