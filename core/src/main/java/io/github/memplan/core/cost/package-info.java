/** Cost models: estimated cycles and DDR bytes of layer groups and global ops. */
package io.github.memplan.core.cost;
