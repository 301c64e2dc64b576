/** OpenVINO's {@code MemorySolver}: boxes sorted by size and popped up above their overlaps. */
package io.github.memplan.baseline.openvino;
