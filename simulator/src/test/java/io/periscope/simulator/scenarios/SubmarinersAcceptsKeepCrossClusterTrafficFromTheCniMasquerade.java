package io.periscope.simulator.scenarios;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.CniMasquerade;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.NodeEnvironment;
import io.periscope.model.topology.Protocol;
import io.periscope.model.topology.RpFilter;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.HostId;
import io.periscope.plan.HostPlan;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.planner.Planner;
import io.periscope.simulator.Simulator;
import io.periscope.simulator.trace.FlowTrace;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.PathTrace;
import io.periscope.simulator.trace.Step;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A CNI that masquerades pod traffic leaving the pod network ({@code cniMasquerade:
 * outside-pod-cidrs}: flannel, kindnet, Calico with natOutgoing) would give every cross-cluster
 * connection its node's address. The route agent's ACCEPTs in nat SUBMARINER-POSTROUTING, which
 * POSTROUTING enters before the CNI's chain, end the nat table for traffic between local pods and
 * the remote CIDRs (with Globalnet, the remote global CIDRs), both ways, so the CNI never sees it.
 * The trace shows the ACCEPT where it matters and no translation from CNI-MASQUERADE; take the
 * ACCEPTs away, or send to a destination they do not cover, and the CNI's MASQUERADE rewrites the
 * source, a {@code snat} step of CNI-MASQUERADE. {@code CniMasqueradeAgreesWithTheKernel} (lab)
 * sends the same flows through real kernels.
 */
class SubmarinersAcceptsKeepCrossClusterTrafficFromTheCniMasquerade {

    static final String CNI_MASQUERADE = "CNI-MASQUERADE";
    static final String SUBMARINER_POSTROUTING = "SUBMARINER-POSTROUTING";

    /** Every cluster of the example with a masquerading CNI (reverse-path filtering off). */
    static ClusterSet masquerading(String example, CniMasquerade masquerade) throws Exception {
        ClusterSet set = DocumentedSteps.load(example);
        List<Cluster> clusters = new ArrayList<>();
        for (Cluster c : set.clusters()) {
            clusters.add(new Cluster(c.name(), c.labels(), c.podCidrs(), c.serviceCidrs(), c.globalCidr(), c.cni(), c.multiActiveGateways(),
                    c.clusterEgressIPs(), c.loadBalancing(), c.nodes(), c.pods(), c.services(), c.exports(), c.globalEgressIPs(),
                    new NodeEnvironment(RpFilter.OFF, masquerade), c.egressOwnership()));
        }
        return set.withClusters(clusters);
    }

    static Flow tcp(String name, String from, FlowTarget to) {
        String[] source = from.split("/");
        return new Flow(name, new FlowSource.PodSource(source[0], source[1], source[2]), to, Protocol.TCP, Optional.empty());
    }

    private static Stream<Step> steps(PathTrace path) {
        return Stream.concat(path.forward().stream(), path.reply().stream()).flatMap(h -> h.steps().stream());
    }

    private static boolean fromChain(Step step, String chain) {
        return switch (step) {
            case Step.Snat s -> s.rule().filter(r -> r.chain().equals(chain)).isPresent();
            case Step.Filter f -> f.rule().chain().equals(chain);
            default -> false;
        };
    }

    private static Hop hop(List<Hop> hops, String node) {
        return hops.stream().filter(h -> h.node().toString().equals(node)).findFirst()
                .orElseThrow(() -> new AssertionError("no hop on " + node + " among " + hops.stream().map(Hop::node).toList()));
    }

    /** The nat ACCEPT of SUBMARINER-POSTROUTING the hop's packet met, as its rule reads. */
    private static List<String> accepts(Hop hop) {
        return hop.steps().stream().filter(s -> s instanceof Step.Filter f && f.accepted() && f.rule().table().equals("nat")
                && f.rule().chain().equals(SUBMARINER_POSTROUTING)).map(s -> ((Step.Filter) s).rule().rule()).toList();
    }

    private static void noCniMasquerade(FlowTrace trace) {
        assertThat(trace.paths()).isNotEmpty().allSatisfy(path -> {
            assertThat(path.disposition()).as(path.reason().orElse("")).isEqualTo(Disposition.DELIVERED);
            assertThat(steps(path).filter(s -> fromChain(s, CNI_MASQUERADE))).as("steps of CNI-MASQUERADE").isEmpty();
        });
    }

    /** The plan really has the CNI's chain where the test says it spares the traffic. */
    private static void hasTheCniChain(ClusterSetPlan plan, String node) {
        HostPlan host = plan.hosts().get(hostId(node));
        assertThat(host.environment().table(Table.NAT).flatMap(t -> t.chain(CNI_MASQUERADE))).as("CNI-MASQUERADE on " + node).isPresent();
    }

    private static HostId hostId(String node) {
        String[] parts = node.split("/");
        return HostId.node(parts[0], parts[1]);
    }

    // ------------------------------------------------------------------ (i) local pod to a remote pod

    @Test
    void aLocalPodsConnectionToARemotePodIsAcceptedBeforeTheCniCanMasqueradeIt() throws Exception {
        ClusterSet set = masquerading("mag-vanilla.yaml", CniMasquerade.OUTSIDE_POD_CIDRS);
        ClusterSetPlan plan = Planner.plan(set);
        hasTheCniChain(plan, "cluster1/worker-1");
        FlowTrace trace = new Simulator(plan).trace(tcp("client-to-nginx-pod", "cluster1/default/client",
                new FlowTarget.PodTarget("cluster2", "default", "nginx-7d4f", 80)));

        noCniMasquerade(trace);
        assertThat(trace.paths()).allSatisfy(path -> {
            assertThat(accepts(hop(path.forward(), "cluster1/worker-1"))).containsExactly("-s 10.1.0.0/16 -d 10.2.0.0/16 -j ACCEPT");
            // The gateway forwards it into the cable with the same ACCEPT.
            Hop gateway = path.forward().stream().filter(h -> h.out().filter(o -> o.equals("vxlan-tunnel")).isPresent()).findFirst().orElseThrow();
            assertThat(accepts(gateway)).containsExactly("-s 10.1.0.0/16 -d 10.2.0.0/16 -j ACCEPT");
            assertThat(path.forward().getLast().arrive().src()).isEqualTo(Ipv4Address.parse("10.1.128.4"));
        });
    }

    // ------------------------------------------------------------------ (ii) with Globalnet: remote global CIDRs

    @Test
    void withGlobalnetAConnectionToARemoteGlobalAddressIsAcceptedAndOnlyGlobalnetTranslatesIt() throws Exception {
        ClusterSet set = masquerading("globalnet-egress.yaml", CniMasquerade.OUTSIDE_POD_CIDRS);
        ClusterSetPlan plan = Planner.plan(set);
        hasTheCniChain(plan, "east/east-worker");
        FlowTrace trace = new Simulator(plan).trace(set.flow("web-to-nginx").orElseThrow());

        noCniMasquerade(trace);
        assertThat(trace.paths()).allSatisfy(path -> {
            assertThat(accepts(hop(path.forward(), "east/east-worker"))).containsExactly("-s 10.244.0.0/16 -d 242.1.0.0/16 -j ACCEPT");
            List<Step.Snat> snats = path.forward().stream().filter(h -> h.node().cluster().equals("east"))
                    .flatMap(h -> h.steps().stream()).filter(s -> s instanceof Step.Snat).map(s -> (Step.Snat) s).toList();
            assertThat(snats).as("the source cluster's translations").singleElement()
                    .satisfies(snat -> assertThat(snat.rule().orElseThrow().chain()).startsWith("SM-GN-EGRESS"));
        });
    }

    // ------------------------------------------------------------------ (iii) remote CIDRs to local pods

    @Test
    void aRemoteConnectionToALocalPodIsAcceptedOnTheReceivingNodes() throws Exception {
        ClusterSet vanilla = masquerading("mag-vanilla.yaml", CniMasquerade.OUTSIDE_POD_CIDRS);
        FlowTrace direct = new Simulator(Planner.plan(vanilla)).trace(tcp("client-to-nginx-pod", "cluster1/default/client",
                new FlowTarget.PodTarget("cluster2", "default", "nginx-7d4f", 80)));
        noCniMasquerade(direct);
        assertThat(direct.paths()).allSatisfy(path ->
                assertThat(accepts(hop(path.forward(), "cluster2/worker-2"))).containsExactly("-s 10.1.0.0/16 -d 10.2.0.0/16 -j ACCEPT"));

        ClusterSet globalnet = masquerading("globalnet-egress.yaml", CniMasquerade.OUTSIDE_POD_CIDRS);
        hasTheCniChain(Planner.plan(globalnet), "west/west-worker");
        FlowTrace trace = new Simulator(Planner.plan(globalnet)).trace(globalnet.flow("web-to-nginx").orElseThrow());
        noCniMasquerade(trace);
        assertThat(trace.paths()).allSatisfy(path -> {
            // The ingress gateway marked it for kube-proxy's masquerade when it DNATed the service's
            // global address; the ACCEPT keeps KUBE-POSTROUTING from it as from the CNI's chain.
            assertThat(accepts(hop(path.forward(), "west/west-gw"))).containsExactly("-s 242.0.0.0/16 -d 10.244.0.0/16 -j ACCEPT");
            assertThat(accepts(hop(path.forward(), "west/west-worker"))).containsExactly("-s 242.0.0.0/16 -d 10.244.0.0/16 -j ACCEPT");
            assertThat(path.forward().getLast().arrive().src().toString()).startsWith("242.0.");
        });
    }

    // ------------------------------------------------------------------ (iv) where no ACCEPT comes first

    /** The plan with the route agent's nat SUBMARINER-POSTROUTING ACCEPTs left out on the cluster's nodes. */
    static ClusterSetPlan withoutTheAccepts(ClusterSetPlan plan, String cluster) {
        TreeMap<HostId, HostPlan> hosts = new TreeMap<>(plan.hosts());
        for (HostPlan h : plan.hosts().values()) {
            if (!h.id().cluster().equals(cluster) || h.id().isPod()) {
                continue;
            }
            DataplanePlan s = h.submariner();
            List<NetfilterTable> tables = s.netfilter().stream().map(t -> t.table() != Table.NAT ? t : new NetfilterTable(t.table(),
                    t.chains().stream().map(c -> !c.name().equals(SUBMARINER_POSTROUTING) ? c : new Chain(c.name(),
                            c.rules().stream().filter(r -> !(r.target() instanceof Target.Accept)).toList())).toList())).toList();
            hosts.put(h.id(), new HostPlan(h.id(), h.role(), h.node(), h.interfaces(), h.environment(), h.kubeProxy(),
                    new DataplanePlan(tables, s.ipsets(), s.vxlanDevices(), s.fdb(), s.neighbours(), s.nexthops(), s.nexthopGroups(),
                            s.routes(), s.rules(), s.sysctls(), s.wireGuardDevices(), s.ipsecConnections())));
        }
        return new ClusterSetPlan(plan.clusterSet(), plan.endpoints(), hosts, plan.segments(), plan.serviceRecords(), plan.allocations(),
                plan.ovn());
    }

    @Test
    void withoutTheAcceptsTheCniMasqueradesTheConnectionToTheNodesAddress() throws Exception {
        ClusterSet set = masquerading("mag-vanilla.yaml", CniMasquerade.OUTSIDE_POD_CIDRS);
        ClusterSetPlan plan = withoutTheAccepts(Planner.plan(set), "cluster1");
        FlowTrace trace = new Simulator(plan).trace(tcp("client-to-nginx-pod", "cluster1/default/client",
                new FlowTarget.PodTarget("cluster2", "default", "nginx-7d4f", 80)));

        assertThat(trace.paths()).isNotEmpty().allSatisfy(path -> {
            Hop worker = hop(path.forward(), "cluster1/worker-1");
            assertThat(accepts(worker)).isEmpty();
            Step.Snat snat = worker.steps().stream().filter(s -> fromChain(s, CNI_MASQUERADE)).map(s -> (Step.Snat) s).findFirst()
                    .orElseThrow(() -> new AssertionError("no snat of CNI-MASQUERADE on cluster1/worker-1: " + worker.steps()));
            assertThat(snat.rule().orElseThrow().rule()).isEqualTo("-s 10.1.0.0/16 -j MASQUERADE");
            // The address of the device it leaves by, the worker's vx-submariner, not the pod's.
            assertThat(snat.packet().src()).isEqualTo(Ipv4Address.parse("240.18.0.10"));
            assertThat(worker.depart().orElseThrow().src()).isEqualTo(snat.packet().src());
            // The gateway's loose reverse-path filter lets it in: 240.0.0.0/8 is vx-submariner's own network.
            assertThat(path.forward().getLast().node().toString()).isEqualTo("cluster2/default/nginx-7d4f");
            assertThat(path.forward().getLast().arrive().src()).isEqualTo(snat.packet().src());
            // But in the other cluster that address is its own vx-submariner's network, where nobody
            // has it: the answer is lost and the connection with it.
            assertThat(path.disposition()).isNotEqualTo(Disposition.DELIVERED);
            assertThat(path.reason()).hasValueSatisfying(r -> assertThat(r).startsWith("reply: cluster2/worker-2 vx-submariner: ARP for 240.18.0.10"));
        });
    }

    @Test
    void aDestinationNoAcceptCoversIsMasqueradedByTheCniAndOnlyWhereTheCniMasquerades() throws Exception {
        // A node of its own cluster (a kubelet, a host-network server): outside every pod and remote
        // CIDR, so no ACCEPT of Submariner's covers it.
        Flow toANode = tcp("client-to-node", "cluster1/default/client", new FlowTarget.AddressTarget(Ipv4Address.parse("172.18.0.6"), 10250));

        FlowTrace masqueraded = new Simulator(Planner.plan(masquerading("mag-vanilla.yaml", CniMasquerade.OUTSIDE_POD_CIDRS))).trace(toANode);
        FlowTrace routed = new Simulator(Planner.plan(masquerading("mag-vanilla.yaml", CniMasquerade.NONE))).trace(toANode);

        assertThat(masqueraded.paths()).isNotEmpty().allSatisfy(path -> {
            Hop worker = hop(path.forward(), "cluster1/worker-1");
            assertThat(accepts(worker)).isEmpty();
            assertThat(worker.steps()).filteredOn(s -> fromChain(s, CNI_MASQUERADE)).singleElement()
                    .satisfies(s -> assertThat(((Step.Snat) s).rule().orElseThrow().rule()).isEqualTo("-s 10.1.0.0/16 -j MASQUERADE"))
                    .satisfies(s -> assertThat(s.packet().src()).isEqualTo(Ipv4Address.parse("172.18.0.10")));
            assertThat(path.disposition()).isEqualTo(Disposition.DELIVERED);
            assertThat(path.forward().getLast().arrive().src()).isEqualTo(Ipv4Address.parse("172.18.0.10"));
        });
        assertThat(routed.paths()).isNotEmpty().allSatisfy(path -> {
            assertThat(steps(path).filter(s -> s instanceof Step.Snat)).isEmpty();
            assertThat(path.forward().getLast().arrive().src()).isEqualTo(Ipv4Address.parse("10.1.128.4"));
        });
    }
}
