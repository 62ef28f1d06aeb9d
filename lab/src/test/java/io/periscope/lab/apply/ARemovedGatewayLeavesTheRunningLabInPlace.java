package io.periscope.lab.apply;

import io.periscope.lab.Examples;
import io.periscope.lab.RunningLab;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.layout.SwitchNamespace;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.lab.supervisor.SupervisorFiles;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.load.TopologyWriter;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.ClusterSet;
import io.periscope.plan.HostId;
import io.periscope.plan.link.VxlanDevice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code lab apply} of {@code mag-3-gateways.yaml} without the gateway {@code cluster1/gw-1}: the
 * running lab takes it in place. The gateway's namespace goes (and with it its veths and the bridge's
 * port for it), the lab's state lists only what is left, the supervisor stops its agent, and on every
 * node that remains nothing the kernel holds (routes in every table, nexthop objects, ipsets,
 * iptables rules, VXLAN FDB entries) names any address of the gone gateway, while someone else's
 * rule stays.
 */
class ARemovedGatewayLeavesTheRunningLabInPlace {

    private static final String FOREIGN = "-A FORWARD -d 192.0.2.10/32 -j ACCEPT";

    @TempDir
    Path directory;

    @Test
    void theGatewaysNamespacePortsAndEveryEntryNamingItGoAndAForeignRuleStays() throws Exception {
        RunningLab.assumeRoot();
        ClusterSet first = RunningLab.forTest(Examples.load(Examples.MAG_3_GATEWAYS), "remove");
        Path file = directory.resolve(first.name() + ".yaml");
        Files.writeString(file, TopologyWriter.write(first));
        try (RunningLab lab = RunningLab.upFrom(file, TopologyLoader.load(file), directory.resolve("state"))) {
            HostNamespace gone = lab.layout().requireHost(HostId.node("cluster1", "gw-1"));
            List<String> addresses = addresses(gone);
            String worker = lab.layout().requireHost(HostId.node("cluster1", "worker-1")).namespace();
            assertThat(dump(lab, worker)).as("before: the worker routes to gw-1").containsPattern(anyOf(addresses));
            lab.inNamespace(worker, "iptables", "-A", "FORWARD", "-d", "192.0.2.10/32", "-j", "ACCEPT");
            int portsBefore = bridgePorts(lab);
            List<String> namespacesBefore = lab.stateFile().read(lab.layout().names().hash()).orElseThrow().namespaces();

            Files.writeString(file, TopologyWriter.write(first.withoutNodes(List.of("cluster1/gw-1"))));
            List<String> progress = new ArrayList<>();
            LabApply.Applied applied = new LabApply(lab.stateFile()).run(file, TopologyLoader.load(file), progress::add);

            assertThat(applied.change().removed()).containsExactly(HostId.node("cluster1", "gw-1"));
            assertThat(progress).anySatisfy(line -> assertThat(line).startsWith("apply: cluster1/gw-1 left: 1 namespace deleted"));
            assertThat(NetworkNamespaces.exists(gone.namespace())).isFalse();
            assertThat(lab.stateFile().read(lab.layout().names().hash()).orElseThrow().namespaces())
                    .containsExactlyElementsOf(namespacesBefore.stream().filter(ns -> !ns.equals(gone.namespace())).toList());
            long portsOfGw1 = lab.layout().switches().stream().flatMap(sw -> sw.ports().stream()).filter(p -> p.host().equals(gone.host())).count();
            assertThat(portsOfGw1).isPositive();
            assertThat(bridgePorts(lab)).isEqualTo(portsBefore - portsOfGw1);
            assertThat(new SupervisorFiles(lab.stateFile().directoryFor(lab.layout().names().hash())).readStatus().orElseThrow().nodes())
                    .doesNotContainKey("cluster1/gw-1").containsKey("cluster1/gw-2");
            for (HostNamespace node : lab.layout().nodes()) {
                if (!node.equals(gone)) {
                    assertThat(dump(lab, node.namespace())).as(node.host() + " names none of gw-1's addresses " + addresses)
                            .doesNotContainPattern(anyOf(addresses));
                }
            }
            assertThat(lab.inNamespace(worker, "iptables-save", "-t", "filter")).contains(FOREIGN);
        }
    }

    /** Every address gw-1 had: its interfaces' and its VXLAN devices'. */
    private static List<String> addresses(HostNamespace host) {
        return Stream.concat(host.plan().interfaces().stream().flatMap(i -> i.addresses().stream()),
                host.plan().submariner().vxlanDevices().stream().map(VxlanDevice::address)).map(Ipv4Address::toString).distinct().toList();
    }

    private static Pattern anyOf(List<String> addresses) {
        return Pattern.compile("(?<![0-9.])(" + String.join("|", addresses.stream().map(Pattern::quote).toList()) + ")(?![0-9])");
    }

    /**
     * What a node's kernel holds that could name another host: routes of every table, nexthops, ipsets,
     * rules, and the permanent FDB entries the agents program. Not the entries a learning VXLAN device
     * learned from the frames it received (Periscope turns learning on where several active gateways
     * would otherwise get a copy of every frame): the kernel ages those out (300 s), and no agent
     * programs them.
     */
    private static String dump(RunningLab lab, String namespace) {
        String fdb = lab.inNamespace(namespace, "bridge", "fdb", "show").lines().filter(l -> l.contains(" permanent"))
                .collect(java.util.stream.Collectors.joining("\n"));
        return String.join("\n", lab.inNamespace(namespace, "ip", "route", "show", "table", "all"),
                lab.inNamespace(namespace, "ip", "nexthop", "show"), lab.inNamespace(namespace, "ipset", "save"),
                lab.inNamespace(namespace, "iptables-save"), fdb, lab.inNamespace(namespace, "ip", "rule", "show"));
    }

    private static int bridgePorts(RunningLab lab) {
        int ports = 0;
        for (SwitchNamespace sw : lab.layout().switches()) {
            ports += (int) lab.inNamespace(sw.namespace(), "ip", "-o", "link", "show", "master", SwitchNamespace.BRIDGE).lines().count();
        }
        return ports;
    }
}
