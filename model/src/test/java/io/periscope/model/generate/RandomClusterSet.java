package io.periscope.model.generate;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.selector.LabelSelector;
import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.Cni;
import io.periscope.model.topology.CniMasquerade;
import io.periscope.model.topology.Disposition;
import io.periscope.model.topology.Flow;
import io.periscope.model.topology.FlowSource;
import io.periscope.model.topology.FlowTarget;
import io.periscope.model.topology.GatewayLoadBalancing;
import io.periscope.model.topology.GlobalEgressIP;
import io.periscope.model.topology.GlobalnetConfig;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.model.topology.Node;
import io.periscope.model.topology.NodeEnvironment;
import io.periscope.model.topology.Pod;
import io.periscope.model.topology.Protocol;
import io.periscope.model.topology.RpFilter;
import io.periscope.model.topology.Service;
import io.periscope.model.topology.ServiceExport;
import io.periscope.model.topology.ServicePort;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * Small valid cluster sets drawn from a seed, for tests that compare two views of the same network
 * (simulator invariants, real packets in the lab against the simulator): 2 to 4 clusters, 1 to 3
 * gateways each, Globalnet on (overlapping CIDRs) or off, multiple active gateways on or off,
 * GlobalEgressIPs at namespace and pod-selector level, exported ClusterIP and headless services, and
 * a flow from every pod to every service another cluster exports, nodes with or without loose
 * reverse-path filtering and a masquerading CNI. The same seed gives the same set. Seeds counted from
 * 0 all draw Globalnet on ({@link #generate(long, boolean)} says why); tests that need both ask for each.
 */
public final class RandomClusterSet {

    private RandomClusterSet() {
    }

    public static ClusterSet generate(long seed) {
        return generate(seed, Optional.empty());
    }

    /**
     * The set of {@code seed} with Globalnet on or off as asked, everything else drawn as
     * {@link #generate(long)} draws it. {@code java.util.Random}'s first boolean is the same for
     * every small seed (it comes from the top bit of the first value, which hardly depends on the
     * seed), so {@link #generate(long)} over seeds 0, 1, 2... gives Globalnet sets only: a test that
     * needs both asks for each.
     */
    public static ClusterSet generate(long seed, boolean globalnet) {
        return generate(seed, Optional.of(globalnet));
    }

    private static ClusterSet generate(long seed, Optional<Boolean> globalnetAsked) {
        Random random = new Random(seed);
        boolean drawn = random.nextBoolean();
        boolean globalnet = globalnetAsked.orElse(drawn);
        int clusterCount = 2 + random.nextInt(3);
        // The node environment comes from a stream of its own, so that every seed's clusters are the
        // ones they were before it existed. Strict filtering is left out: on most topologies it drops
        // every reply, and NodeEnvironmentsAgreeWithTheSimulator covers it.
        Random environments = new Random(seed ^ 0x5eed_e4f1_0000_0016L);
        List<Cluster> clusters = new ArrayList<>();
        for (int c = 0; c < clusterCount; c++) {
            Cluster cluster = cluster(random, c, globalnet);
            NodeEnvironment environment = new NodeEnvironment(environments.nextBoolean() ? RpFilter.LOOSE : RpFilter.OFF,
                    environments.nextBoolean() ? CniMasquerade.OUTSIDE_POD_CIDRS : CniMasquerade.NONE);
            clusters.add(new Cluster(cluster.name(), cluster.labels(), cluster.podCidrs(), cluster.serviceCidrs(), cluster.globalCidr(),
                    cluster.cni(), cluster.multiActiveGateways(), cluster.clusterEgressIPs(), cluster.loadBalancing(), cluster.nodes(),
                    cluster.pods(), cluster.services(), cluster.exports(), cluster.globalEgressIPs(), environment, cluster.egressOwnership()));
        }
        List<Flow> flows = new ArrayList<>();
        for (Cluster from : clusters) {
            for (Pod pod : from.pods()) {
                for (Cluster to : clusters) {
                    if (to == from) {
                        continue;
                    }
                    for (ServiceExport export : to.exports()) {
                        Service service = to.service(export.namespace(), export.name()).orElseThrow();
                        ServicePort port = service.ports().getFirst();
                        String dns = service.headless()
                                ? to.endpointsOf(service).getFirst().name() + "." + to.name() + "." + service.name() + "." + service.namespace()
                                + ".svc.clusterset.local"
                                : to.name() + "." + service.name() + "." + service.namespace() + ".svc.clusterset.local";
                        flows.add(new Flow(from.name() + "-" + pod.name() + "-to-" + to.name() + "-" + service.name(),
                                new FlowSource.PodSource(from.name(), pod.namespace(), pod.name()), new FlowTarget.DnsTarget(dns, port.port()),
                                port.protocol(), Optional.of(Disposition.DELIVERED)));
                    }
                }
            }
        }
        GlobalnetConfig config = globalnet
                ? new GlobalnetConfig(true, Ipv4Prefix.parse("242.0.0.0/8"), 65536, GlobalnetMode.V2) : GlobalnetConfig.DISABLED;
        String name = "random-" + seed + (globalnet == drawn ? "" : globalnet ? "-globalnet" : "-no-globalnet");
        return new ClusterSet(name, config, CableDriver.VXLAN, clusters, List.of(), List.of(), flows);
    }

    private static Cluster cluster(Random random, int index, boolean globalnet) {
        // With Globalnet every cluster uses the same CIDRs, as real clusters do; without, distinct ones.
        int second = globalnet ? 0 : index + 1;
        Ipv4Prefix pods = new Ipv4Prefix(Ipv4Address.of(10, second, 0, 0), 16);
        Ipv4Prefix services = new Ipv4Prefix(Ipv4Address.of(100, second, 0, 0), 16);
        int gateways = 1 + random.nextInt(3);
        int workers = 1 + random.nextInt(2);
        boolean multiActive = gateways > 1 && random.nextBoolean();
        List<Node> nodes = new ArrayList<>();
        for (int n = 0; n < gateways + workers; n++) {
            boolean gateway = n < gateways;
            nodes.add(new Node((gateway ? "gw-" : "worker-") + n, Ipv4Address.of(172, 16, index, 10 + n),
                    Ipv4Address.of(10, second, n * 32, 1), gateway, Optional.empty()));
        }
        List<Pod> podList = new ArrayList<>();
        int podCount = 2 + random.nextInt(3);
        for (int p = 0; p < podCount; p++) {
            // Pods run on workers mostly, sometimes on a gateway (the "pod on the gateway" case of seed 004).
            int node = random.nextInt(4) == 0 ? random.nextInt(gateways) : gateways + random.nextInt(workers);
            String namespace = p % 2 == 0 ? "default" : "ns1";
            podList.add(new Pod("pod-" + p, namespace, nodes.get(node).name(), Ipv4Address.of(10, second, node * 32, 10 + p),
                    Map.of("app", "a" + (p % 2)), false));
        }
        List<Service> serviceList = new ArrayList<>();
        List<ServiceExport> exports = new ArrayList<>();
        // A ClusterIP service for app a0 (always has a backend: pod-0 is in default with a0).
        serviceList.add(new Service("web", "default", Optional.of(Ipv4Address.of(100, second, 0, 10)),
                LabelSelector.ofLabels(Map.of("app", "a0")), List.of(new ServicePort(80, 8080, random.nextBoolean() ? Protocol.TCP : Protocol.UDP))));
        exports.add(new ServiceExport("default", "web"));
        if (random.nextBoolean()) {
            // A headless service for app a1 in ns1 (pod-1 is there).
            serviceList.add(new Service("db", "ns1", Optional.empty(), LabelSelector.ofLabels(Map.of("app", "a1")),
                    List.of(new ServicePort(5432, 5432, Protocol.TCP))));
            exports.add(new ServiceExport("ns1", "db"));
        }
        List<GlobalEgressIP> egress = new ArrayList<>();
        if (globalnet) {
            if (random.nextBoolean()) {
                egress.add(new GlobalEgressIP("ns1-egress", "ns1", Optional.empty(), 1 + random.nextInt(2)));
            }
            if (random.nextBoolean()) {
                egress.add(new GlobalEgressIP("a0-egress", "default", Optional.of(LabelSelector.ofLabels(Map.of("app", "a0"))), 2));
            }
        }
        return new Cluster("c" + index, Map.of("index", Integer.toString(index)), List.of(pods), List.of(services), Optional.empty(),
                Cni.KUBE_PROXY, multiActive, 1 + random.nextInt(8), GatewayLoadBalancing.MULTIPATH_ROUTES, nodes, podList,
                serviceList, exports, egress);
    }
}
