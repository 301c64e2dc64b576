package io.github.memplan.core.device;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A sequence of host-runtime events over a set of networks, the lifetimes of seed {@code
 * glow-esperanto-memory-management.rst} ("Memory Regions Of Each Network &amp; Lifetime": code and
 * constants from load to removal, placeholders per inference, several inferences pipelined). The
 * constructor checks that the trace makes sense: every event names a known network; a network is
 * loaded before it is started and unloaded, never loaded twice at once, and unloaded only when none
 * of its inferences is in flight; inference ids are unique, each started once on a loaded network
 * and finished at most once by the same network. Inferences still in flight at the end, and
 * networks still loaded, are fine.
 */
public record DeviceTrace(String name, List<Network> networks, List<DeviceEvent> events) {
  public DeviceTrace {
    networks = List.copyOf(networks);
    events = List.copyOf(events);
    Map<String, Network> byName = new LinkedHashMap<>();
    for (Network n : networks) {
      if (byName.put(n.name(), n) != null) {
        throw new IllegalArgumentException("trace " + name + ": network " + n.name() + " twice");
      }
    }
    Set<String> loaded = new HashSet<>();
    Map<Long, String> inFlight = new HashMap<>();
    Map<String, Integer> running = new HashMap<>();
    Set<Long> seen = new HashSet<>();
    for (int i = 0; i < events.size(); i++) {
      DeviceEvent e = events.get(i);
      String at = "trace " + name + ", event " + i + " (" + e.op().id() + " " + e.network() + "): ";
      if (!byName.containsKey(e.network())) {
        throw new IllegalArgumentException(at + "unknown network");
      }
      switch (e.op()) {
        case LOAD -> {
          if (!loaded.add(e.network())) {
            throw new IllegalArgumentException(at + "already loaded");
          }
        }
        case UNLOAD -> {
          if (!loaded.remove(e.network())) {
            throw new IllegalArgumentException(at + "not loaded");
          }
          if (running.getOrDefault(e.network(), 0) > 0) {
            throw new IllegalArgumentException(at + "inferences still in flight");
          }
        }
        case START -> {
          if (!loaded.contains(e.network())) {
            throw new IllegalArgumentException(at + "not loaded");
          }
          if (e.inference() < 0 || !seen.add(e.inference())) {
            throw new IllegalArgumentException(
                at + "inference id " + e.inference() + " negative or used before");
          }
          inFlight.put(e.inference(), e.network());
          running.merge(e.network(), 1, Integer::sum);
        }
        case FINISH -> {
          String n = inFlight.remove(e.inference());
          if (n == null || !n.equals(e.network())) {
            throw new IllegalArgumentException(
                at + "inference " + e.inference() + " is not in flight on this network");
          }
          running.merge(e.network(), -1, Integer::sum);
        }
      }
    }
  }

  /** The network named {@code name}. */
  public Network network(String networkName) {
    for (Network n : networks) {
      if (n.name().equals(networkName)) {
        return n;
      }
    }
    throw new IllegalArgumentException("trace " + name + ": unknown network " + networkName);
  }
}
