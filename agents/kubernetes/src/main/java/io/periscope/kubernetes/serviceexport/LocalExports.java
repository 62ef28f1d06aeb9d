package io.periscope.kubernetes.serviceexport;

import io.periscope.kubernetes.dns.ReadyPods;
import io.periscope.kubernetes.modelbuilder.ClusterModelBuilder;
import io.periscope.kubernetes.modelbuilder.LiveModel;
import io.periscope.kubernetes.modelbuilder.LiveObjects;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.Service;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.ServiceRecord;
import io.periscope.planner.Planner;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * This cluster's exports, from what its API holds, through the model builder and the planner: the
 * same {@link ServiceRecord}s this cluster's own DNS server answers from, so another cluster answers
 * the very address this one does. A ServiceExport whose Service does not exist is not in the model,
 * and so not published; neither is a ClusterSetIP export still waiting for its global IP, nor a
 * headless pod still waiting for its own. Readiness comes from the cluster's own EndpointSlices, as
 * the DNS server reads it ({@link ReadyPods}). Pure: no I/O. Throws when the planner refuses the model.
 */
final class LocalExports {

    private LocalExports() {
    }

    static List<LocalExport> of(LiveObjects live) {
        LiveModel model = ClusterModelBuilder.build(live.clusterId(), List.of(live));
        Optional<Cluster> cluster = model.clusterSet().cluster(live.clusterId());
        if (cluster.isEmpty()) {
            return List.of();
        }
        ClusterSetPlan plan = Planner.plan(model.clusterSet(), model.addresses());
        ReadyPods readiness = ReadyPods.of(live.clusterId(), live.endpointSlices());
        List<LocalExport> exports = new ArrayList<>();
        for (Service service : cluster.get().services()) {
            if (!cluster.get().isExported(service)) {
                continue;
            }
            List<ServiceRecord> records = plan.serviceRecords().stream()
                    .filter(r -> r.cluster().equals(live.clusterId()) && r.namespace().equals(service.namespace()) && r.service().equals(service.name()))
                    .toList();
            if (service.headless()) {
                List<LocalExport.Backend> pods = records.stream().filter(r -> r.pod().isPresent())
                        .map(r -> new LocalExport.Backend(r.pod().get(), r.address(),
                                readiness.ready(live.clusterId(), service.namespace(), service.name(), r.pod().get())))
                        .toList();
                exports.add(new LocalExport(service.namespace(), service.name(), true, service.ports(), Optional.empty(),
                        pods.stream().anyMatch(LocalExport.Backend::ready), pods));
            } else {
                Optional<Ipv4Address> address = records.stream().filter(r -> r.pod().isEmpty()).map(ServiceRecord::address).findFirst();
                address.ifPresent(a -> exports.add(new LocalExport(service.namespace(), service.name(), false, service.ports(), address,
                        readiness.serviceReady(live.clusterId(), service.namespace(), service.name()), List.of())));
            }
        }
        return exports;
    }
}
