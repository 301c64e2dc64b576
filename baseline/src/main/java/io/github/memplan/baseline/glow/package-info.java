/** Glow's online allocators: the linear (first-fit) memory allocator replayed over lifetimes. */
package io.github.memplan.baseline.glow;
