package io.periscope.lab.dns;

import io.periscope.lab.Examples;
import io.periscope.lab.RunningLab;
import io.periscope.lab.failover.FailureMode;
import io.periscope.lab.failover.LabFailure;
import io.periscope.lab.failover.UpLab;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.dataplane.command.CommandResult;
import io.periscope.lab.state.SupervisorProcess;
import io.periscope.lab.supervisor.SupervisorStop;
import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.ClusterSetPlan;
import io.periscope.plan.dns.DnsRecord;
import io.periscope.plan.dns.Rotation;
import io.periscope.plan.dns.ServiceDiscovery;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A lab of {@code globalnet-egress.yaml} (east asks, west exports a ClusterIP and a headless service;
 * one gateway each) with its supervisor, as {@code lab up} leaves it: glibc's resolver in every pod
 * namespace gets its cluster's answers from the server inside the cluster, through the pod's
 * {@code resolv.conf}, the DNS Service address and the node's DNAT; a node asks the Service address
 * with {@code dig}. Failing west's gateway takes west out of east's answers and healing it puts it
 * back: how long each took is printed (docs/benchmarks.md, "DNS answers after a gateway failure"),
 * not asserted. {@code lab down} then leaves no resolver file and no server.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PodsResolveThroughTheirClustersDnsServerInTheLab {

    private static final String NGINX = "nginx.default.svc.clusterset.local";
    private static final String WEST_GATEWAY = "west/west-gw";
    /** Far beyond the second it takes, so that a loaded machine does not fail the test; the figures are printed. */
    private static final long PATIENCE_MILLIS = 15_000;
    private static final int CYCLES = 5;

    @TempDir
    static Path state;

    private final ProcessCommandRunner runner = ProcessCommandRunner.here();
    private RunningLab lab;
    private SupervisorProcess supervisor;

    @BeforeAll
    void up() {
        RunningLab.assumeRoot();
        lab = RunningLab.up(RunningLab.forTest(Examples.load(Examples.GLOBALNET_EGRESS), "dns"), state);
        supervisor = lab.supervisor();
    }

    @AfterAll
    void down() {
        if (lab != null) {
            lab.close();
        }
    }

    private record Lookup(int status, List<Ipv4Address> addresses) {
    }

    private Lookup getent(HostNamespace pod, String name) {
        CommandResult result = runner.execute(Command.of("getent", "ahostsv4", name).inNamespace(pod.namespace()));
        return new Lookup(result.exitCode(), result.stdout().lines().filter(l -> l.contains("STREAM"))
                .map(l -> Ipv4Address.parse(l.split("\\s+")[0])).toList());
    }

    private HostNamespace host(String reference) {
        return lab.layout().hosts().stream().filter(h -> h.host().toString().equals(reference)).findFirst().orElseThrow();
    }

    @Test
    @Order(1)
    void glibcInEveryPodGetsItsClustersAnswersAndANodeGetsThemFromTheServiceAddress() throws Exception {
        ClusterSetPlan plan = lab.plan();
        ServiceDiscovery discovery = ServiceDiscovery.of(plan);
        List<String> names = discovery.names().stream().filter(n -> !n.startsWith("_")).toList();
        assertThat(names).contains(NGINX, "http.myproject.svc.clusterset.local", "http-1.west.http.myproject.svc.clusterset.local");
        int lookups = 0;
        for (HostNamespace pod : lab.layout().hosts().stream().filter(h -> !h.isNode()).toList()) {
            assertThat(Files.readString(PodResolverFiles.SYSTEM.directory(pod.namespace()).resolve(PodResolverFiles.RESOLV_CONF)))
                    .contains("nameserver 10.96.0.10");
            for (String name : names) {
                List<Ipv4Address> expected = discovery.answer(name, DnsRecord.A, Optional.of(pod.host().cluster()), Rotation.FIRST).addresses();
                Lookup lookup = getent(pod, name);
                if (expected.isEmpty()) {
                    assertThat(lookup.status()).as(pod.host() + " " + name + ": no address").isEqualTo(2);
                } else {
                    assertThat(lookup.status()).as(pod.host() + " " + name).isZero();
                    assertThat(lookup.addresses()).as(pod.host() + " " + name).containsExactlyInAnyOrderElementsOf(expected);
                }
                lookups++;
            }
            assertThat(getent(pod, "ghost.default.svc.clusterset.local").status()).as("NXDOMAIN").isEqualTo(2);
        }
        assertThat(lookups).isGreaterThan(10);
        String dig = lab.inNamespace(host("east/east-gw").namespace(), "dig", "+short", "@10.96.0.10", NGINX, "A");
        assertThat(dig.strip()).isEqualTo(discovery.answer(NGINX, DnsRecord.A, Optional.of("east"), Rotation.FIRST).addresses().getFirst().toString());
    }

    @Test
    @Order(2)
    void aFailedGatewaysClusterLeavesTheAnswersAndComesBackAfterTheHeal() throws Exception {
        HostNamespace asker = host("east/default/web");
        Ipv4Address nginx = getent(asker, NGINX).addresses().getFirst();
        UpLab up = UpLab.of(Path.of(lab.set().name() + ".yaml"), lab.set(), lab.stateFile(), "test");
        LabFailure failure = new LabFailure(runner);
        List<FailureMode> modes = new ArrayList<>(List.of(FailureMode.CRASH));
        if (Files.isExecutable(Path.of("/usr/sbin/nft"))) {
            modes.add(FailureMode.BLACKHOLE);
        }
        for (FailureMode mode : modes) {
            List<Long> gone = new ArrayList<>();
            List<Long> back = new ArrayList<>();
            for (int cycle = 0; cycle < CYCLES; cycle++) {
                failure.fail(up, WEST_GATEWAY, mode, line -> { });
                long failed = System.nanoTime();
                gone.add(until(asker, l -> l.status() == 2, failed, mode + ": east still gets west's " + NGINX));
                failure.heal(up, WEST_GATEWAY, line -> { });
                long healed = System.nanoTime();
                back.add(until(asker, l -> l.status() == 0 && l.addresses().equals(List.of(nginx)), healed,
                        mode + ": east does not get west's " + NGINX + " back"));
            }
            System.out.println("dns after " + mode + " of " + WEST_GATEWAY + " (" + CYCLES + " cycles): no address (empty NOERROR) after " + gone
                    + " ms, the address back after the heal after " + back + " ms");
        }
        assertThat(lab.inNamespace(asker.namespace(), "getent", "ahostsv4", NGINX)).contains(nginx.toString());
    }

    /** Milliseconds from {@code since} until a lookup in {@code pod} passes {@code test}. */
    private long until(HostNamespace pod, Predicate<Lookup> test, long since, String failure) throws InterruptedException {
        while (System.nanoTime() - since < PATIENCE_MILLIS * 1_000_000) {
            if (test.test(getent(pod, NGINX))) {
                return (System.nanoTime() - since) / 1_000_000;
            }
            Thread.sleep(5);
        }
        throw new AssertionError(failure + " " + PATIENCE_MILLIS + " ms later");
    }

    @Test
    @Order(3)
    void downRemovesTheResolverFilesAndStopsTheServers() {
        List<String> namespaces = lab.layout().namespaces();
        assertThat(namespaces.stream().filter(n -> Files.isDirectory(PodResolverFiles.SYSTEM.directory(n)))).isNotEmpty();

        lab.down();

        assertThat(namespaces).allSatisfy(n -> assertThat(PodResolverFiles.SYSTEM.directory(n)).doesNotExist());
        assertThat(SupervisorStop.running(supervisor)).isFalse();
        assertThat(lab.namespacesOnTheMachine()).isEmpty();
    }
}
