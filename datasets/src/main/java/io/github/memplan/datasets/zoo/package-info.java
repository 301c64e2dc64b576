/** The model zoo: architecture builders that construct well-known networks as IR graphs. */
package io.github.memplan.datasets.zoo;
