package io.github.memplan.core.device;

/**
 * One host-runtime event: load or unload a network (its code and constants), start or finish one
 * inference (its placeholders and internal area). {@code inference} is -1 for loads and unloads.
 */
public record DeviceEvent(Op op, String network, long inference) {
  /** The four events of the seed's lifetimes table. */
  public enum Op {
    LOAD,
    UNLOAD,
    START,
    FINISH;

    public String id() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** {@code load}, {@code unload}, {@code start} or {@code finish}. */
    public static Op parse(String text) {
      for (Op o : values()) {
        if (o.id().equals(text)) {
          return o;
        }
      }
      throw new IllegalArgumentException(
          "unknown event '" + text + "' (expected load, unload, start or finish)");
    }
  }

  public static DeviceEvent load(String network) {
    return new DeviceEvent(Op.LOAD, network, -1);
  }

  public static DeviceEvent unload(String network) {
    return new DeviceEvent(Op.UNLOAD, network, -1);
  }

  public static DeviceEvent start(String network, long inference) {
    return new DeviceEvent(Op.START, network, inference);
  }

  public static DeviceEvent finish(String network, long inference) {
    return new DeviceEvent(Op.FINISH, network, inference);
  }
}
