package io.github.memplan.experiments.suite;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collection;
import java.util.Iterator;

/** Reading a suite's YAML nodes strictly: unknown keys and wrong types fail naming the key. */
final class SuiteNodes {
  private SuiteNodes() {}

  /** Fails on the first key of mapping {@code node} not in {@code allowed}. */
  static void keys(JsonNode node, String path, Collection<String> allowed) {
    if (!node.isObject()) {
      throw new IllegalArgumentException(at(path) + "expected a mapping");
    }
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      if (!allowed.contains(k)) {
        throw new IllegalArgumentException(
            at(join(path, k)) + "unknown key (known: " + String.join(", ", allowed) + ")");
      }
    }
  }

  static String join(String path, String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  private static String at(String path) {
    return path.isEmpty() ? "" : path + ": ";
  }

  static long longValue(JsonNode node, String key, long dflt) {
    JsonNode v = node.get(key);
    if (v == null || v.isNull()) {
      return dflt;
    }
    if (!v.canConvertToLong() || !v.isIntegralNumber()) {
      throw new IllegalArgumentException(key + ": expected an integer, found '" + v.asText() + "'");
    }
    return v.asLong();
  }

  static int intValue(JsonNode node, String key, int dflt) {
    long v = longValue(node, key, dflt);
    if (v != (int) v) {
      throw new IllegalArgumentException(key + ": " + v + " is too large");
    }
    return (int) v;
  }

  static String text(JsonNode node, String key, String dflt) {
    JsonNode v = node.get(key);
    if (v == null || v.isNull()) {
      return dflt;
    }
    if (!v.isValueNode()) {
      throw new IllegalArgumentException(key + ": expected a value");
    }
    return v.asText();
  }
}
