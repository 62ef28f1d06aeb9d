package io.periscope.kubernetes.dns;

import io.periscope.kubernetes.crd.Gateway;
import io.periscope.kubernetes.crd.ServiceImport;
import io.periscope.kubernetes.modelbuilder.ClusterModelBuilder;
import io.periscope.kubernetes.modelbuilder.LiveModel;
import io.periscope.kubernetes.modelbuilder.LiveObjects;
import io.periscope.kubernetes.modelbuilder.ModelProblem;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.dns.GatewayHealth;
import io.periscope.plan.dns.ImportedExport;
import io.periscope.plan.dns.ServiceDiscovery;
import io.periscope.planner.Planner;

import java.util.ArrayList;
import java.util.List;

/**
 * The resolver one cluster's DNS server answers from, built from what its API holds, with the same
 * {@link ServiceDiscovery} that {@code periscope dns} and the simulator ask:
 * <ul>
 *   <li>this cluster's exports through the model and the planner, as the agents plan them
 *       (ServiceExports, Services, pods, the GlobalIngressIPs' global IPs), a headless service's
 *       pods narrowed to the ready ones of its EndpointSlices ({@link ReadyPods});</li>
 *   <li>the other clusters' exports from ServiceImports and Lighthouse's EndpointSlices
 *       ({@link LighthouseImports});</li>
 *   <li>the connectivity policy and the remote clusters' gateways (Cluster objects and Endpoints
 *       the broker sync copied in) through the model, gateway health from the Gateway objects'
 *       status ({@link GatewayReports}).</li>
 * </ul>
 * Pure: no I/O. Throws only when the planner refuses the model; the caller keeps the last zone then.
 *
 * @param imported how many exports of other clusters were read, for the log
 */
record LiveDiscovery(ServiceDiscovery discovery, GatewayHealth health, java.util.Set<String> withoutGateways, int imported,
                     List<ModelProblem> problems) {

    LiveDiscovery {
        withoutGateways = java.util.Set.copyOf(withoutGateways);
        problems = List.copyOf(problems);
    }

    static LiveDiscovery of(LiveObjects live, List<ServiceImport> imports, List<Gateway> gateways) {
        LiveModel model = ClusterModelBuilder.build(live.clusterId(), List.of(live));
        ClusterSetPlan plan = Planner.plan(model.clusterSet(), model.addresses());
        List<ModelProblem> problems = new ArrayList<>(model.problems());
        List<ImportedExport> imported = LighthouseImports.read(live.clusterId(), imports, live.endpointSlices(), problems);
        GatewayHealth health = GatewayReports.read(live.clusterId(), gateways);
        ServiceDiscovery discovery = ServiceDiscovery.of(plan, health, ReadyPods.of(live.clusterId(), live.endpointSlices()), imported);
        java.util.Set<String> withoutGateways = new java.util.TreeSet<>();
        model.clusterSet().clusters().stream().filter(c -> c.gateways().isEmpty()).forEach(c -> withoutGateways.add(c.name()));
        imported.stream().map(ImportedExport::cluster).filter(c -> model.clusterSet().cluster(c).isEmpty()).forEach(withoutGateways::add);
        return new LiveDiscovery(discovery, health, withoutGateways, imported.size(), problems);
    }

    /** Nothing to answer yet: every name is NXDOMAIN until the first zone is built. */
    static ServiceDiscovery empty(String clusterId) {
        LiveModel model = ClusterModelBuilder.build(clusterId, List.of());
        return ServiceDiscovery.of(Planner.plan(model.clusterSet(), model.addresses()));
    }

    /** One line for the log: what is served and what is left out. */
    String describe() {
        List<String> names = discovery.names();
        long services = names.stream().filter(n -> n.split("\\.").length == 5 && !n.startsWith("_")).count();
        return services + " exported service(s), " + imported + " export(s) imported from other clusters; gateways reported down: "
                + (health.clustersDown().isEmpty() ? "none" : String.join(", ", new java.util.TreeSet<>(health.clustersDown())))
                + (withoutGateways.isEmpty() ? "" : "; no gateway known: " + String.join(", ", withoutGateways))
                + (problems.isEmpty() ? "" : "; " + problems.size() + " object(s) left out");
    }
}
