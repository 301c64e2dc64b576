package io.github.memplan.core.chip;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * The constants of one accelerator, as TPU-MLIR's backend headers give them (see {@code
 * reference/tpu-mlir.md} §3). Sizes are bytes; LMEM sizes are per NPU lane. The known chips are in
 * {@link Chips}.
 *
 * @param name lower-case id, e.g. {@code bm1684x}
 * @param family {@code bm168x} or {@code cv18xx}: which GMEM and LayerGroup rules apply
 * @param lanes NPU lanes ({@code NPU_NUM})
 * @param lmemBytesPerLane LMEM bytes of one lane ({@code LMEM_BYTES})
 * @param banks LMEM banks ({@code LMEM_BANKS})
 * @param bankBytes bytes of one bank of one lane
 * @param euBytes execution-unit alignment in bytes ({@code EU_BYTES}; for CV18xx {@code eu_num})
 * @param gmemAlignment alignment of activations in GMEM (4096 on BM168x, 16 on CV18xx)
 * @param weightAlignment alignment of each weight in GMEM (4096 on BM168x, 16 on CV18xx)
 * @param dmaAlignBytes {@code DMA_ALGN_BYTES}, 0 when the chip's header does not set it or it does
 *     not apply (CV18xx); TPU-MLIR itself falls back to 512 for an unset BM168x value
 * @param maxCores cores per chip (1 when the table gives none)
 * @param tiuMhz TIU clock when known
 * @param gdmaMhz GDMA clock when known
 * @param ddrGBps DDR (or s2l GDMA) bandwidth in GB/s when known
 * @param notes provenance and caveats
 */
public record Chip(
    String name,
    String family,
    int lanes,
    long lmemBytesPerLane,
    int banks,
    long bankBytes,
    int euBytes,
    long gmemAlignment,
    long weightAlignment,
    int dmaAlignBytes,
    int maxCores,
    OptionalDouble tiuMhz,
    OptionalDouble gdmaMhz,
    OptionalDouble ddrGBps,
    String notes) {

  public Chip {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(family, "family");
    if (lanes <= 0 || lmemBytesPerLane <= 0 || banks <= 0 || bankBytes <= 0 || euBytes <= 0) {
      throw new IllegalArgumentException("chip '" + name + "': non-positive LMEM constant");
    }
    if (bankBytes * banks != lmemBytesPerLane) {
      throw new IllegalArgumentException(
          "chip '" + name + "': banks × bank bytes != LMEM bytes per lane");
    }
    if (gmemAlignment <= 0 || weightAlignment <= 0) {
      throw new IllegalArgumentException("chip '" + name + "': non-positive alignment");
    }
    Objects.requireNonNull(tiuMhz, "tiuMhz");
    Objects.requireNonNull(gdmaMhz, "gdmaMhz");
    Objects.requireNonNull(ddrGBps, "ddrGBps");
    notes = notes == null ? "" : notes;
  }

  /** Total LMEM over all lanes. */
  public long lmemBytesTotal() {
    return lmemBytesPerLane * lanes;
  }

  public boolean isCv18xx() {
    return family.equals("cv18xx");
  }
}
