package io.periscope.lab.bench;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The simulator's prediction of the gateways each bench stream takes, for the stream's own 5-tuple
 * ({@link BenchSimulation}): its local (egress) gateway and its remote (ingress) gateway. Each node
 * chooses as the kernel does (the multipath hash under the seed {@code lab up} gave the node), as
 * {@code lab failover}'s prediction does ({@link io.periscope.lab.failover.FailoverPrediction}), with one exception that TCP
 * makes: with L4 hashing ({@code fib_multipath_hash_policy=1}) Linux takes a packet's own flow hash
 * when it carries one instead of hashing its 5-tuple, and every packet of a TCP socket carries the
 * socket's random hash. It travels with the packet through the pod's veth to its node (on a real
 * node as in the lab), so the first choice the source's node (or a node's own socket) makes is a
 * throw of the socket's dice: each nexthop with the chance of its weight. Once the packet has crossed
 * a wire between machines the hash is gone (the lab's switches forget it, see
 * {@link io.periscope.lab.wire.HashResetProgram}) and every later choice is the 5-tuple's again. So a
 * stream from a pod on a worker has as many predicted routes as the worker has gateways to choose
 * from, each with its remote gateway exactly predicted; under L3 hashing, or from a pod on a
 * gateway node with a single way out, one.
 */
public final class BenchPrediction {

    /** The sysctl that says whether a node hashes L4 with a packet's own hash first ({@code 1}). */
    public static final String MULTIPATH_HASH_POLICY = "net.ipv4.fib_multipath_hash_policy";

    /**
     * One way a stream can go.
     *
     * @param local       its gateway in the client's cluster; empty when it crossed none
     * @param remote      its gateway in the server's cluster; empty when it crossed none
     * @param probability its chance: 1 when every choice on the way is the 5-tuple's
     * @param delivered   whether the simulator delivers it this way
     */
    public record Route(Optional<String> local, Optional<String> remote, double probability, boolean delivered) {

        public String describe() {
            return local.orElse("none") + " > " + remote.orElse("none");
        }
    }

    /**
     * A stream's predicted routes, one when every choice is the 5-tuple's.
     *
     * @param socketHashedAt the node whose choice follows the client socket's own random hash, when one chooses
     */
    public record PredictedStream(int id, List<Route> routes, Optional<String> socketHashedAt) {

        public PredictedStream {
            routes = List.copyOf(routes);
        }

        /** The chance that the stream's local gateway is {@code gateway}. */
        public double localChance(String gateway) {
            return routes.stream().filter(r -> r.local().filter(gateway::equals).isPresent()).mapToDouble(Route::probability).sum();
        }

        /** The chance that the stream's remote gateway is {@code gateway}. */
        public double remoteChance(String gateway) {
            return routes.stream().filter(r -> r.remote().filter(gateway::equals).isPresent()).mapToDouble(Route::probability).sum();
        }

        /**
         * Whether what was measured is one of the predicted routes, by the main gateways (those that
         * carried most of the stream's forward bytes): the main local gateway is a predicted one, and
         * the main remote gateway is predicted after it or after another local gateway the stream
         * crossed (a socket picks a new hash after a retransmission timeout, and the stream moves
         * with its remote gateway; the two sides' bytes may then favour different legs).
         */
        public boolean allows(GatewayPassage measured) {
            Optional<String> local = measured.mainLocal();
            Optional<String> remote = measured.mainRemote();
            if (routes.stream().noneMatch(r -> r.local().equals(local))) {
                return false;
            }
            Set<Optional<String>> locals = new HashSet<>();
            locals.add(local);
            measured.local().forEach(g -> locals.add(Optional.of(g)));
            return routes.stream().anyMatch(r -> locals.contains(r.local()) && r.remote().equals(remote));
        }

        public String describe() {
            if (routes.size() == 1) {
                return routes.getFirst().describe();
            }
            return String.join(" or ", routes.stream().map(Route::describe).toList());
        }
    }

    private BenchPrediction() {
    }
}
