package io.periscope.lab.ovn;

import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.dataplane.ovn.NbctlNorthbound;
import io.periscope.dataplane.ovn.NorthboundProgrammer;
import io.periscope.dataplane.ovn.NorthboundScope;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.HostPlan;
import io.periscope.plan.Interface;
import io.periscope.plan.ovn.LogicalRouter;
import io.periscope.plan.ovn.LogicalSwitch;
import io.periscope.plan.ovn.OvnTopology;
import io.periscope.plan.ovn.RouterPort;
import io.periscope.simulator.ovn.LogicalRouterPipeline;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.Packet;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One private OVN per OVN-Kubernetes cluster of a plan, programmed by {@link NorthboundProgrammer}
 * (OVN-Kubernetes' part, as a stand-in for it, then Submariner's part, as the network plugin syncer
 * does), and the comparison of what the simulator's logical routers decided on a path with what
 * {@code ovn-trace} says real OVN decides for the same packet.
 */
final class RealOvnClusters implements AutoCloseable {

    /** What one router decided, in a form both sides can give. */
    record Decision(String router, String in, String out, String nexthop, boolean byPolicy, String loadBalanced) {
        @Override
        public String toString() {
            return router + " in " + in + " out " + out + " nexthop " + nexthop + (byPolicy ? " (policy)" : " (routing)")
                    + (loadBalanced.isEmpty() ? "" : " load-balanced to " + loadBalanced);
        }
    }

    /** One run of consecutive logical routers on a path, with both sides' decisions. */
    record Comparison(String cluster, String microflow, List<Decision> simulator, List<Decision> ovn, String trace) {
        boolean agrees() {
            return simulator.equals(ovn);
        }

        @Override
        public String toString() {
            return cluster + ": " + microflow + "\n  simulator: " + simulator + "\n  real OVN:  " + ovn;
        }
    }

    private final ClusterSetPlan plan;
    private final Map<String, OvnSandbox> sandboxes = new LinkedHashMap<>();

    RealOvnClusters(ClusterSetPlan plan, Path directory) throws Exception {
        this.plan = plan;
        try {
            for (OvnTopology topology : plan.ovn()) {
                OvnSandbox sandbox = OvnSandbox.start(Files.createDirectories(directory.resolve(topology.cluster())));
                sandboxes.put(topology.cluster(), sandbox);
                NbctlNorthbound northbound = new NbctlNorthbound(ProcessCommandRunner.here(), sandbox.northbound());
                new NorthboundProgrammer(northbound, NorthboundScope.OVN_KUBERNETES).program(topology);
                new NorthboundProgrammer(northbound, NorthboundScope.SUBMARINER).program(topology);
                sandbox.sync();
                bindHostMacs(topology, sandbox);
            }
        } catch (Exception e) {
            close();
            throw e;
        }
    }

    OvnSandbox sandbox(String cluster) {
        return sandboxes.get(cluster);
    }

    /**
     * Hosts on a logical switch that OVN knows no port address of (a node's ovn-k8s-sub0 behind the
     * localnet port) get a southbound MAC binding, as ovn-controller would learn by ARP.
     */
    private void bindHostMacs(OvnTopology topology, OvnSandbox sandbox) {
        for (LogicalRouter router : topology.routers()) {
            for (RouterPort port : router.ports()) {
                LogicalSwitch sw = topology.logicalSwitch(port.logicalSwitch()).orElseThrow();
                if (sw.ports().stream().noneMatch(p -> p.kind() == LogicalSwitch.Kind.LOCALNET)) {
                    continue;
                }
                String segment = OvnTopology.segmentName(topology.cluster(), sw.name());
                for (HostPlan host : plan.hosts().values()) {
                    for (Interface iface : host.interfaces()) {
                        if (iface.segment().equals(segment)) {
                            iface.addresses().stream().filter(a -> port.network().contains(a) && !a.equals(port.address()))
                                    .forEach(a -> sandbox.bindMac(port.name(), a.toString(), iface.mac().toString()));
                        }
                    }
                }
            }
        }
    }

    /** Every run of logical routers on every path of the trace, forward and reply, compared. */
    List<Comparison> compare(FlowTrace trace) {
        List<Comparison> comparisons = new ArrayList<>();
        for (PathTrace path : trace.paths()) {
            comparisons.addAll(compare(path.forward()));
            comparisons.addAll(compare(path.reply()));
        }
        return comparisons;
    }

    private List<Comparison> compare(List<Hop> hops) {
        List<Comparison> comparisons = new ArrayList<>();
        for (int i = 1; i < hops.size(); i++) {
            if (!isRouter(hops.get(i)) || isRouter(hops.get(i - 1))) {
                continue;
            }
            int end = i;
            while (end < hops.size() && isRouter(hops.get(end)) && hops.get(end).node().cluster().equals(hops.get(i).node().cluster())) {
                end++;
            }
            comparisons.add(compare(hops.get(i - 1), hops.subList(i, end)));
        }
        return comparisons;
    }

    private boolean isRouter(Hop hop) {
        return plan.ovn(hop.node().cluster()).flatMap(t -> t.router(hop.node().name())).isPresent();
    }

    private Comparison compare(Hop sender, List<Hop> run) {
        String cluster = run.getFirst().node().cluster();
        OvnTopology topology = plan.ovn(cluster).orElseThrow();
        Hop first = run.getFirst();
        RouterPort inPort = topology.router(first.node().name()).orElseThrow().port(first.in().orElseThrow()).orElseThrow();
        LogicalSwitch sw = topology.logicalSwitch(inPort.logicalSwitch()).orElseThrow();
        String attaches = sender.node() + " " + sender.out().orElseThrow();
        LogicalSwitch.SwitchPort from = sw.ports().stream().filter(p -> p.attaches().equals(attaches)).findFirst()
                .orElseThrow(() -> new AssertionError("no port of logical switch " + sw.name() + " attaches " + attaches));
        String senderMac = from.mac().map(Object::toString).orElseGet(() -> plan.host(sender.node()).orElseThrow().interfaces().stream()
                .filter(f -> f.name().equals(sender.out().orElseThrow())).findFirst().orElseThrow().mac().toString());
        String microflow = microflow(from.name(), senderMac, inPort.mac().toString(), first.arrive());
        String text = sandboxes.get(cluster).trace(sw.name(), microflow);
        Set<String> routers = topology.routers().stream().map(LogicalRouter::name).collect(Collectors.toSet());
        List<Decision> ovn = OvnTraceText.routerVisits(text, routers).stream().map(v -> new Decision(v.router(), v.in(), v.out().orElse("(none)"),
                v.nexthop().orElse("(none)"), v.byPolicy(), v.backends().orElse(""))).toList();
        List<Decision> simulator = new ArrayList<>();
        for (Hop hop : run) {
            simulator.add(decision(hop, ovn.stream().filter(d -> d.router().equals(hop.node().name())).findFirst()));
        }
        return new Comparison(cluster, microflow, simulator, ovn, text);
    }

    /**
     * The simulator's decision at a router hop. Its load balancer picks one backend per connection
     * where ovn-trace lists them all: when the simulator's backend is among OVN's, OVN's list stands.
     */
    private static Decision decision(Hop hop, Optional<Decision> real) {
        Step.Route route = hop.steps().stream().filter(Step.Route.class::isInstance).map(Step.Route.class::cast).reduce((a, b) -> b).orElse(null);
        String nexthop = route == null ? "(none)" : route.table().equals(LogicalRouterPipeline.CONNECTED) ? "ip4.dst"
                : route.via().map(Object::toString).orElse("(none)");
        String balanced = hop.steps().stream().filter(s -> s instanceof Step.Dnat d && d.rule().map(r -> r.table().equals("ovn")).orElse(false))
                .map(s -> ((Step.Dnat) s).packet()).map(p -> p.dst() + ":" + p.dport()).findFirst().orElse("");
        if (!balanced.isEmpty() && real.isPresent() && List.of(real.get().loadBalanced().split(",")).contains(balanced)) {
            balanced = real.get().loadBalanced();
        }
        return new Decision(hop.node().name(), hop.in().orElse("(none)"), hop.out().orElse("(none)"), nexthop,
                route != null && route.table().equals(LogicalRouterPipeline.POLICY), balanced);
    }

    static String microflow(String inport, String ethSrc, String ethDst, Packet packet) {
        String l4 = switch (packet.protocol()) {
            case TCP, UDP -> packet.protocol().lowerName() + " && " + packet.protocol().lowerName() + ".src == " + packet.sport() + " && "
                    + packet.protocol().lowerName() + ".dst == " + packet.dport();
            case ICMP -> "icmp4 && icmp4.type == 8";
            case ESP -> "ip.proto == 50";
        };
        return "inport == \"" + inport + "\" && eth.src == " + ethSrc + " && eth.dst == " + ethDst + " && ip4.src == " + packet.src()
                + " && ip4.dst == " + packet.dst() + " && ip.ttl == " + packet.ttl() + " && " + l4;
    }

    @Override
    public void close() {
        sandboxes.values().forEach(OvnSandbox::close);
    }
}
