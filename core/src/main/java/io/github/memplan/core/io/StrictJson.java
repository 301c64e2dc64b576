package io.github.memplan.core.io;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** A Jackson mapper that rejects duplicate keys, and a parse whose error names file and line. */
public final class StrictJson {
  private StrictJson() {}

  /** Rejects duplicate keys; thread-safe once configured. */
  public static final ObjectMapper MAPPER =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY);

  /**
   * The tree of {@code text}; a syntax error becomes an {@link IllegalArgumentException} {@code
   * source:line: message} on one line.
   */
  public static JsonNode readTree(String text, String source) {
    try {
      return MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      JsonLocation loc = e.getLocation();
      throw new IllegalArgumentException(
          source
              + ":"
              + (loc == null ? 0 : loc.getLineNr())
              + ": "
              + InputText.oneLine(e.getOriginalMessage()),
          e);
    }
  }
}
