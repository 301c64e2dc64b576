package io.github.memplan.core.device;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Seeded device traces: a serving mix over zoo networks, and one worst case per allocator family.
 * The same arguments give the same trace.
 *
 * <ul>
 *   <li>{@code serving}: load {@code k} networks drawn from the catalogue, then run {@code n}
 *       inferences, each on a random loaded network, at most {@code depth} in flight per network
 *       (the seed's pipelined inferences: a network at its depth finishes its oldest first), and
 *       with probability 1/2 before each start the oldest inference of all finishes; every {@code
 *       swapEvery} inferences one loaded network drains, is unloaded and is replaced by the next
 *       waiting one.
 *   <li>{@code fragment} (first fit, best fit, linear, bidirectional, and combined): 15 networks of
 *       1/16 of code and data together each are loaded, the 2nd, 4th, ..., 14th unloaded (the last
 *       stays, so no hole joins the free tail), then a network of 2/16 + 4 KiB asked for: enough
 *       bytes are free, no single block is.
 *   <li>{@code pool-hoard} (pool, combined): one network runs {@code depth} inferences of 1/(2
 *       depth) of the data region each, all finish; then another network, with it still loaded,
 *       asks for 6/10 of the data region: the idle pool entries keep half the region.
 *   <li>{@code pin-front} (bidirectional): eight inferences of 1/10 of the data region each are
 *       started and all but the last finish; then a network with constants of half the data region
 *       is loaded: the last inference pins the placeholder front.
 *   <li>{@code buddy-round} (buddy): three networks whose constants are a quarter of the data
 *       region plus 4 KiB: each is rounded up to half of the space.
 * </ul>
 *
 * The worst cases use synthetic networks sized from the layout (names {@code w-...}), not zoo
 * models.
 */
public final class DeviceTraceGenerators {
  private DeviceTraceGenerators() {}

  /** The kinds {@link #generate} knows. */
  public static final List<String> KINDS =
      List.of("serving", "fragment", "pool-hoard", "pin-front", "buddy-round");

  /** Parameters of the serving mix. */
  public record Serving(int networks, int depth, int inferences, int swapEvery) {
    public Serving {
      if (networks < 1 || depth < 1 || inferences < 0 || swapEvery < 0) {
        throw new IllegalArgumentException(
            "serving mix: networks and depth must be at least 1, inferences and swap-every"
                + " non-negative");
      }
    }

    public static Serving defaults() {
      return new Serving(4, 4, 200, 50);
    }
  }

  /** A trace of {@code kind}; {@code catalogue} is used by {@code serving} only. */
  public static DeviceTrace generate(
      String kind, List<Network> catalogue, DeviceLayout layout, long seed, Serving serving) {
    return switch (kind) {
      case "serving" -> serving(catalogue, seed, serving);
      case "fragment" -> fragment(layout);
      case "pool-hoard" -> poolHoard(layout, serving.depth());
      case "pin-front" -> pinFront(layout);
      case "buddy-round" -> buddyRound(layout);
      default ->
          throw new IllegalArgumentException(
              "unknown trace kind '" + kind + "' (known: " + String.join(", ", KINDS) + ")");
    };
  }

  public static DeviceTrace serving(List<Network> catalogue, long seed, Serving p) {
    if (catalogue.isEmpty()) {
      throw new IllegalArgumentException("serving mix: no networks to serve");
    }
    SplittableRandom rng = new SplittableRandom(seed);
    List<Network> order = new ArrayList<>(catalogue);
    for (int i = order.size() - 1; i > 0; i--) {
      int j = rng.nextInt(i + 1);
      Network t = order.get(i);
      order.set(i, order.get(j));
      order.set(j, t);
    }
    int k = Math.min(p.networks(), order.size());
    List<String> loaded = new ArrayList<>();
    Deque<String> waiting = new ArrayDeque<>();
    List<DeviceEvent> ev = new ArrayList<>();
    for (int i = 0; i < order.size(); i++) {
      if (i < k) {
        loaded.add(order.get(i).name());
        ev.add(DeviceEvent.load(order.get(i).name()));
      } else {
        waiting.add(order.get(i).name());
      }
    }
    Map<String, Deque<Long>> perNet = new LinkedHashMap<>();
    Deque<long[]> all = new ArrayDeque<>(); // {inference}, with the network looked up by id
    Map<Long, String> netOf = new LinkedHashMap<>();
    for (long inf = 0; inf < p.inferences(); inf++) {
      if (inf > 0 && p.swapEvery() > 0 && inf % p.swapEvery() == 0 && !waiting.isEmpty()) {
        int v = rng.nextInt(loaded.size());
        String victim = loaded.get(v);
        for (long id : new ArrayList<>(perNet.getOrDefault(victim, new ArrayDeque<>()))) {
          finish(ev, perNet, all, netOf, id);
        }
        ev.add(DeviceEvent.unload(victim));
        String next = waiting.poll();
        waiting.add(victim);
        loaded.set(v, next);
        ev.add(DeviceEvent.load(next));
      }
      if (!all.isEmpty() && rng.nextBoolean()) {
        finish(ev, perNet, all, netOf, all.peekFirst()[0]);
      }
      String net = loaded.get(rng.nextInt(loaded.size()));
      Deque<Long> q = perNet.computeIfAbsent(net, x -> new ArrayDeque<>());
      if (q.size() >= p.depth()) {
        finish(ev, perNet, all, netOf, q.peekFirst());
      }
      ev.add(DeviceEvent.start(net, inf));
      q.addLast(inf);
      all.addLast(new long[] {inf});
      netOf.put(inf, net);
    }
    while (!all.isEmpty()) {
      finish(ev, perNet, all, netOf, all.peekFirst()[0]);
    }
    String name =
        "serving-k" + p.networks() + "-d" + p.depth() + "-n" + p.inferences() + "-s" + seed;
    return new DeviceTrace(name, order, ev);
  }

  private static void finish(
      List<DeviceEvent> ev,
      Map<String, Deque<Long>> perNet,
      Deque<long[]> all,
      Map<Long, String> netOf,
      long id) {
    String net = netOf.remove(id);
    ev.add(DeviceEvent.finish(net, id));
    perNet.get(net).remove(id);
    all.removeIf(a -> a[0] == id);
  }

  private static long unit(DeviceLayout layout, int parts) {
    return unit(layout.data(), parts);
  }

  private static long unit(Region region, int parts) {
    long u = region.size() / parts / 4096 * 4096;
    if (u < 4096) {
      throw new IllegalArgumentException("the data region is too small for this trace");
    }
    return u;
  }

  private static Network net(String name, long constants, long internal) {
    return new Network(name, 4096, constants, List.of(4096L), List.of(4096L), List.of(), internal);
  }

  public static DeviceTrace fragment(DeviceLayout layout) {
    long u = unit(layout.shared(), 16);
    List<Network> nets = new ArrayList<>();
    List<DeviceEvent> ev = new ArrayList<>();
    for (int i = 0; i < 15; i++) {
      nets.add(net("w-f" + i, u, 0));
      ev.add(DeviceEvent.load("w-f" + i));
    }
    for (int i = 1; i < 15; i += 2) {
      ev.add(DeviceEvent.unload("w-f" + i));
    }
    nets.add(net("w-big", 2 * u + 4096, 0));
    ev.add(DeviceEvent.load("w-big"));
    ev.add(DeviceEvent.start("w-big", 0));
    ev.add(DeviceEvent.finish("w-big", 0));
    return new DeviceTrace("fragment", nets, ev);
  }

  public static DeviceTrace poolHoard(DeviceLayout layout, int depth) {
    long x = unit(layout, 2 * depth);
    long y = unit(layout, 10) * 6;
    List<DeviceEvent> ev = new ArrayList<>();
    ev.add(DeviceEvent.load("w-a"));
    for (int i = 0; i < depth; i++) {
      ev.add(DeviceEvent.start("w-a", i));
    }
    for (int i = 0; i < depth; i++) {
      ev.add(DeviceEvent.finish("w-a", i));
    }
    ev.add(DeviceEvent.load("w-b"));
    ev.add(DeviceEvent.start("w-b", depth));
    ev.add(DeviceEvent.finish("w-b", depth));
    return new DeviceTrace("pool-hoard", List.of(net("w-a", 4096, x), net("w-b", 4096, y)), ev);
  }

  public static DeviceTrace pinFront(DeviceLayout layout) {
    long x = unit(layout, 10);
    List<DeviceEvent> ev = new ArrayList<>();
    ev.add(DeviceEvent.load("w-p"));
    for (int i = 0; i < 8; i++) {
      ev.add(DeviceEvent.start("w-p", i));
    }
    for (int i = 0; i < 7; i++) {
      ev.add(DeviceEvent.finish("w-p", i));
    }
    ev.add(DeviceEvent.load("w-c"));
    ev.add(DeviceEvent.finish("w-p", 7));
    return new DeviceTrace(
        "pin-front", List.of(net("w-p", 4096, x), net("w-c", unit(layout, 2), 0)), ev);
  }

  public static DeviceTrace buddyRound(DeviceLayout layout) {
    long q = unit(layout, 4) + 4096;
    List<Network> nets = new ArrayList<>();
    List<DeviceEvent> ev = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      nets.add(net("w-r" + i, q, 0));
      ev.add(DeviceEvent.load("w-r" + i));
    }
    return new DeviceTrace("buddy-round", nets, ev);
  }
}
