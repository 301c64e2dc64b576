package io.github.memplan.core.chip;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The registry of known chips, loaded once from the bundled table {@code chips.json} next to this
 * class. The table transcribes TPU-MLIR's backend constants ({@code reference/tpu-mlir.md} §3) and
 * the clocks and bandwidths its profiler and simulator use (§2.9); each chip's {@link Chip#notes()}
 * names its header and any judgement call made in transcribing it.
 */
public final class Chips {
  /** The default chip: TPU-MLIR's main target. */
  public static final String DEFAULT = "bm1684x";

  static final String RESOURCE = "chips.json";

  private static final Set<String> FAMILIES = Set.of("bm168x", "cv18xx");
  private static final Set<String> FIELDS =
      Set.of(
          "name",
          "family",
          "lanes",
          "lmemBytesPerLane",
          "banks",
          "bankBytes",
          "euBytes",
          "gmemAlignment",
          "weightAlignment",
          "dmaAlignBytes",
          "maxCores",
          "tiuMhz",
          "gdmaMhz",
          "ddrGBps",
          "notes");

  private static volatile Map<String, Chip> byName;

  private Chips() {}

  /** Every known chip, sorted by name. */
  public static List<Chip> all() {
    return List.copyOf(table().values());
  }

  /**
   * The chip called {@code name}, ignoring case.
   *
   * @throws IllegalArgumentException for an unknown name; the message lists the known ones
   */
  public static Chip get(String name) {
    Objects.requireNonNull(name, "name");
    Chip chip = table().get(name.trim().toLowerCase(Locale.ROOT));
    if (chip == null) {
      throw new IllegalArgumentException(
          "unknown chip '" + name + "' (known: " + String.join(", ", table().keySet()) + ")");
    }
    return chip;
  }

  /** The chip called {@link #DEFAULT}. */
  public static Chip defaultChip() {
    return get(DEFAULT);
  }

  private static Map<String, Chip> table() {
    Map<String, Chip> t = byName;
    if (t == null) {
      synchronized (Chips.class) {
        t = byName;
        if (t == null) {
          t = index(load());
          byName = t;
        }
      }
    }
    return t;
  }

  private static List<Chip> load() {
    try (InputStream in = Chips.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("bundled chip table " + RESOURCE + " is missing");
      }
      return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), RESOURCE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read bundled chip table " + RESOURCE, e);
    }
  }

  private static Map<String, Chip> index(List<Chip> chips) {
    Map<String, Chip> sorted = new TreeMap<>();
    for (Chip c : chips) {
      sorted.put(c.name(), c);
    }
    return Collections.unmodifiableMap(sorted);
  }

  /**
   * Parses a chip table: an object whose {@code chips} array holds one object per chip. Integer
   * fields are required; {@code tiuMhz}, {@code gdmaMhz} and {@code ddrGBps} may be absent or null
   * (then empty); unknown fields fail.
   *
   * @param source names the table in error messages
   * @return the chips, sorted by name
   * @throws IllegalArgumentException naming the chip and field at fault
   */
  static List<Chip> parse(String json, String source) {
    ObjectMapper mapper =
        JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY).build();
    JsonNode root;
    try {
      root = mapper.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(source + ": not valid JSON: " + e.getOriginalMessage(), e);
    }
    if (root == null || !root.isObject() || !root.path("chips").isArray()) {
      throw new IllegalArgumentException(source + ": expected an object with a 'chips' array");
    }
    List<Chip> chips = new ArrayList<>();
    Map<String, Integer> seen = new TreeMap<>();
    int index = 0;
    for (JsonNode entry : root.get("chips")) {
      Chip chip = chip(entry, source, index);
      Integer prev = seen.put(chip.name(), index);
      if (prev != null) {
        throw new IllegalArgumentException(
            source
                + ": chip '"
                + chip.name()
                + "' appears twice (entries "
                + prev
                + " and "
                + index
                + ")");
      }
      chips.add(chip);
      index++;
    }
    chips.sort(Comparator.comparing(Chip::name));
    return List.copyOf(chips);
  }

  private static Chip chip(JsonNode entry, String source, int index) {
    String where = source + ": chip #" + index;
    if (!entry.isObject()) {
      throw new IllegalArgumentException(where + " is not an object");
    }
    String name = text(entry, "name", where);
    if (name.isEmpty()
        || !name.equals(name.toLowerCase(Locale.ROOT))
        || !name.equals(name.trim())) {
      throw new IllegalArgumentException(
          where + ": field 'name' must be a non-empty lower-case id, got '" + name + "'");
    }
    where = source + ": chip '" + name + "'";
    for (Iterator<String> it = entry.fieldNames(); it.hasNext(); ) {
      String field = it.next();
      if (!FIELDS.contains(field)) {
        throw new IllegalArgumentException(
            where
                + ": unknown field '"
                + field
                + "' (known: "
                + FIELDS.stream().sorted().collect(Collectors.joining(", "))
                + ")");
      }
    }
    String family = text(entry, "family", where);
    if (!FAMILIES.contains(family)) {
      throw new IllegalArgumentException(
          where + ": field 'family' must be bm168x or cv18xx, got '" + family + "'");
    }
    JsonNode notesNode = entry.get("notes");
    if (notesNode != null && !notesNode.isNull() && !notesNode.isTextual()) {
      throw new IllegalArgumentException(where + ": field 'notes' must be a string");
    }
    String notes = notesNode == null || notesNode.isNull() ? "" : notesNode.asText();
    try {
      return new Chip(
          name,
          family,
          (int) integer(entry, "lanes", where, 1, Integer.MAX_VALUE),
          integer(entry, "lmemBytesPerLane", where, 1, Long.MAX_VALUE),
          (int) integer(entry, "banks", where, 1, Integer.MAX_VALUE),
          integer(entry, "bankBytes", where, 1, Long.MAX_VALUE),
          (int) integer(entry, "euBytes", where, 1, Integer.MAX_VALUE),
          integer(entry, "gmemAlignment", where, 1, Long.MAX_VALUE),
          integer(entry, "weightAlignment", where, 1, Long.MAX_VALUE),
          (int) integer(entry, "dmaAlignBytes", where, 0, Integer.MAX_VALUE),
          (int) integer(entry, "maxCores", where, 1, Integer.MAX_VALUE),
          optionalPositive(entry, "tiuMhz", where),
          optionalPositive(entry, "gdmaMhz", where),
          optionalPositive(entry, "ddrGBps", where),
          notes);
    } catch (IllegalArgumentException e) {
      // the record's own checks (e.g. banks × bank bytes) name the chip; add the table
      throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
    }
  }

  private static String text(JsonNode entry, String field, String where) {
    JsonNode n = entry.get(field);
    if (n == null || n.isNull()) {
      throw new IllegalArgumentException(where + ": field '" + field + "' is missing");
    }
    if (!n.isTextual()) {
      throw new IllegalArgumentException(
          where + ": field '" + field + "' must be a string, got " + n);
    }
    return n.asText();
  }

  private static long integer(JsonNode entry, String field, String where, long min, long max) {
    JsonNode n = entry.get(field);
    if (n == null || n.isNull()) {
      throw new IllegalArgumentException(where + ": field '" + field + "' is missing");
    }
    if (!n.isIntegralNumber() || !n.canConvertToLong()) {
      throw new IllegalArgumentException(
          where + ": field '" + field + "' must be an integer, got " + n);
    }
    long v = n.asLong();
    if (v < min || v > max) {
      throw new IllegalArgumentException(
          where
              + ": field '"
              + field
              + "' is "
              + v
              + (max == Long.MAX_VALUE
                  ? ", must be >= " + min
                  : ", outside [" + min + ", " + max + "]"));
    }
    return v;
  }

  private static OptionalDouble optionalPositive(JsonNode entry, String field, String where) {
    JsonNode n = entry.get(field);
    if (n == null || n.isNull()) {
      return OptionalDouble.empty();
    }
    if (!n.isNumber() || !(n.asDouble() > 0) || Double.isInfinite(n.asDouble())) {
      throw new IllegalArgumentException(
          where + ": field '" + field + "' must be a positive number or absent, got " + n);
    }
    return OptionalDouble.of(n.asDouble());
  }
}
