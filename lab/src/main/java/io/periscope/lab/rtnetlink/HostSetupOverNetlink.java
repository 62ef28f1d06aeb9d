package io.periscope.lab.rtnetlink;

import io.periscope.lab.layout.HostStep;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

/**
 * Sets up a host namespace from a thread standing inside it ({@code NamespaceWorkers}) with
 * rtnetlink requests instead of an {@code ip -batch} program: a pod's few steps (loopback, an
 * address, a link, a route or two) cost less than the program's start, which on a machine where a
 * process starts in 4 ms made {@code ip} most of bringing up thousands of pods. The requests are the
 * ones {@code ip} sends for the same lines ({@link RtnetlinkRequests}); hosts with anything else (a
 * bridge, nexthop objects, multipath routes, policy rules: the nodes) keep {@code ip -batch}.
 */
public final class HostSetupOverNetlink {

    private HostSetupOverNetlink() {
    }

    /** Whether every step is one this class sends: links up, addresses, routes of at most one nexthop without a nexthop object. */
    public static boolean writes(List<HostStep> steps) {
        return steps.stream().allMatch(step -> switch (step) {
            case HostStep.LinkUp ignored -> true;
            case HostStep.AddressAdd ignored -> true;
            case HostStep.RouteAppend append -> RtnetlinkRequests.writable(append.route());
            case HostStep.BridgeAdd ignored -> false;
            case HostStep.NexthopAdd ignored -> false;
            case HostStep.GroupAdd ignored -> false;
            case HostStep.RuleAdd ignored -> false;
        });
    }

    /**
     * Sends the steps in order into the calling thread's network namespace, stopping at the first the
     * kernel refuses.
     *
     * @throws IllegalArgumentException when {@link #writes} is false for them
     * @throws RtnetlinkException       when the kernel refuses a step or names no such interface, with the step in {@code ip}'s words
     */
    public static void write(List<HostStep> steps) {
        if (!writes(steps)) {
            throw new IllegalArgumentException("steps that need ip -batch: " + steps);
        }
        Map<String, Integer> indexes = new HashMap<>();
        try (RtnetlinkSocket socket = RtnetlinkSocket.open()) {
            for (HostStep step : steps) {
                byte[] request = switch (step) {
                    case HostStep.LinkUp up -> RtnetlinkRequests.linkUp(socket.nextSequence(), index(indexes, up.device(), step),
                            up.setsMtu() ? OptionalInt.of(up.mtu()) : OptionalInt.empty());
                    case HostStep.AddressAdd add -> RtnetlinkRequests.addressAdd(socket.nextSequence(), index(indexes, add.device(), step),
                            add.address());
                    case HostStep.RouteAppend append -> RtnetlinkRequests.routeAppend(socket.nextSequence(), append.route(),
                            append.route().nexthops().isEmpty() ? 0 : index(indexes, append.route().nexthops().getFirst().device(), step));
                    default -> throw new IllegalStateException("writes() above refuses " + step);
                };
                socket.request(request, step.ipBatchLine());
            }
        }
    }

    private static int index(Map<String, Integer> indexes, String device, HostStep step) {
        return indexes.computeIfAbsent(device, name -> {
            int index = RtnetlinkCalls.if_nametoindex(name);
            if (index == 0) {
                throw new RtnetlinkException("Cannot find device \"" + name + "\" (" + step.ipBatchLine() + ")");
            }
            return index;
        });
    }
}
