package io.github.memplan.experiments.cli;

import io.github.memplan.core.chip.Chip;
import java.util.List;

/**
 * Chip look-up for the CLI. The chip table (core.chip.Chips) has not landed yet: until it does,
 * every look-up fails and the list is empty.
 */
final class ChipList {
  private ChipList() {}

  static final String DEFAULT = "bm1684x";

  static Chip get(String name) {
    throw new IllegalArgumentException("unknown chip '" + name + "' (no chip table yet)");
  }

  static void rows(List<String[]> rows, List<List<String>> details) {}
}
