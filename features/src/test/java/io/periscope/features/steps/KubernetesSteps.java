package io.periscope.features.steps;

import io.cucumber.java.After;
import io.cucumber.java.en.Then;
import io.cucumber.java.en.When;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.CustomResource;
import io.periscope.dataplane.command.Command;
import io.periscope.features.kubernetes.ApiGlobalnet;
import io.periscope.features.kubernetes.Eventually;
import io.periscope.features.kubernetes.KubernetesControlPlane;
import io.periscope.features.kubernetes.KubernetesControlPlane.MemberCluster;
import io.periscope.features.kubernetes.Rbac;
import io.periscope.kubernetes.crd.ClusterConnectionPolicies;
import io.periscope.kubernetes.crd.ClusterConnectivityPolicyResource;
import io.periscope.kubernetes.crd.ClusterGlobalEgressIPResource;
import io.periscope.kubernetes.crd.ClusterGlobalEgressIPSpec;
import io.periscope.kubernetes.crd.GlobalEgressIPResource;
import io.periscope.kubernetes.crd.GlobalEgressIPSpec;
import io.periscope.kubernetes.crd.SubmarinerApi;
import io.periscope.kubernetes.gateway.ProgrammedConditions;
import io.periscope.kubernetes.globalnet.GlobalnetController;
import io.periscope.kubernetes.globalnet.GlobalnetSettings;
import io.periscope.model.globalnet.ClusterGlobalnetAllocations;
import io.periscope.model.globalnet.GlobalIpAllocation;
import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.HostId;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.IptablesSyntax;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Scenarios about Kubernetes objects: Periscope's real controllers (agents/kubernetes) run against the
 * scenario's own control plane, which the first of these steps starts. Requests made "as a user" are
 * first decided by RBAC over the roles shipped in deploy/, since the mock API servers do not authorize.
 */
public final class KubernetesSteps {

    /** The regular user of the scenarios: Kubernetes' {@code edit} role in the namespace, as a cluster admin grants it. */
    static final String USER = "developer";
    static final String USER_ROLE = "edit";

    private final ClusterSetUnderTest world;
    private Rbac.Subject lastSubject;
    private String lastUserNamespace;
    private Optional<Rbac.Decision> lastDecision = Optional.empty();
    private Optional<String> lastObject = Optional.empty();

    public KubernetesSteps(ClusterSetUnderTest world) {
        this.world = world;
    }

    @After
    public void stopTheControlPlane() {
        world.stopControlPlane();
    }

    private KubernetesControlPlane plane() {
        return world.controlPlane();
    }

    // ---- the broker sync (seed 001) ----

    @Then("the broker holds the {word} {word}")
    public void brokerHolds(String kind, String name) {
        Eventually.check("the broker holds the " + kind + " " + name, () -> {
            if (policy(plane().broker(), kind, KubernetesControlPlane.BROKER_NAMESPACE, name).isEmpty()) {
                throw new AssertionError("the broker has no " + kind + " " + name + " in " + KubernetesControlPlane.BROKER_NAMESPACE);
            }
        });
    }

    @Then("every cluster holds a copy of the {word} {word}")
    public void everyClusterHoldsACopy(String kind, String name) {
        CustomResource<?, ?> original = policy(plane().broker(), kind, KubernetesControlPlane.BROKER_NAMESPACE, name)
                .orElseThrow(() -> new AssertionError("the broker has no " + kind + " " + name));
        for (MemberCluster cluster : plane().clusters()) {
            Eventually.check("cluster " + cluster.model().name() + " holds a copy of the " + kind + " " + name, () -> {
                CustomResource<?, ?> copy = policy(cluster.client(), kind, KubernetesControlPlane.NAMESPACE, name)
                        .orElseThrow(() -> new AssertionError("cluster " + cluster.model().name() + " has no " + kind + " " + name));
                Map<String, String> labels = copy.getMetadata().getLabels() == null ? Map.of() : copy.getMetadata().getLabels();
                if (!labels.containsKey(SubmarinerApi.SYNCED_FROM_BROKER_LABEL)) {
                    throw new AssertionError("cluster " + cluster.model().name() + "'s " + kind + " " + name + " is not labelled as a broker copy");
                }
                if (!copy.getSpec().equals(original.getSpec())) {
                    throw new AssertionError("cluster " + cluster.model().name() + "'s copy has the spec " + copy.getSpec() + ", not " + original.getSpec());
                }
            });
        }
    }

    private static Optional<CustomResource<?, ?>> policy(KubernetesClient client, String kind, String namespace, String name) {
        return Optional.ofNullable(switch (kind) {
            case "ClusterConnectivityPolicy" -> client.resources(ClusterConnectivityPolicyResource.class).inNamespace(namespace).withName(name).get();
            case "ClusterConnectionPolicies" -> client.resources(ClusterConnectionPolicies.class).inNamespace(namespace).withName(name).get();
            default -> throw new IllegalArgumentException("'" + kind + "' is not ClusterConnectivityPolicy or ClusterConnectionPolicies");
        });
    }

    // ---- requests as an admin or a user (seed 002's RBAC rules) ----

    private static Rbac rbac() {
        return Rbac.fromManifests(Path.of("..", "deploy"));
    }

    @When("an admin creates the ClusterGlobalEgressIP {word} in cluster {word}")
    public void adminCreatesClusterEgress(String name, String cluster) {
        Rbac.Subject admin = new Rbac.Subject("cluster-admin-user", java.util.Set.of("system:masters", "system:authenticated"));
        request(admin, "create", "clusterglobalegressips", Optional.empty(), name, cluster, () -> clusterEgress(name, cluster));
        lastDecision.filter(Rbac.Decision::allowed).orElseThrow(() -> new AssertionError("an admin may not create a ClusterGlobalEgressIP: "
                + lastDecision.map(Rbac.Decision::reason).orElse("")));
    }

    @When("a user without admin rights creates the ClusterGlobalEgressIP {word} in cluster {word}")
    public void userCreatesClusterEgress(String name, String cluster) {
        // The user edits the namespace of the scenario's workloads; a ClusterGlobalEgressIP has no namespace.
        lastUserNamespace = "ns1";
        request(Rbac.Subject.user(USER), "create", "clusterglobalegressips", Optional.empty(), name, cluster, () -> clusterEgress(name, cluster));
    }

    @When("the same user creates the GlobalEgressIP {word} in namespace {word} of cluster {word}")
    public void userCreatesEgress(String name, String namespace, String cluster) {
        if (lastSubject == null) {
            throw new IllegalStateException("no user yet: a step like 'When a user without admin rights creates ...' comes first");
        }
        request(lastSubject, "create", "globalegressips", Optional.of(namespace), name, cluster, () -> {
            GlobalEgressIPResource egress = new GlobalEgressIPResource();
            egress.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
            egress.setSpec(new GlobalEgressIPSpec(1, null));
            return egress;
        });
    }

    private ClusterGlobalEgressIPResource clusterEgress(String name, String cluster) {
        ClusterGlobalEgressIPResource object = new ClusterGlobalEgressIPResource();
        object.setMetadata(new ObjectMetaBuilder().withName(name).build());
        object.setSpec(new ClusterGlobalEgressIPSpec(null, cluster));
        return object;
    }

    /** Decides the request with RBAC; an allowed request is then made against the cluster's API server. */
    private void request(Rbac.Subject subject, String verb, String resource, Optional<String> namespace, String name, String cluster,
                         java.util.function.Supplier<HasMetadata> object) {
        MemberCluster member = plane().cluster(cluster);
        Rbac rbac = rbac();
        if (subject.user().equals(USER)) {
            rbac.bindUserInNamespace(USER, lastUserNamespace == null ? namespace.orElse("default") : lastUserNamespace, USER_ROLE);
        }
        lastSubject = subject;
        Rbac.Decision decision = rbac.decide(subject, new Rbac.Request(verb, SubmarinerApi.GROUP, resource, namespace, Optional.of(name)));
        lastDecision = Optional.of(decision);
        lastObject = Optional.of(resource + " " + namespace.map(n -> n + "/").orElse("") + name + " in cluster " + cluster);
        if (decision.allowed()) {
            namespace.ifPresent(n -> {
                if (member.client().namespaces().withName(n).get() == null) {
                    member.client().namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata().withName(n)
                            .endMetadata().build()).create();
                }
            });
            member.client().resource(object.get()).create();
            world.apiChangedOutsideTheSet();
        }
    }

    @Then("the request is forbidden")
    public void forbidden() {
        Rbac.Decision decision = lastDecision.orElseThrow(() -> new IllegalStateException("no request was made yet"));
        if (decision.allowed()) {
            throw new AssertionError("the request to create " + lastObject.orElse("") + " was allowed: " + decision.reason());
        }
    }

    @Then("the GlobalEgressIP {word} in namespace {word} of cluster {word} is created")
    public void egressCreated(String name, String namespace, String cluster) {
        Rbac.Decision decision = lastDecision.orElseThrow(() -> new IllegalStateException("no request was made yet"));
        if (!decision.allowed()) {
            throw new AssertionError("the request was forbidden: " + decision.reason());
        }
        String requester = "GlobalEgressIP " + namespace + "/" + name;
        Eventually.check("Globalnet allocates for " + requester, () -> {
            ApiGlobalnet object = ApiGlobalnet.read(plane().cluster(cluster).client(), requester)
                    .orElseThrow(() -> new AssertionError("cluster " + cluster + " has no " + requester));
            String reason = object.allocated().map(Condition::getReason).orElse("no status yet");
            if (!reason.equals("Success")) {
                throw new AssertionError(requester + " was created but its status says " + reason);
            }
        });
    }

    // ---- Globalnet's status ----

    @Then("the status of the ClusterGlobalEgressIP {word} in cluster {word} is {word}")
    public void clusterEgressStatus(String name, String cluster, String expected) {
        String requester = "ClusterGlobalEgressIP " + name;
        Eventually.check("the status of " + requester + " is " + expected, () -> {
            ApiGlobalnet object = ApiGlobalnet.read(plane().cluster(cluster).client(), requester)
                    .orElseThrow(() -> new AssertionError("cluster " + cluster + " has no " + requester));
            Condition allocated = object.allocated().orElseThrow(() -> new AssertionError(requester + " has no status yet"));
            boolean matches = expected.equals("Error") ? allocated.getStatus().equals("False") : allocated.getReason().equals(expected);
            if (!matches) {
                throw new AssertionError(requester + "'s status is " + allocated.getStatus() + " " + allocated.getReason() + ": "
                        + allocated.getMessage());
            }
        });
    }

    @Then("the status of the GlobalEgressIP {word} in cluster {word} says the rules are programmed")
    public void egressProgrammed(String qualifiedName, String cluster) {
        String requester = "GlobalEgressIP " + qualifiedName;
        List<String> gateways = activeGateways(cluster);
        Eventually.check("every active gateway of " + cluster + " says in " + requester + "'s status that it programmed it", () -> {
            ApiGlobalnet object = ApiGlobalnet.read(plane().cluster(cluster).client(), requester)
                    .orElseThrow(() -> new AssertionError("cluster " + cluster + " has no " + requester));
            agreesWithTheBackend(cluster, object);
            for (String gateway : gateways) {
                Condition condition = object.condition(ProgrammedConditions.type(gateway)).orElseThrow(() -> new AssertionError(
                        requester + " has no condition from gateway " + gateway + "; its conditions: " + object.conditions()));
                if (!condition.getStatus().equals("True") || !condition.getMessage().endsWith(" " + object.addressText())) {
                    throw new AssertionError(requester + "'s condition from " + gateway + " says " + condition.getStatus() + " "
                            + condition.getReason() + ": " + condition.getMessage() + "; its addresses are " + object.addressText());
                }
            }
        });
    }

    private List<String> activeGateways(String cluster) {
        return world.deployment().endpoints().stream().filter(e -> e.clusterId().equals(cluster)).map(e -> e.hostname()).toList();
    }

    /** The API's object has the addresses the backend's IPAM gave it. */
    private void agreesWithTheBackend(String cluster, ApiGlobalnet object) {
        ClusterGlobalnetAllocations backend = world.deployment().allocations().cluster(cluster)
                .orElseThrow(() -> new AssertionError("cluster " + cluster + " has no Globalnet allocations on the backend"));
        GlobalIpAllocation allocation = backend.allocations().stream().filter(a -> a.requester().equals(object.requester())).findFirst()
                .orElseThrow(() -> new AssertionError("the backend has no " + object.requester()));
        List<String> expected = allocation.addresses().stream().map(Ipv4Address::toString).toList();
        if (!object.addresses().equals(expected)) {
            throw new AssertionError(object.requester() + " holds " + object.addresses() + " in the API but " + expected + " on the backend");
        }
    }

    /** Called by the global IP steps when this scenario runs a control plane: the API must say what the backend says. */
    static void checkApiAgrees(ClusterSetUnderTest world, String cluster, String requester, String addresses, Optional<String> status) {
        world.runningControlPlane().ifPresent(plane -> Eventually.check("the API's " + requester + " in cluster " + cluster, () -> {
            ApiGlobalnet object = ApiGlobalnet.read(plane.cluster(cluster).client(), requester)
                    .orElseThrow(() -> new AssertionError("cluster " + cluster + "'s API has no " + requester));
            if (!object.addressText().equals(addresses)) {
                throw new AssertionError(requester + " holds " + object.addressText() + " in the API, not " + addresses);
            }
            status.ifPresent(reason -> {
                String actual = object.allocated().map(Condition::getReason).orElse("no status");
                if (!actual.equals(reason)) {
                    throw new AssertionError(requester + "'s status in the API is " + actual + ", not " + reason);
                }
            });
        }));
    }

    // ---- seed 004: one allocating replica, gateways programming their own nodes ----

    @When("Globalnet restarts in cluster {word}")
    public void globalnetRestarts(String cluster) {
        // First everything is allocated and written to status, as the backend's IPAM says.
        oneGlobalnetReplica(cluster);
        plane().restartGlobalnet(cluster);
    }

    @Then("cluster {word} runs one Globalnet replica")
    public void oneGlobalnetReplica(String cluster) {
        MemberCluster member = plane().cluster(cluster);
        List<String> processes = plane().globalnetProcessIdentities(cluster);
        Eventually.check("one Globalnet replica of " + cluster + " leads and allocates", () -> {
            if (!processes.isEmpty()) {
                // Replicas in processes of their own: the Lease in the API says which leads, the objects' status what it allocated.
                String holder = KubernetesControlPlane.leaseHolder(member.client(), GlobalnetSettings.LEASE);
                if (!processes.contains(holder)) {
                    throw new AssertionError("the Lease " + GlobalnetSettings.LEASE + " is held by " + holder + ", not by one of the replicas "
                            + processes);
                }
                for (GlobalIpAllocation allocation : world.deployment().allocations().cluster(cluster).orElseThrow().allocations()) {
                    agreesWithTheBackend(cluster, ApiGlobalnet.read(member.client(), allocation.requester())
                            .orElseThrow(() -> new AssertionError("the API has no " + allocation.requester())));
                }
                return;
            }
            List<GlobalnetController> leading = member.globalnet().stream().filter(GlobalnetController::leading).toList();
            if (leading.size() != 1) {
                throw new AssertionError(leading.size() + " of the " + member.globalnet().size() + " Globalnet replicas lead");
            }
            for (GlobalnetController replica : member.globalnet()) {
                if (!replica.leading() && replica.passes() != 0) {
                    throw new AssertionError("a replica that does not lead ran " + replica.passes() + " passes");
                }
            }
            if (leading.getFirst().passes() == 0) {
                throw new AssertionError("the leading replica has not run yet");
            }
            Lease lease = member.client().resources(Lease.class).inNamespace(KubernetesControlPlane.NAMESPACE).withName(GlobalnetSettings.LEASE).get();
            if (lease == null || lease.getSpec().getHolderIdentity() == null) {
                throw new AssertionError("nobody holds the Lease " + GlobalnetSettings.LEASE);
            }
            // Every address the backend's IPAM gives is what the leading replica wrote.
            for (GlobalIpAllocation allocation : world.deployment().allocations().cluster(cluster).orElseThrow().allocations()) {
                agreesWithTheBackend(cluster, ApiGlobalnet.read(member.client(), allocation.requester())
                        .orElseThrow(() -> new AssertionError("the API has no " + allocation.requester())));
            }
        });
    }

    @Then("the gateway pods of {word} and {word} program the Globalnet rules of their nodes")
    public void gatewaysProgram(String first, String second) {
        for (String host : List.of(first, second)) {
            HostId id = HostNames.parse(host);
            String cluster = host.substring(0, host.indexOf('/'));
            String node = host.substring(host.indexOf('/') + 1);
            MemberCluster member = plane().cluster(cluster);
            NetfilterTable nat = world.deployment().programmed(id).table(Table.fromIptablesName("nat"))
                    .orElseThrow(() -> new AssertionError(host + " has no nat table on the backend"));
            List<String> expected = new ArrayList<>();
            for (Chain chain : nat.chains()) {
                if (chain.name().startsWith("SUBMARINER-GN-") || chain.name().startsWith("SM-GN-")) {
                    for (Rule rule : chain.rules()) {
                        expected.add(IptablesSyntax.appendLine(chain.name(), rule));
                    }
                }
            }
            if (expected.isEmpty()) {
                throw new AssertionError(host + " has no Globalnet rules on the backend");
            }
            if (!(member.kernels().get(node) instanceof io.periscope.dataplane.command.RecordingCommandRunner)) {
                onItsKernel(host, member, node, expected);
                continue;
            }
            var agent = Optional.ofNullable(member.gateways().get(node)).orElseThrow(() -> new AssertionError(host + " runs no gateway agent"));
            Eventually.check("the gateway agent of " + host + " programs its node's Globalnet rules", () -> {
                if (!agent.leading()) {
                    throw new AssertionError("the gateway agent of " + host + " does not hold its Lease");
                }
                StringBuilder written = new StringBuilder();
                for (Command command : member.recorded(node).commands()) {
                    if (command.program().equals("iptables-restore")) {
                        written.append(command.stdin());
                    }
                }
                for (String line : expected) {
                    if (!written.toString().contains(line)) {
                        throw new AssertionError("the gateway agent of " + host + " did not program\n  " + line + "\nit wrote:\n" + written);
                    }
                }
            });
        }
    }

    /**
     * On a real kernel (the kubernetes-on-lab backend, its agents in processes of their own) the
     * agents' programs are not recorded: the API says the node's gateway agent holds its Lease and
     * reports its gateway active (its Gateway object's status), and the node's kernel holds every
     * Globalnet rule {@code periscope plan} gives the node.
     */
    private void onItsKernel(String host, MemberCluster member, String node, List<String> inTheKernel) {
        List<String> planned = new ArrayList<>();
        io.periscope.planner.Planner.plan(world.deployment().clusterSet()).host(HostNames.parse(host)).orElseThrow()
                .submariner().table(Table.fromIptablesName("nat")).ifPresent(nat -> nat.chains().stream()
                        .filter(c -> c.name().startsWith("SUBMARINER-GN-") || c.name().startsWith("SM-GN-"))
                        .forEach(c -> c.rules().forEach(r -> planned.add(IptablesSyntax.appendLine(c.name(), r)))));
        if (planned.isEmpty()) {
            throw new AssertionError("periscope plan gives " + host + " no Globalnet rules");
        }
        Eventually.check("the gateway agent of " + host + " programs its node's Globalnet rules", () -> {
            String lease = io.periscope.kubernetes.modelbuilder.LiveObjectsReader.gatewayLease(member.model().multiActiveGateways(), node);
            String holder = KubernetesControlPlane.leaseHolder(member.client(), lease);
            if (!node.equals(holder)) {
                throw new AssertionError("the Lease " + lease + " of " + host + "'s gateway agent is held by " + holder);
            }
            io.periscope.kubernetes.crd.Gateway gateway = member.client().resources(io.periscope.kubernetes.crd.Gateway.class)
                    .inNamespace(KubernetesControlPlane.NAMESPACE).withName(node).get();
            if (gateway == null || gateway.getStatus() == null
                    || !io.periscope.kubernetes.crd.GatewayStatus.ACTIVE.equals(gateway.getStatus().haStatus())) {
                throw new AssertionError("the Gateway object of " + host + " does not report it active: "
                        + (gateway == null ? "no such object" : gateway.getStatus()));
            }
            List<String> missing = planned.stream().filter(line -> !inTheKernel.contains(line)).toList();
            if (!missing.isEmpty()) {
                throw new AssertionError(host + "'s kernel lacks the planned Globalnet rules\n  " + String.join("\n  ", missing));
            }
        });
    }

    // ---- the first Globalnet design's annotations (seed 000) ----

    @Then("the {word} {word} of cluster {word} is annotated {word}")
    public void annotated(String kind, String qualifiedName, String cluster, String annotation) {
        int equals = annotation.indexOf('=');
        String key = annotation.substring(0, equals);
        String value = annotation.substring(equals + 1);
        String namespace = qualifiedName.substring(0, qualifiedName.indexOf('/'));
        String name = qualifiedName.substring(qualifiedName.indexOf('/') + 1);
        ClusterGlobalnetAllocations backend = world.deployment().allocations().cluster(cluster)
                .orElseThrow(() -> new AssertionError("cluster " + cluster + " has no Globalnet allocations on the backend"));
        Optional<Ipv4Address> computed = switch (kind) {
            case "pod" -> backend.legacyPodIp(namespace, name);
            case "service" -> backend.legacyService(namespace, name).flatMap(GlobalIpAllocation::address);
            default -> throw new IllegalArgumentException("'" + kind + "' is not pod or service");
        };
        if (key.equals(SubmarinerApi.GLOBAL_IP_ANNOTATION) && !computed.map(Object::toString).equals(Optional.of(value))) {
            throw new AssertionError("the backend's IPAM gives the " + kind + " " + qualifiedName + " " + computed.map(Object::toString).orElse("nothing")
                    + ", not " + value);
        }
        KubernetesClient client = plane().cluster(cluster).client();
        Eventually.check("the " + kind + " " + qualifiedName + " of cluster " + cluster + " is annotated " + annotation, () -> {
            HasMetadata object = kind.equals("pod") ? client.pods().inNamespace(namespace).withName(name).get()
                    : client.services().inNamespace(namespace).withName(name).get();
            if (object == null) {
                throw new AssertionError("cluster " + cluster + " has no " + kind + " " + qualifiedName);
            }
            Map<String, String> annotations = object.getMetadata().getAnnotations() == null ? Map.of() : object.getMetadata().getAnnotations();
            if (!value.equals(annotations.get(key))) {
                throw new AssertionError("the " + kind + "'s annotations are " + annotations);
            }
        });
    }
}
