/** The graph IR: tensors, ops with typed attributes, shape inference and schedules. */
package io.github.memplan.core.ir;
