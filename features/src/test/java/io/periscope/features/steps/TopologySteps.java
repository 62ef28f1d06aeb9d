package io.periscope.features.steps;

import io.cucumber.datatable.DataTable;
import io.cucumber.java.en.Given;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.periscope.model.load.TopologyError;
import io.periscope.model.load.TopologyException;
import io.periscope.model.selector.LabelSelector;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.ClusterSet;
import io.periscope.model.topology.GatewayLoadBalancing;
import io.periscope.model.topology.GlobalEgressIP;
import io.periscope.model.topology.GlobalnetConfig;
import io.periscope.model.topology.GlobalnetMode;
import io.periscope.model.topology.MultipathHashPolicy;
import io.periscope.model.topology.ServiceExport;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/** The cluster set a scenario describes, whether it is accepted, and changes made to it while it runs. */
public final class TopologySteps {

    private final ClusterSetUnderTest world;

    public TopologySteps(ClusterSetUnderTest world) {
        this.world = world;
    }

    @Given("the cluster set:")
    public void theClusterSet(String yaml) {
        world.describe(yaml);
    }

    @When("the cluster set is deployed")
    public void deployed() {
        if (world.refusal().isEmpty()) {
            world.deployment();
        }
    }

    @Then("the cluster set is refused with:")
    public void refusedWith(DataTable table) {
        // The backend's verdict on the file: the loader's on the simulator, the lab's own lab up in the lab.
        TopologyException refusal = world.backend().refusal(world.yaml())
                .orElseThrow(() -> new AssertionError("the cluster set was accepted; expected it to be refused"));
        for (Map<String, String> row : table.asMaps()) {
            String field = row.get("field").trim();
            TextPattern problem = TextPattern.parse(row.get("problem"));
            List<TopologyError> errors = refusal.errors();
            if (errors.stream().noneMatch(e -> e.path().equals(field) && problem.foundIn(e.problem()))) {
                throw new AssertionError("no error at " + field + " saying '" + problem + "'; the errors:\n" + refusal.report());
            }
        }
    }

    /**
     * Accepted and running: every node of the set is there to be read (in the lab its namespace, which
     * {@code lab up} built from the file; on the simulator its plan).
     */
    @Then("the cluster set is accepted")
    public void accepted() {
        world.refusal().ifPresent(e -> {
            throw new AssertionError("the cluster set was refused:\n" + e.report());
        });
        for (Cluster cluster : world.clusterSet().clusters()) {
            for (var node : cluster.nodes()) {
                world.deployment().programmed(io.periscope.plan.HostId.node(cluster.name(), node.name()));
            }
        }
    }

    @When("the export {word} of cluster {word} is deleted")
    public void exportDeleted(String export, String cluster) {
        running();
        world.change(changeCluster(cluster, c -> {
            List<ServiceExport> exports = c.exports().stream().filter(e -> !e.toString().equals(export)).toList();
            if (exports.size() == c.exports().size()) {
                throw new IllegalArgumentException("cluster " + cluster + " exports no " + export + " (exports: " + c.exports() + ")");
            }
            return new Cluster(c.name(), c.labels(), c.podCidrs(), c.serviceCidrs(), c.globalCidr(), c.cni(), c.multiActiveGateways(),
                    c.clusterEgressIPs(), c.loadBalancing(), c.nodes(), c.pods(), c.services(), exports, c.globalEgressIPs());
        }));
    }

    @When("the pod {word} of cluster {word} is deleted")
    public void podDeleted(String pod, String cluster) {
        running();
        world.change(changeCluster(cluster, c -> {
            var pods = c.pods().stream().filter(p -> !p.qualifiedName().equals(pod)).toList();
            if (pods.size() == c.pods().size()) {
                throw new IllegalArgumentException("cluster " + cluster + " has no pod " + pod);
            }
            return new Cluster(c.name(), c.labels(), c.podCidrs(), c.serviceCidrs(), c.globalCidr(), c.cni(), c.multiActiveGateways(),
                    c.clusterEgressIPs(), c.loadBalancing(), c.nodes(), pods, c.services(), c.exports(), c.globalEgressIPs());
        }));
    }

    @When("the GlobalEgressIP {word} of cluster {word} is deleted")
    public void globalEgressIpDeleted(String name, String cluster) {
        running();
        world.change(changeCluster(cluster, c -> {
            List<GlobalEgressIP> egress = c.globalEgressIPs().stream().filter(g -> !(g.namespace() + "/" + g.name()).equals(name)).toList();
            if (egress.size() == c.globalEgressIPs().size()) {
                throw new IllegalArgumentException("cluster " + cluster + " has no GlobalEgressIP " + name + " (write namespace/name)");
            }
            return new Cluster(c.name(), c.labels(), c.podCidrs(), c.serviceCidrs(), c.globalCidr(), c.cni(), c.multiActiveGateways(),
                    c.clusterEgressIPs(), c.loadBalancing(), c.nodes(), c.pods(), c.services(), c.exports(), egress);
        }));
    }

    /**
     * The node leaves the cluster set for good: the set is planned again without it and the change
     * deployed (in the lab, {@code lab apply} in place: its namespace goes and the agents that stay
     * reconcile), what the control plane converges to once the node is gone (its Endpoint withdrawn, the routes
     * rebuilt from the gateways left). Not a live failure: {@link FailoverSteps} fails a gateway while
     * traffic runs and lets the agents' health checks notice.
     */
    @When("the node {word} is removed from the cluster set")
    public void nodeRemoved(String node) {
        ClusterSet set = world.clusterSet();
        String[] parts = node.split("/");
        if (parts.length != 2 || set.cluster(parts[0]).flatMap(c -> c.node(parts[1])).isEmpty()) {
            throw new IllegalArgumentException("'" + node + "' names no node of the cluster set (write cluster/node)");
        }
        running();
        if (world.refusal().isEmpty()) {
            // What the node had, read from the deployment before it goes: its interfaces' and its VXLAN devices' addresses.
            io.periscope.plan.HostId id = io.periscope.plan.HostId.node(parts[0], parts[1]);
            List<io.periscope.model.net.Ipv4Address> addresses = new ArrayList<>();
            world.deployment().interfaces(id).forEach(i -> addresses.addAll(i.addresses()));
            world.deployment().programmed(id).vxlanDevices().forEach(d -> addresses.add(d.address()));
            world.removedNode(node, addresses.stream().distinct().toList());
        }
        world.change(set.withoutNodes(List.of(node)));
    }

    /** A deletion is of something running: the set is deployed first, so that the backend takes the deletion as a change. */
    private void running() {
        if (world.refusal().isEmpty()) {
            world.deployment();
        }
    }

    @Given("cluster {word} balances its gateways with {word}")
    public void loadBalancing(String cluster, String option) {
        GatewayLoadBalancing chosen = java.util.Arrays.stream(GatewayLoadBalancing.values()).filter(o -> o.yamlName().equals(option))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("'" + option + "' is no gatewayLoadBalancing; write one of "
                        + java.util.Arrays.stream(GatewayLoadBalancing.values()).map(GatewayLoadBalancing::yamlName).toList()));
        world.change(changeCluster(cluster, c -> c.withLoadBalancing(chosen)));
    }

    @Given("cluster {word} hashes multipath routes by {word}")
    public void multipathHash(String cluster, String policy) {
        MultipathHashPolicy chosen = java.util.Arrays.stream(MultipathHashPolicy.values()).filter(p -> p.yamlName().equals(policy))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("'" + policy + "' is no multipathHashPolicy; write one of "
                        + java.util.Arrays.stream(MultipathHashPolicy.values()).map(MultipathHashPolicy::yamlName).toList()));
        world.change(changeCluster(cluster, c -> new Cluster(c.name(), c.labels(), c.podCidrs(), c.serviceCidrs(), c.globalCidr(), c.cni(),
                c.multiActiveGateways(), c.clusterEgressIPs(), c.loadBalancing(), c.nodes(), c.pods(), c.services(), c.exports(),
                c.globalEgressIPs(), c.environment().withMultipathHash(chosen), c.egressOwnership())));
    }

    @Given("cluster {word} also has the GlobalEgressIP:")
    public void globalEgressIpCreated(String cluster, DataTable table) {
        Map<String, String> row = table.asMaps().getFirst();
        String selector = row.getOrDefault("podSelector", "");
        Optional<LabelSelector> podSelector = selector == null || selector.isBlank() ? Optional.empty()
                : Optional.of(LabelSelector.ofLabels(labels(selector)));
        GlobalEgressIP created = new GlobalEgressIP(row.get("name").trim(), row.get("namespace").trim(), podSelector,
                Integer.parseInt(row.get("numberOfIPs").trim()));
        world.change(changeCluster(cluster, c -> {
            List<GlobalEgressIP> egress = new ArrayList<>(c.globalEgressIPs());
            egress.add(created);
            return new Cluster(c.name(), c.labels(), c.podCidrs(), c.serviceCidrs(), c.globalCidr(), c.cni(), c.multiActiveGateways(),
                    c.clusterEgressIPs(), c.loadBalancing(), c.nodes(), c.pods(), c.services(), c.exports(), egress);
        }));
    }

    @When("the cluster set runs Globalnet's first design")
    public void firstDesign() {
        ClusterSet set = world.clusterSet();
        GlobalnetConfig globalnet = set.globalnet();
        world.change(new ClusterSet(set.name(), new GlobalnetConfig(globalnet.enabled(), globalnet.cidr(), globalnet.clusterSize(),
                GlobalnetMode.LEGACY), set.defaultCableDriver(), set.clusters(), set.connectivityPolicies(), set.connectionPolicies(),
                set.flows()));
    }

    /** "app=http, tier=gold" as a map. */
    private static Map<String, String> labels(String text) {
        Map<String, String> labels = new TreeMap<>();
        for (String pair : text.split(",")) {
            String[] kv = pair.trim().split("=", 2);
            if (kv.length != 2) {
                throw new IllegalArgumentException("'" + pair + "' is no label: write key=value");
            }
            labels.put(kv[0].trim(), kv[1].trim());
        }
        return labels;
    }

    private ClusterSet changeCluster(String name, UnaryOperator<Cluster> change) {
        ClusterSet set = world.clusterSet();
        set.requireCluster(name);
        return set.withClusters(set.clusters().stream().map(c -> c.name().equals(name) ? change.apply(c) : c).toList());
    }
}
