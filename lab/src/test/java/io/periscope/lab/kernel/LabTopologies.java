package io.periscope.lab.kernel;

import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;

/** Small topologies for the kernel tests that bring up a whole lab; {@code name} keeps each lab's namespaces its own. */
final class LabTopologies {

    private LabTopologies() {
    }

    /**
     * Two kube-proxy clusters of a gateway and a worker each, a pod on each worker, a VXLAN cable
     * between the gateways; {@code east} has a second gateway, active beside the first, when
     * {@code eastMultiActive}.
     */
    static ClusterSet twoClusters(String name, boolean eastMultiActive) {
        String text = """
                name: %s
                defaults:
                  cableDriver: vxlan
                clusters:
                  - name: east
                    podCIDRs: [10.51.0.0/16]
                    serviceCIDRs: [100.51.0.0/16]
                    multiActiveGateways: %s
                    nodes:
                      - {name: east-gw, ip: 172.31.51.2, cniIP: 10.51.0.1, gateway: true}
                %s      - {name: east-worker, ip: 172.31.51.3, cniIP: 10.51.1.1}
                    pods:
                      - {name: client, namespace: default, node: east-worker, ip: 10.51.1.10, labels: {app: client}}
                  - name: west
                    podCIDRs: [10.52.0.0/16]
                    serviceCIDRs: [100.52.0.0/16]
                    nodes:
                      - {name: west-gw, ip: 172.31.52.2, cniIP: 10.52.0.1, gateway: true}
                      - {name: west-worker, ip: 172.31.52.3, cniIP: 10.52.1.1}
                    pods:
                      - {name: server, namespace: default, node: west-worker, ip: 10.52.1.10, labels: {app: server}}
                """.formatted(name, eastMultiActive,
                eastMultiActive ? "      - {name: east-gw2, ip: 172.31.51.4, cniIP: 10.51.2.1, gateway: true}\n" : "");
        try {
            return TopologyLoader.parse(text, name + ".yaml");
        } catch (TopologyException e) {
            throw new IllegalStateException(e.report(), e);
        }
    }
}
