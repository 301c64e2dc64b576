package io.github.memplan.core.group;

/**
 * One GDMA transfer of a group moved to another row of its timestep table ({@link TimestepMoves}):
 * the load or store of buffer {@code buffer} (an index into the table's buffers) now runs in row
 * {@code row} (an index into the rows of the table the group's {@link TimestepMethod} builds).
 */
public record TransferMove(int buffer, int row) {
  public TransferMove {
    if (buffer < 0 || row < 0) {
      throw new IllegalArgumentException("transfer move (" + buffer + ", " + row + "): negative");
    }
  }
}
