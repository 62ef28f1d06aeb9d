package io.periscope.lab.dns;

import io.periscope.dataplane.TestNamespace;
import io.periscope.dns.ClustersetZone;
import io.periscope.lab.netns.NetworkNamespaces;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.dns.DnsRecord;
import io.periscope.plan.dns.Rotation;
import io.periscope.plan.dns.ServiceDiscovery;
import io.periscope.planner.Planner;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The glibc resolver of a namespace, configured as the lab configures a pod's, asks a DNS server
 * running inside the namespace on a cluster DNS address, and gets the resolver's answers. Runs as
 * root in a namespace of its own, which it removes with its resolver files.
 */
class GlibcInAPodNamespaceResolvesThroughTheClusterDnsServer {

    private static final Ipv4Address DNS_ADDRESS = Ipv4Address.parse("10.96.0.10");

    private record Lookup(int status, List<String> addresses) {
    }

    private static List<String> run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).as(String.join(" ", command)).isTrue();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(String.join(" ", command) + ": " + output).isZero();
        return output.lines().toList();
    }

    private static Lookup getent(String namespace, String name) throws Exception {
        Process process = new ProcessBuilder("ip", "netns", "exec", namespace, "getent", "ahostsv4", name).redirectErrorStream(true).start();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        List<String> addresses = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines()
                .filter(l -> l.contains("STREAM")).map(l -> l.split("\\s+")[0]).toList();
        return new Lookup(process.exitValue(), addresses);
    }

    @Test
    void namesResolveToTheResolversAnswersAndAMissingNameToNothing() throws Exception {
        Assumptions.assumeTrue(NetworkNamespaces.runningAsRoot(), "needs root to create a network namespace and write /etc/netns");
        String namespace = "pdns-" + ProcessHandle.current().pid();
        var plan = Planner.plan(TopologyLoader.load(Path.of("../examples/globalnet-egress.yaml")));
        ServiceDiscovery discovery = ServiceDiscovery.of(plan);
        run("ip", "netns", "add", TestNamespace.deletedOnExit(namespace));
        try {
            run("ip", "-n", namespace, "link", "set", "lo", "up");
            run("ip", "-n", namespace, "address", "add", DNS_ADDRESS + "/32", "dev", "lo");
            PodResolverFiles.SYSTEM.write(namespace, DNS_ADDRESS);
            try (NamespaceDnsServer ignored = NamespaceDnsServer.start(namespace, DNS_ADDRESS,
                    new ClustersetZone(Optional.of("east"), discovery))) {
                for (String name : List.of("nginx.default.svc.clusterset.local", "http.myproject.svc.clusterset.local",
                        "http-1.west.http.myproject.svc.clusterset.local")) {
                    List<String> expected = discovery.answer(name, DnsRecord.A, Optional.of("east"), Rotation.FIRST).addresses().stream()
                            .map(Ipv4Address::toString).toList();
                    Lookup lookup = getent(namespace, name);
                    assertThat(lookup.status()).as(name).isZero();
                    assertThat(lookup.addresses()).as(name).containsExactlyInAnyOrderElementsOf(expected);
                }
                assertThat(getent(namespace, "ghost.default.svc.clusterset.local").status()).as("NXDOMAIN: getent finds nothing").isEqualTo(2);
            }
        } finally {
            PodResolverFiles.SYSTEM.remove(namespace);
            run("ip", "netns", "del", namespace);
        }
    }
}
