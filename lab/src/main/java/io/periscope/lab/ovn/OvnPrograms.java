package io.periscope.lab.ovn;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the Open vSwitch and OVN programs a lab cluster on OVN runs, by absolute path: the daemons
 * live in {@code /usr/sbin}, which a non-login PATH often lacks, and {@code ip netns exec} runs what
 * it is given by that PATH.
 */
public final class OvnPrograms {

    /** Each program the datapath of {@link OvnCluster} runs, and the Debian package that installs it. */
    static final Map<String, String> DATAPATH = programs();

    private OvnPrograms() {
    }

    private static Map<String, String> programs() {
        Map<String, String> programs = new LinkedHashMap<>();
        programs.put("ovsdb-tool", "openvswitch-common");
        programs.put("ovsdb-server", "openvswitch-common");
        programs.put("ovs-vsctl", "openvswitch-switch");
        programs.put("ovs-appctl", "openvswitch-common");
        programs.put("ovs-vswitchd", "openvswitch-switch");
        programs.put("ovn-northd", "ovn-central");
        programs.put("ovn-nbctl", "ovn-common");
        programs.put("ovn-sbctl", "ovn-common");
        programs.put("ovn-controller", "ovn-host");
        programs.put("ethtool", "ethtool");
        return Map.copyOf(programs);
    }

    /** Why a cluster on OVN cannot run here (programs or schemas missing, with their packages), or empty when it can. */
    public static Optional<String> datapathUnavailable() {
        List<String> missing = new ArrayList<>();
        DATAPATH.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .filter(e -> resolve(e.getKey()).isEmpty())
                .forEach(e -> missing.add(e.getKey() + " (Debian " + e.getValue() + ")"));
        for (Path schema : List.of(OvnSchemas.NORTHBOUND, OvnSchemas.SOUTHBOUND, OvnSchemas.VSWITCH)) {
            if (!Files.isRegularFile(schema)) {
                missing.add(schema + " (Debian " + (schema.equals(OvnSchemas.VSWITCH) ? "openvswitch-common" : "ovn-common") + ")");
            }
        }
        return missing.isEmpty() ? Optional.empty()
                : Optional.of("Open vSwitch / OVN is not fully installed: missing " + String.join(", ", missing)
                        + "; ./run-tests as root installs openvswitch-switch, ovn-host, ovn-central and ethtool");
    }

    /** The program on PATH, or in /usr/sbin and /sbin. */
    static Optional<String> resolve(String program) {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
        dirs.addAll(List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin"));
        return dirs.stream().filter(d -> !d.isEmpty()).map(d -> Path.of(d, program)).filter(Files::isExecutable).map(Path::toString).findFirst();
    }

    /** The absolute path of {@code name}, or a failure naming the package that has it. */
    static String program(String name) {
        return resolve(name).orElseThrow(() -> new IllegalStateException(name + " is not installed (Debian "
                + DATAPATH.getOrDefault(name, "ovn-central") + ")"));
    }

    /** The schemas the databases are created from. */
    static final class OvnSchemas {
        static final Path NORTHBOUND = Path.of("/usr/share/ovn/ovn-nb.ovsschema");
        static final Path SOUTHBOUND = Path.of("/usr/share/ovn/ovn-sb.ovsschema");
        static final Path VSWITCH = Path.of("/usr/share/openvswitch/vswitch.ovsschema");

        private OvnSchemas() {
        }
    }
}
