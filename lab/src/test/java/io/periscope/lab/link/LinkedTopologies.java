package io.periscope.lab.link;

import io.periscope.model.load.TopologyException;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.topology.ClusterSet;

/** Small topologies with links, for the link layer's tests; {@code name} keeps each lab's namespaces its own. */
final class LinkedTopologies {

    private LinkedTopologies() {
    }

    /**
     * Two clusters of a gateway and a worker each, a pod on each worker, a VXLAN cable between the
     * gateways; {@code eastWorker}, {@code eastGateway} and {@code cable} are the links' properties as
     * the file writes them (empty for none), e.g. {@code rate: 20mbit, loss: 10%}.
     */
    static ClusterSet twoClusters(String name, String eastWorker, String eastGateway, String cable) {
        String text = """
                name: %s
                defaults:
                  cableDriver: vxlan
                clusters:
                  - name: east
                    podCIDRs: [10.41.0.0/16]
                    serviceCIDRs: [100.41.0.0/16]
                    nodes:
                      - {name: east-gw, ip: 172.31.41.2, cniIP: 10.41.0.1, gateway: true%s}
                      - {name: east-worker, ip: 172.31.41.3, cniIP: 10.41.1.1%s}
                    pods:
                      - {name: client, namespace: default, node: east-worker, ip: 10.41.1.10, labels: {app: client}}
                  - name: west
                    podCIDRs: [10.42.0.0/16]
                    serviceCIDRs: [100.42.0.0/16]
                    nodes:
                      - {name: west-gw, ip: 172.31.42.2, cniIP: 10.42.0.1, gateway: true}
                      - {name: west-worker, ip: 172.31.42.3, cniIP: 10.42.1.1}
                    pods:
                      - {name: server, namespace: default, node: west-worker, ip: 10.42.1.10, labels: {app: server}}
                %s""".formatted(name, uplink(eastGateway), uplink(eastWorker),
                cable.isEmpty() ? "" : "cables:\n  - {between: [east, west], " + cable + "}\n");
        try {
            return TopologyLoader.parse(text, name + ".yaml");
        } catch (TopologyException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    private static String uplink(String properties) {
        return properties.isEmpty() ? "" : ", uplink: {" + properties + "}";
    }
}
