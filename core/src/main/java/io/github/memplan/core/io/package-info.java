/** Helpers shared by memplan's file readers and writers. */
package io.github.memplan.core.io;
