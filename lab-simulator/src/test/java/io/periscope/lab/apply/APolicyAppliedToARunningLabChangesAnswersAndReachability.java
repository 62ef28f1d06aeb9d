package io.periscope.lab.apply;

import io.periscope.lab.Examples;
import io.periscope.lab.LabRefusal;
import io.periscope.lab.RunningLab;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.probe.FlowProbeResult;
import io.periscope.lab.probe.LabProbe;
import io.periscope.lab.probe.ProbeReport;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.dataplane.command.CommandResult;
import io.periscope.lab.state.LabState;
import io.periscope.lab.supervisor.SupervisorFiles;
import io.periscope.labsimulator.SimulatorFlows;
import io.periscope.model.load.TopologyLoader;
import io.periscope.model.net.Ipv4Address;
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
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A lab of {@code globalnet-egress.yaml} (east asks, west exports nginx) built from a file, whose
 * file is then edited and applied while it runs: a connectivity policy that keeps the two clusters
 * apart takes west's nginx out of east's answers and makes packets to its global IP meet an
 * unreachable route, as the simulator says; the original applied back brings both back. How long
 * the answers took to change, from the hand-over to the supervisor and from apply's return, is
 * printed (docs/benchmarks.md, "DNS answers after a policy change in the lab"), and only held to a
 * generous bound. An edit that moves a pod is refused and changes nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class APolicyAppliedToARunningLabChangesAnswersAndReachability {

    private static final String NGINX = "nginx.default.svc.clusterset.local";
    private static final long PATIENCE_MILLIS = 15_000;

    @TempDir
    static Path directory;

    private final ProcessCommandRunner runner = ProcessCommandRunner.here();
    private RunningLab lab;
    private Path file;
    private String original;
    private Ipv4Address nginx;
    private HostNamespace asker;

    @BeforeAll
    void up() throws Exception {
        RunningLab.assumeRoot();
        String name = "labtest-apply-" + ProcessHandle.current().pid();
        String text = Files.readString(Examples.file(Examples.GLOBALNET_EGRESS)).replace("name: globalnet-egress\n", "name: " + name + "\n");
        nginx = ServiceDiscovery.of(Examples.plan(Examples.GLOBALNET_EGRESS)).answer(NGINX, DnsRecord.A, Optional.of("east"), Rotation.FIRST)
                .addresses().getFirst();
        // A flow to the address as well as the name: with the clusters apart the name gets no answer and nothing is sent.
        original = text + "  - {name: web-to-nginx-address, from: east/default/web, to: " + nginx + ":8080, protocol: tcp, expect: delivered}\n";
        file = directory.resolve(name + ".yaml");
        Files.writeString(file, original);
        lab = RunningLab.upFrom(file, TopologyLoader.load(file), directory.resolve("state"));
        asker = lab.layout().hosts().stream().filter(h -> h.host().toString().equals("east/default/web")).findFirst().orElseThrow();
    }

    @AfterAll
    void down() {
        if (lab != null) {
            lab.close();
        }
    }

    private String apart() {
        return original.replace("flows:\n", TopologyChangeSaysWhatARunningLabCanTakeInPlace.APART + "flows:\n");
    }

    private record Answer(long at, int status, String addresses) {
    }

    /** Applies {@code text} while a pod of east asks for nginx all the time; milliseconds until the answer passes {@code changed}. */
    private long[] applyWhileAsking(String text, java.util.function.Predicate<Answer> changed) throws Exception {
        ConcurrentLinkedQueue<Answer> answers = new ConcurrentLinkedQueue<>();
        AtomicBoolean asking = new AtomicBoolean(true);
        Thread asker = Thread.ofPlatform().start(() -> {
            while (asking.get()) {
                CommandResult result = runner.execute(Command.of("getent", "ahostsv4", NGINX).inNamespace(this.asker.namespace()));
                answers.add(new Answer(System.nanoTime(), result.exitCode(), result.stdout()));
            }
        });
        try {
            Files.writeString(file, text);
            LabApply.Applied applied = new LabApply(lab.stateFile()).run(file, TopologyLoader.load(file), line -> { });
            long returned = System.nanoTime();
            assertThat(applied.handedOver()).isPositive();
            long deadline = returned + PATIENCE_MILLIS * 1_000_000;
            while (System.nanoTime() < deadline) {
                Optional<Answer> first = answers.stream().filter(a -> a.at() > applied.handedOver()).filter(changed).findFirst();
                if (first.isPresent()) {
                    return new long[] {(first.get().at() - applied.handedOver()) / 1_000_000, (first.get().at() - returned) / 1_000_000, applied.millis()};
                }
                Thread.sleep(5);
            }
            throw new AssertionError("east's answer for " + NGINX + " did not change " + PATIENCE_MILLIS + " ms after apply returned");
        } finally {
            asking.set(false);
            asker.join();
        }
    }

    private ProbeReport probe() throws Exception {
        return new LabProbe(runner, lab.stateFile(), SimulatorFlows::new).run(file, TopologyLoader.load(file), Optional.empty(), line -> { });
    }

    private static FlowProbeResult flow(ProbeReport report, String name) {
        return report.flows().stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    @Order(1)
    void aPolicyThatKeepsTheClustersApartTakesNginxOutOfTheAnswersAndThePacketsMeetNoRoute() throws Exception {
        assertThat(lab.inNamespace(asker.namespace(), "getent", "ahostsv4", NGINX)).contains(nginx.toString());

        long[] gone = applyWhileAsking(apart(), a -> a.status() == 2);

        System.out.println("dns after lab apply of a policy keeping east and west apart: no address (empty NOERROR) " + gone[0]
                + " ms after the hand-over to the supervisor, " + gone[1] + " ms after apply returned (apply took " + gone[2] + " ms)");
        assertThat(gone[0]).isLessThan(PATIENCE_MILLIS);
        ProbeReport report = probe();
        assertThat(report.matchesSimulation()).as(report.toString()).isTrue();
        // The name: no address in the lab nor in the simulator; the probe still sends to the address it had, as to the address flow.
        FlowProbeResult name = flow(report, "web-to-nginx");
        assertThat(name.dns()).hasValueSatisfying(d -> {
            assertThat(d.observed()).isEmpty();
            assertThat(d.simulated()).isEmpty();
        });
        for (FlowProbeResult flow : List.of(name, flow(report, "web-to-nginx-address"))) {
            assertThat(flow.attempts()).as(flow.name()).isNotEmpty()
                    .allSatisfy(a -> assertThat(a.observed().disposition()).isEqualTo("unreachable"))
                    .anySatisfy(a -> assertThat(a.outcome().problem()).hasValueSatisfying(p -> assertThat(p).contains("No route to host")));
        }
    }

    @Test
    @Order(2)
    void theOriginalAppliedBackBringsAnswersAndPacketsBack() throws Exception {
        long[] back = applyWhileAsking(original, a -> a.status() == 0 && a.addresses().contains(nginx.toString()));

        System.out.println("dns after lab apply of the original policies: the address back " + back[0]
                + " ms after the hand-over to the supervisor, " + back[1] + " ms after apply returned (apply took " + back[2] + " ms)");
        // Level-driven health checking of the new cables must not take west out again while the agents program them.
        long watchUntil = System.nanoTime() + 2_000_000_000L;
        while (System.nanoTime() < watchUntil) {
            CommandResult result = runner.execute(Command.of("getent", "ahostsv4", NGINX).inNamespace(asker.namespace()));
            assertThat(result.exitCode()).as("east's answer for " + NGINX + " after it came back").isZero();
        }
        ProbeReport report = probe();
        assertThat(report.matchesSimulation()).as(report.toString()).isTrue();
        assertThat(flow(report, "web-to-nginx-address").attempts()).isNotEmpty()
                .allSatisfy(a -> assertThat(a.observed().disposition()).isEqualTo("delivered"));
        assertThat(flow(report, "web-to-nginx").dns()).hasValueSatisfying(d -> assertThat(d.observed()).containsExactly(nginx));
    }

    @Test
    @Order(3)
    void anEditThatMovesAPodIsRefusedAndChangesNothing() throws Exception {
        LabState before = lab.stateFile().read(lab.layout().names().hash()).orElseThrow();
        SupervisorFiles files = new SupervisorFiles(lab.stateFile().directoryFor(before.hash()));
        String revision = files.revision();
        Files.writeString(file, original.replace("ip: 10.244.1.10, labels: {app: nginx}", "ip: 10.244.1.11, labels: {app: nginx}"));

        assertThatThrownBy(() -> new LabApply(lab.stateFile()).run(file, TopologyLoader.load(file), line -> { }))
                .isInstanceOf(LabRefusal.class)
                .hasMessageContaining("clusters: cluster 'west' changed its pods")
                .hasMessageContaining("'lab down " + file + "', then 'lab up " + file + "'");

        assertThat(lab.stateFile().read(before.hash()).orElseThrow().sourceSha256()).isEqualTo(before.sourceSha256());
        assertThat(files.revision()).isEqualTo(revision);
        assertThat(files.directory().resolve("topology.yaml.next")).doesNotExist();
        Files.writeString(file, original);
        assertThat(lab.inNamespace(asker.namespace(), "getent", "ahostsv4", NGINX)).contains(nginx.toString());
    }
}
