package io.periscope.simulator;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Range;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.link.MacAddress;
import io.periscope.plan.netfilter.CtState;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.plan.routing.PolicyRule;
import io.periscope.simulator.engine.Dataplane;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;

import static io.periscope.simulator.PlanFixture.ip;
import static io.periscope.simulator.PlanFixture.net;
import static io.periscope.simulator.TraceQueries.delivered;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Generated cluster sets in the planner's wiring: 1-3 clusters of 1-3 nodes, one or two gateways
 * each, VXLAN between gateways (multipath when the peer has two), nodes reaching their gateways
 * over the underlay or over vx-submariner (by ARP over all-zero FDB entries), optional SNAT on
 * gateways with per-gateway return routes, optional kube-proxy services, optional multi-active-gateway
 * SNAT of DNATed traffic. Whatever the dice say, traces must be consistent.
 */
class RandomPlansKeepTheirInvariants {

    static IntStream seeds() {
        return IntStream.range(0, 40);
    }

    /** {@code mustDeliver}: flows that need no conntrack luck, so every one of their paths must get through. */
    private record Generated(ClusterSetPlan plan, List<ResolvedFlow> flows, Set<ResolvedFlow> mustDeliver) {
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void everyDeliveredReplyReachesTheSenderWithAddressesSwappedAndNoPathLoops(int seed) {
        Generated generated = generate(new Random(seed));
        Simulator simulator = new Simulator(generated.plan());
        for (ResolvedFlow flow : generated.flows()) {
            List<PathTrace> paths = simulator.trace(flow);
            assertThat(paths).as("paths of %s", flow).isNotEmpty();
            for (PathTrace path : paths) {
                check(flow, path);
            }
            if (generated.mustDeliver().contains(flow)) {
                assertThat(paths).as("pod-to-pod %s", flow)
                        .allSatisfy(p -> assertThat(p.disposition()).as("%s", p.reason()).isEqualTo(Disposition.DELIVERED));
            }
        }
    }

    private static void check(ResolvedFlow flow, PathTrace path) {
        assertThat(path.reason()).as("%s", flow).satisfies(r -> r.ifPresent(text -> assertThat(text).doesNotContain("routing loop")));
        assertThat(path.forward()).hasSizeLessThanOrEqualTo(Dataplane.MAX_HOPS + 1);
        assertThat(path.reply()).hasSizeLessThanOrEqualTo(Dataplane.MAX_HOPS + 1);
        assertThat(path.forward().getFirst().node()).isEqualTo(flow.source());
        for (List<Hop> hops : List.of(path.forward(), path.reply())) {
            for (int i = 0; i < hops.size(); i++) {
                assertThat(hops.get(i).steps()).isNotEmpty();
                assertThat(hops.get(i).depart().isPresent()).isEqualTo(i < hops.size() - 1);
            }
        }
        if (path.disposition() != Disposition.DELIVERED) {
            assertThat(path.reason()).isPresent();
            return;
        }
        assertThat(path.reply()).as("reply of %s", flow).isNotEmpty();
        assertThat(path.reply().getFirst().node()).isEqualTo(path.forward().getLast().node());
        assertThat(path.reply().getLast().node()).isEqualTo(flow.source());
        var sent = path.forward().getFirst().arrive();
        var received = delivered(path.reply());
        assertThat(received.src()).isEqualTo(flow.destination());
        assertThat(received.dst()).isEqualTo(sent.src());
        assertThat(received.sport()).isEqualTo(flow.port());
        assertThat(received.dport()).isEqualTo(flow.sourcePort());
        assertThat(path.reply().getLast().steps().getLast()).isInstanceOf(Step.Deliver.class);
    }

    private static Generated generate(Random random) {
        PlanFixture f = new PlanFixture();
        int clusters = 1 + random.nextInt(3);
        List<List<PlanFixture.HostBuilder>> nodes = new ArrayList<>();
        List<List<PlanFixture.HostBuilder>> pods = new ArrayList<>();
        List<Integer> gatewayCounts = new ArrayList<>();
        List<Boolean> snat = new ArrayList<>();
        List<Ipv4Address> podAddresses = new ArrayList<>();
        java.util.Map<Ipv4Address, Integer> podCluster = new java.util.HashMap<>();
        List<Ipv4Address> services = new ArrayList<>();
        for (int k = 0; k < clusters; k++) {
            String cluster = "c" + k;
            int count = 1 + random.nextInt(3);
            int gateways = count > 1 ? 1 + random.nextInt(2) : 1;
            gatewayCounts.add(gateways);
            snat.add(random.nextBoolean());
            List<PlanFixture.HostBuilder> clusterNodes = new ArrayList<>();
            List<PlanFixture.HostBuilder> clusterPods = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                String nodeIp = "172." + (18 + k) + ".0." + (i + 1);
                String cniIp = "10." + k + "." + (i + 1) + ".1";
                PlanFixture.HostBuilder node = i < gateways
                        ? f.gateway(cluster, "n" + i, nodeIp, cniIp, "203.0.113." + (k * 16 + i + 1))
                        : f.node(cluster, "n" + i, nodeIp, cniIp);
                node.vxlan("vx-submariner", 100, 4800, nodeIp, "eth0", "240." + k + ".0." + (i + 1), "240.0.0.0/8");
                if (i < gateways) {
                    node.vxlan("vxlan-tunnel", 1000, 4500, "203.0.113." + (k * 16 + i + 1), "wan0", "241." + k + ".0." + (i + 1),
                            "241.0.0.0/8").rule(PolicyRule.lookup(100, 100));
                }
                clusterNodes.add(node);
                int podCount = 1 + random.nextInt(2);
                for (int j = 0; j < podCount; j++) {
                    String podIp = "10." + k + "." + (i + 1) + "." + (4 + j);
                    clusterPods.add(f.pod(node, "default", "p" + i + "-" + j, podIp));
                    podAddresses.add(ip(podIp));
                    podCluster.put(ip(podIp), k);
                }
            }
            for (PlanFixture.HostBuilder node : clusterNodes) {
                for (PlanFixture.HostBuilder other : clusterNodes) {
                    if (other != node) {
                        node.route(other.nodeIp + " dev eth0")
                                .route("10." + k + "." + (clusterNodes.indexOf(other) + 1) + ".0/24 via " + other.nodeIp + " dev eth0");
                    }
                }
            }
            nodes.add(clusterNodes);
            pods.add(clusterPods);
            if (random.nextBoolean()) {
                Ipv4Address vip = ip("10.96." + k + ".10");
                services.add(vip);
                kubeProxy(random, clusterNodes, clusterPods, vip);
            }
        }
        for (int k = 0; k < clusters; k++) {
            wireGateways(random, f, k, nodes, gatewayCounts, snat, clusters);
        }
        List<ResolvedFlow> flows = new ArrayList<>();
        Set<ResolvedFlow> mustDeliver = new java.util.HashSet<>();
        List<Ipv4Address> destinations = new ArrayList<>(podAddresses);
        destinations.addAll(services);
        for (int n = 0; n < 6; n++) {
            int k = random.nextInt(clusters);
            Ipv4Address destination = destinations.get(random.nextInt(destinations.size()));
            ResolvedFlow flow;
            if (random.nextInt(4) == 0) {
                PlanFixture.HostBuilder node = nodes.get(k).get(random.nextInt(nodes.get(k).size()));
                flow = new ResolvedFlow(node.id, Optional.empty(), destination, 80, Protocol.TCP);
            } else {
                PlanFixture.HostBuilder pod = pods.get(k).get(random.nextInt(pods.get(k).size()));
                flow = new ResolvedFlow(pod.id, Optional.of(pod.interfaces.getFirst().addresses().getFirst()), destination, 80,
                        random.nextBoolean() ? Protocol.TCP : Protocol.UDP, 40000 + n);
            }
            flows.add(flow);
            // A reply leaving a cluster by another gateway than its request came in by is NEW there,
            // and that gateway's SNAT would then translate it: only such flows may fail.
            Integer target = podCluster.get(destination);
            if (target != null && (target == k || !snat.get(target) || gatewayCounts.get(target) == 1)) {
                mustDeliver.add(flow);
            }
        }
        return new Generated(f.build(), flows, mustDeliver);
    }

    /** kube-proxy's service chains on every node of the cluster, with 1-3 endpoints. */
    private static void kubeProxy(Random random, List<PlanFixture.HostBuilder> nodes, List<PlanFixture.HostBuilder> pods, Ipv4Address vip) {
        int endpoints = 1 + random.nextInt(Math.min(3, pods.size()));
        for (PlanFixture.HostBuilder node : nodes) {
            Rule toService = Rule.of(new Target.Jump("KUBE-SVC"), new Match.Destination(net(vip + "/32")),
                    new Match.ProtocolIs(Protocol.TCP), new Match.DestinationPort(80));
            node.append(Table.NAT, "PREROUTING", Rule.of(new Target.Jump("KUBE-SERVICES")))
                    .append(Table.NAT, "OUTPUT", Rule.of(new Target.Jump("KUBE-SERVICES")))
                    .append(Table.NAT, "KUBE-SERVICES", toService)
                    .route(vip + " via " + node.nodeIp + " dev eth0");
            for (int e = 0; e < endpoints; e++) {
                String sep = "KUBE-SEP-" + e;
                Rule jump = e == endpoints - 1 ? Rule.of(new Target.Jump(sep))
                        : Rule.of(new Target.Jump(sep), new Match.RandomProbability(1.0 / (endpoints - e)));
                node.append(Table.NAT, "KUBE-SVC", jump).append(Table.NAT, sep, Rule.of(
                        new Target.Dnat(pods.get(e).interfaces.getFirst().addresses().getFirst(), OptionalInt.of(80)),
                        new Match.ProtocolIs(Protocol.TCP)));
            }
        }
    }

    private static void wireGateways(Random random, PlanFixture f, int k, List<List<PlanFixture.HostBuilder>> nodes,
                                     List<Integer> gatewayCounts, List<Boolean> snat, int clusters) {
        List<PlanFixture.HostBuilder> own = nodes.get(k);
        int gateways = gatewayCounts.get(k);
        boolean magSnat = random.nextBoolean();
        for (int g = 0; g < gateways; g++) {
            PlanFixture.HostBuilder gateway = own.get(g);
            if (snat.get(k)) {
                gateway.append(Table.NAT, "POSTROUTING", Rule.of(new Target.Snat(snatRange(k, g)),
                        new Match.Source(net("10." + k + ".0.0/16")), new Match.OutInterface("vxlan-tunnel")));
            }
            if (magSnat) {
                // Seed 004 step 3b, with the input device carried by a mark: POSTROUTING has no -i.
                gateway.append(Table.MANGLE, "PREROUTING", Rule.of(new Target.SetMark(0x100000, 0x100000),
                                new Match.InInterface("vxlan-tunnel")))
                        .append(Table.NAT, "POSTROUTING", Rule.of(new Target.Snat(Ipv4Range.single(gateway.cniIp)),
                                new Match.OutInterface("eth0"), new Match.MarkIs(0x100000, 0x100000, false),
                                new Match.ConnState(Set.of(CtState.DNAT), false)));
            }
        }
        for (int r = 0; r < clusters; r++) {
            if (r == k) {
                continue;
            }
            List<PlanFixture.HostBuilder> remote = nodes.get(r);
            int remoteGateways = gatewayCounts.get(r);
            List<String> remoteSubnets = new ArrayList<>(List.of("10." + r + ".0.0/16", "10.96." + r + ".0/24"));
            if (snat.get(r)) {
                remoteSubnets.add("100.64." + r + ".0/24");
            }
            for (int g = 0; g < gateways; g++) {
                PlanFixture.HostBuilder gateway = own.get(g);
                StringBuilder nexthops = new StringBuilder();
                for (int rg = 0; rg < remoteGateways; rg++) {
                    PlanFixture.HostBuilder peer = remote.get(rg);
                    String peerWan = peer.interfaces.stream().filter(i -> i.name().equals("wan0")).findFirst().orElseThrow()
                            .addresses().getFirst().toString();
                    String peerTunnel = "241." + r + ".0." + (rg + 1);
                    gateway.route(peerWan + " dev wan0")
                            .fdb("vxlan-tunnel", MacAddress.ZERO, peerWan);
                    nexthops.append(" nexthop via ").append(peerTunnel).append(" dev vxlan-tunnel");
                    if (snat.get(r)) {
                        // Replies to a remote gateway's SNAT addresses go back to that gateway.
                        Ipv4Range range = snatRange(r, rg);
                        gateway.route("table 100 " + range.first().plus(-1) + "/29 via " + peerTunnel + " dev vxlan-tunnel metric 98");
                    }
                }
                for (String subnet : remoteSubnets) {
                    gateway.route("table 100 " + subnet + " src " + gateway.cniIp + " metric 100" + nexthops);
                }
            }
            for (int i = gateways; i < own.size(); i++) {
                PlanFixture.HostBuilder node = own.get(i);
                StringBuilder nexthops = new StringBuilder();
                for (int g = 0; g < gateways; g++) {
                    nexthops.append(" nexthop via 240.").append(k).append(".0.").append(g + 1).append(" dev vx-submariner");
                }
                for (String subnet : remoteSubnets) {
                    // As Submariner does: the node's CNI address as source, which remote clusters route back.
                    node.route(subnet + " src " + node.cniIp + nexthops);
                }
            }
        }
        for (int i = gateways; i < own.size(); i++) {
            PlanFixture.HostBuilder node = own.get(i);
            for (int g = 0; g < gateways; g++) {
                PlanFixture.HostBuilder gateway = own.get(g);
                node.fdb("vx-submariner", MacAddress.ZERO, gateway.nodeIp.toString());
            }
        }
    }

    private static Ipv4Range snatRange(int cluster, int gateway) {
        Ipv4Address first = ip("100.64." + cluster + "." + (gateway * 8 + 1));
        return new Ipv4Range(first, first.plus(7));
    }
}
