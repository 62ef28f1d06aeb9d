package io.periscope.lab.layout;

import io.periscope.model.topology.CableDriver;
import io.periscope.model.topology.CableDriverSpec;
import io.periscope.model.topology.ClusterConnectionPolicy;
import io.periscope.model.topology.ClusterSet;

import java.util.ArrayList;
import java.util.List;

/**
 * The cluster set as the lab can build it: VXLAN and WireGuard cables as planned (WireGuard in user
 * space through {@code wireguard-go}), Libreswan cables as VXLAN, because IPsec needs the kernel's
 * XFRM, which this kernel lacks. The lab and the simulator it is compared with both use this
 * cluster set, so what is proven is what was built, and each substitution is said out loud.
 *
 * @param substitutions one line per cable driver replaced, for the progress output
 */
public record LabCables(ClusterSet set, List<String> substitutions) {

    public LabCables {
        substitutions = List.copyOf(substitutions);
    }

    public static LabCables of(ClusterSet original) {
        List<String> substitutions = new ArrayList<>();
        CableDriver defaultDriver = original.defaultCableDriver();
        if (!runs(defaultDriver)) {
            substitutions.add(note("defaults.cableDriver", defaultDriver));
            defaultDriver = CableDriver.VXLAN;
        }
        List<ClusterConnectionPolicy> policies = new ArrayList<>();
        for (int i = 0; i < original.connectionPolicies().size(); i++) {
            ClusterConnectionPolicy policy = original.connectionPolicies().get(i);
            CableDriver driver = policy.cableDriver().name();
            if (runs(driver)) {
                policies.add(policy);
                continue;
            }
            substitutions.add(note("connectionPolicies[" + i + "].cableDriver", driver));
            // A driver's options (ports, ciphers) belong to that driver; the VXLAN cable takes none.
            policies.add(new ClusterConnectionPolicy(policy.leftClusterSelector(), policy.rightClusterSelector(),
                    CableDriverSpec.of(CableDriver.VXLAN)));
        }
        if (substitutions.isEmpty()) {
            return new LabCables(original, List.of());
        }
        ClusterSet built = new ClusterSet(original.name(), original.globalnet(), defaultDriver, original.clusters(),
                original.connectivityPolicies(), policies, original.flows(), original.cables(), original.behaviour());
        return new LabCables(built, substitutions);
    }

    private static boolean runs(CableDriver driver) {
        return driver != CableDriver.LIBRESWAN;
    }

    private static String note(String field, CableDriver driver) {
        String why = "IPsec needs the kernel's XFRM, which this kernel lacks";
        return field + " " + driver.yamlName() + " runs as vxlan in the lab (" + why + "); the simulator traces vxlan too, so the comparison is like for like";
    }
}
