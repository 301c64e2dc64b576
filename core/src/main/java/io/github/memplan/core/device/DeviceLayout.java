package io.github.memplan.core.device;

/**
 * How DRAM is divided at boot, after the seed's "Memory Regions": a code region at the bottom
 * (fixed size, the seed's example is 1 GB), the data region for constants and placeholders, and the
 * logging carve-out at the top. Allocators that do not separate code from data ({@code linear},
 * {@code pool}, {@code best-fit}, {@code buddy}) use {@link #shared()}, code plus data, for every
 * buffer; the logging carve-out is reserved by all of them.
 *
 * <p>The seed gives no sizes beyond "e.g. 1 GB" of code: by default the code region is 1/16 of DRAM
 * (1 GiB of 16 GiB) and the logging carve-out 1/256 of DRAM (64 MiB of 16 GiB); both are choices of
 * ours and can be set.
 */
public record DeviceLayout(long dram, Region code, Region data, Region logging) {
  public DeviceLayout {
    if (code.start() != 0
        || data.start() != code.end()
        || logging.start() != data.end()
        || logging.end() != dram) {
      throw new IllegalArgumentException("regions must tile the DRAM: code, data, logging");
    }
  }

  /** The default layout of {@code dram} bytes (1/16 code, 1/256 logging, rounded to 4 KiB). */
  public static DeviceLayout of(long dram) {
    return of(dram, roundDown(dram / 16), roundDown(dram / 256));
  }

  /** A layout with the given code and logging sizes; the rest is data. */
  public static DeviceLayout of(long dram, long codeBytes, long loggingBytes) {
    if (dram <= 0 || codeBytes < 0 || loggingBytes < 0 || codeBytes + loggingBytes > dram) {
      throw new IllegalArgumentException(
          "DRAM of "
              + dram
              + " B cannot hold "
              + codeBytes
              + " B of code and "
              + loggingBytes
              + " B of logging");
    }
    long dataBytes = dram - codeBytes - loggingBytes;
    return new DeviceLayout(
        dram,
        new Region("code", 0, codeBytes),
        new Region("data", codeBytes, dataBytes),
        new Region("logging", codeBytes + dataBytes, loggingBytes));
  }

  /** Code and data together, for allocators that do not separate them. */
  public Region shared() {
    return new Region("shared", 0, code.size() + data.size());
  }

  private static long roundDown(long bytes) {
    return bytes / 4096 * 4096;
  }
}
