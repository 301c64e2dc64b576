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
   * source:line: message} on one line, and so does a key or string holding a line break or another
   * control character ({@link InputText#hasControl}).
   */
  public static JsonNode readTree(String text, String source) {
    try {
      JsonNode root = MAPPER.readTree(text);
      if (root != null) {
        printable(root, source);
      }
      return root;
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

  /**
   * Fails, on one line naming {@code source}, at the first key or string of {@code node} that holds
   * a line break or another control character ({@link InputText#hasControl}).
   */
  public static void printable(JsonNode node, String source) {
    if (node.isTextual() && InputText.hasControl(node.textValue())) {
      throw new IllegalArgumentException(
          source
              + ": the string "
              + InputText.quote(node.textValue())
              + " holds a line break or control character");
    }
    var fields = node.fields();
    while (fields.hasNext()) {
      var e = fields.next();
      if (InputText.hasControl(e.getKey())) {
        throw new IllegalArgumentException(
            source
                + ": the key "
                + InputText.quote(e.getKey())
                + " holds a line break or control character");
      }
      printable(e.getValue(), source);
    }
    if (node.isArray()) {
      for (JsonNode item : node) {
        printable(item, source);
      }
    }
  }
}
