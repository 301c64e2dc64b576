package io.github.memplan.core.device;

/**
 * The on-device buffer metadata of the seed ("On Device Memory Meta-Data"): {@code BufferCommonMD}
 * and the code, constant, placeholder and logging buffers, so that every buffer, and every failed
 * request, can be traced back to its network and inference. The seed names the structs of {@code
 * BufferInfo.h} but not their fields; the fields here are the ones the seed's text asks for
 * (network, inference, kind) plus where and when the buffer lived.
 */
public sealed interface BufferRecord {
  Common common();

  /**
   * The fields every buffer has ({@code BufferCommonMD}).
   *
   * @param id buffer number, in allocation order from 0
   * @param kind what the buffer holds
   * @param network the network it belongs to ({@code -} for logging)
   * @param offset byte address in DRAM
   * @param size bytes
   * @param allocated the event index that allocated it (-1 at boot)
   * @param freed the event index that freed it, or -1 if it was live at the end
   */
  record Common(
      long id, BufferKind kind, String network, long offset, long size, int allocated, int freed) {
    public Common withFreed(int event) {
      return new Common(id, kind, network, offset, size, allocated, event);
    }

    /** True while the buffer is live just after event {@code t} (boot is -1). */
    public boolean liveAfter(int t) {
      return allocated <= t && (freed < 0 || freed > t);
    }
  }

  /** Code region buffer ({@code CodeBuffer}): a network's kernels. */
  record CodeBuffer(Common common) implements BufferRecord {}

  /** Constant buffer ({@code ConstantBuffer}): a network's weights, biases and scales. */
  record ConstantBuffer(Common common) implements BufferRecord {}

  /**
   * Placeholder ({@code PlaceholderBuffer}): an input, output, in/out or internal area of one
   * inference; {@code slot} numbers the network's placeholders.
   */
  record PlaceholderBuffer(Common common, long inference, int slot) implements BufferRecord {}

  /** Logging buffer ({@code LoggingBuffer}): the carve-out reserved at boot. */
  record LoggingBuffer(Common common) implements BufferRecord {}

  /** The same record, freed at {@code event}. */
  default BufferRecord freedAt(int event) {
    Common c = common().withFreed(event);
    if (this instanceof CodeBuffer) {
      return new CodeBuffer(c);
    } else if (this instanceof ConstantBuffer) {
      return new ConstantBuffer(c);
    } else if (this instanceof PlaceholderBuffer p) {
      return new PlaceholderBuffer(c, p.inference(), p.slot());
    } else {
      return new LoggingBuffer(c);
    }
  }
}
