package io.periscope.model.load;

import java.util.HashSet;
import java.util.Set;

/**
 * The parts of a file that had a mistake serious enough to leave them out of the records (a node
 * without an address, a service whose clusterIP is malformed), or to leave a list short (podCIDRs with
 * one malformed entry). The mistake itself is already reported; the semantic checks consult this so
 * that they do not add a second, misleading error about its consequences, such as "pod on unknown
 * node" for a pod whose node was left out.
 */
final class IncompleteParts {

    private final Set<String> keys = new HashSet<>();

    void globalnet() {
        keys.add("globalnet");
    }

    void node(String cluster, String node) {
        keys.add("node " + cluster + "/" + node);
    }

    /** Some node of the cluster was left out, maybe one without a name, maybe a gateway. */
    void someNode(String cluster) {
        keys.add("nodes " + cluster);
    }

    void pod(String cluster, String namespace, String pod) {
        keys.add("pod " + cluster + "/" + namespace + "/" + pod);
    }

    void service(String cluster, String namespace, String service) {
        keys.add("service " + cluster + "/" + namespace + "/" + service);
    }

    void podCidrs(String cluster) {
        keys.add("podCIDRs " + cluster);
    }

    void serviceCidrs(String cluster) {
        keys.add("serviceCIDRs " + cluster);
    }

    boolean hasGlobalnet() {
        return keys.contains("globalnet");
    }

    boolean hasNode(String cluster, String node) {
        return keys.contains("node " + cluster + "/" + node);
    }

    boolean hasSomeNode(String cluster) {
        return keys.contains("nodes " + cluster);
    }

    boolean hasPod(String cluster, String namespace, String pod) {
        return keys.contains("pod " + cluster + "/" + namespace + "/" + pod);
    }

    boolean hasService(String cluster, String namespace, String service) {
        return keys.contains("service " + cluster + "/" + namespace + "/" + service);
    }

    boolean hasPodCidrs(String cluster) {
        return keys.contains("podCIDRs " + cluster);
    }

    boolean hasServiceCidrs(String cluster) {
        return keys.contains("serviceCIDRs " + cluster);
    }
}
