package io.periscope.benchmarks.lab;

import io.periscope.dataplane.health.HealthTargets;
import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.routing.Nexthop;
import io.periscope.plan.routing.NexthopGroup;
import io.periscope.plan.routing.NexthopObject;
import io.periscope.plan.routing.Route;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What the kernel moves when a member leaves a multipath route or a plain nexthop group: both pick a
 * path by hash-threshold. The 31-bit flow hash space is cut into consecutive ranges, one per
 * nexthop in order, each ending at {@code round((w_1 + ... + w_i) * 2^31 / total) - 1}
 * ({@code fib_rebalance} in net/ipv4/fib_semantics.c, {@code nh_group_rebalance} in
 * net/ipv4/nexthop.c); a flow takes the first nexthop whose range end is not below its hash. Taking
 * a member out recuts the space among the others, so a surviving flow moves when its hash falls in
 * a different member's range after the cut. Which ones, and how many, depends on where the member
 * stood: with three equal members, removing the first or the last moves a quarter of the surviving
 * flows, removing the middle one none. A resilient group moves none: only the removed member's
 * buckets are given away.
 */
public final class HashThreshold {

    private static final long SPACE = 1L << 31;

    private HashThreshold() {
    }

    /**
     * The fraction of the surviving members' hash space that changes member when member
     * {@code removed} of {@code weights} leaves.
     */
    public static double movedFraction(List<Integer> weights, int removed) {
        long[] before = upperBounds(weights);
        List<Integer> left = new ArrayList<>(weights);
        left.remove(removed);
        long[] after = upperBounds(left);
        long surviving = 0;
        long moved = 0;
        for (int i = 0, j = 0; i < weights.size(); i++) {
            if (i == removed) {
                continue;
            }
            long from = i == 0 ? 0 : before[i - 1] + 1;
            long to = before[i];
            long newFrom = j == 0 ? 0 : after[j - 1] + 1;
            long newTo = after[j];
            long kept = Math.max(0, Math.min(to, newTo) - Math.max(from, newFrom) + 1);
            surviving += to - from + 1;
            moved += to - from + 1 - kept;
            j++;
        }
        return surviving == 0 ? 0 : (double) moved / surviving;
    }

    /** Each member's range end, as the kernel computes it. */
    static long[] upperBounds(List<Integer> weights) {
        long total = weights.stream().mapToLong(Integer::longValue).sum();
        long[] bounds = new long[weights.size()];
        long w = 0;
        for (int i = 0; i < weights.size(); i++) {
            w += weights.get(i);
            // DIV_ROUND_CLOSEST_ULL(w << 31, total) - 1
            bounds[i] = (w * SPACE + total / 2) / total - 1;
        }
        return bounds;
    }

    /**
     * What the kernel is expected to move on {@code host} when {@code failedGateway} ({@code cluster/node})
     * leaves the route or group that spreads the node's traffic over the gateways it belongs to: the
     * first route of the node's plan with the gateway among several choices.
     *
     * @return empty when no route of the node chooses between the failed gateway and others
     */
    public static Optional<Expectation> of(ClusterSetPlan plan, HostId host, String failedGateway) {
        DataplanePlan submariner = plan.host(host).orElseThrow().submariner();
        Function<Ipv4Address, String> names = HealthTargets.gatewayNames(plan);
        Map<Integer, NexthopObject> objects = submariner.nexthops().stream().collect(Collectors.toMap(NexthopObject::id, Function.identity()));
        for (Route route : submariner.routes()) {
            List<Ipv4Address> members = new ArrayList<>();
            List<Integer> weights = new ArrayList<>();
            boolean resilient = false;
            if (route.multipath()) {
                for (Nexthop nexthop : route.nexthops()) {
                    nexthop.via().ifPresent(members::add);
                    weights.add(nexthop.weight());
                }
            } else if (route.nexthopId().isPresent()) {
                Optional<NexthopGroup> group = submariner.nexthopGroups().stream().filter(g -> g.id() == route.nexthopId().getAsInt()).findFirst();
                if (group.isEmpty() || group.get().members().size() < 2) {
                    continue;
                }
                resilient = group.get().resilient();
                for (NexthopGroup.Member member : group.get().members()) {
                    members.add(objects.get(member.nexthopId()).via());
                    weights.add(member.weight());
                }
            }
            List<String> gateways = members.stream().map(a -> Optional.ofNullable(names.apply(a)).orElse(a.toString())).toList();
            int index = gateways.indexOf(failedGateway);
            if (index >= 0 && gateways.size() > 1) {
                return Optional.of(new Expectation(gateways, index, resilient, resilient ? 0 : movedFraction(weights, index)));
            }
        }
        return Optional.empty();
    }

    /**
     * @param gateways the route's or group's members in the kernel's order
     * @param removed  the failed gateway's place among them
     * @param resilient whether they form a resilient group
     * @param movedFraction the expected fraction of the surviving flows that change gateway
     */
    public record Expectation(List<String> gateways, int removed, boolean resilient, double movedFraction) {
    }
}
