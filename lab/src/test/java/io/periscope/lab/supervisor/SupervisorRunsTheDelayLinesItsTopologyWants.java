package io.periscope.lab.supervisor;

import io.periscope.lab.Examples;
import io.periscope.lab.RunningLab;
import io.periscope.lab.link.DelayLineSpec;
import io.periscope.lab.link.DelayLineStatus;
import io.periscope.model.load.TopologyWriter;
import io.periscope.plan.HostId;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The supervisor hosts the delay lines its spec function asks for, next to the agents: a lab of
 * {@code mag-globalnet.yaml} whose worker-1 queues its pings to gw-1 (queue 9, a rule this test
 * adds, as {@code lab up} will add a link's), a supervisor run in this JVM from a function whose answer
 * the test changes: the line starts and delays the pings, a changed delay is taken within a tick,
 * the status file reports the line, and an empty answer stops it and leaves no {@code delayLines} in the
 * file, which is then what it was before delay lines existed.
 */
class SupervisorRunsTheDelayLinesItsTopologyWants {

    /** cluster1's gw-1, on worker-1's own network. */
    private static final String GW1 = "172.18.0.6";
    private static final Pattern MINIMUM = Pattern.compile("rtt min/avg/max/mdev = ([0-9.]+)/");

    @TempDir
    Path state;

    private RunningLab lab;
    private LabSupervisor supervisor;
    private Thread running;

    @BeforeEach
    void needsRoot() {
        RunningLab.assumeRoot();
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (supervisor != null) {
            supervisor.close();
            running.join(10_000);
        }
        if (lab != null) {
            lab.close();
        }
    }

    @Test
    void linesFollowTheSpecFunctionAndShowInTheStatus() throws Exception {
        lab = RunningLab.upWithoutSupervisor(RunningLab.forTest(Examples.load(Examples.MAG_GLOBALNET), "delaylines"), state);
        String hash = lab.layout().names().hash();
        String worker1 = lab.layout().host(HostId.node("cluster1", "worker-1")).orElseThrow().namespace();
        // Only this test's pings (200-byte packets): the agent's health probes to gw-1 go undelayed.
        lab.inNamespace(worker1, "iptables", "-t", "mangle", "-I", "POSTROUTING", "-p", "icmp", "-d", GW1, "-m", "length", "--length", "200",
                "-j", "NFQUEUE", "--queue-num", "9");
        SupervisorFiles files = new SupervisorFiles(lab.stateFile().directoryFor(hash));
        files.writeAtomically(files.topology(), TopologyWriter.write(lab.set().withFlows(List.of())));
        files.writeStoppedNodes(Set.of());
        AtomicReference<List<DelayLineSpec>> wanted = new AtomicReference<>(
                List.of(new DelayLineSpec(worker1, 9, Duration.ofMillis(30), Duration.ZERO)));
        supervisor = new LabSupervisor(lab.stateFile(), hash, topology -> wanted.get());
        running = Thread.ofPlatform().name("supervisor-under-test").start(() -> {
            try {
                supervisor.run();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        String key = worker1 + "/9";

        SupervisorStatus started = await(files, s -> s.delayLines().containsKey(key) && s.delayLines().get(key).running());
        assertThat(started.delayLines().get(key).delayMillis()).isEqualTo(30.0);
        // The fastest of 20 round trips: never before the line's delay, and not much after it even on a busy machine.
        assertThat(fastestRtt(worker1)).isBetween(30.0, 31.5);
        SupervisorStatus counted = await(files, s -> s.delayLines().get(key).delayed() >= 20);
        DelayLineStatus line = counted.delayLines().get(key);
        assertThat(line.holding().minMicros()).isGreaterThanOrEqualTo(30_000.0);
        String written = Files.readString(files.status());
        System.out.println(written);
        assertThat(written).contains("\"delayLines\"").contains("\"lateness\"");

        wanted.set(List.of(new DelayLineSpec(worker1, 9, Duration.ofMillis(5), Duration.ZERO)));
        await(files, s -> s.delayLines().get(key).delayMillis() == 5.0);
        assertThat(fastestRtt(worker1)).isBetween(5.0, 6.5);

        wanted.set(List.of());
        await(files, s -> s.delayLines().isEmpty());
        assertThat(Files.readString(files.status())).doesNotContain("delayLines");
        assertThat(threads(worker1)).isEmpty();
        // The rule stays, and nothing serves its queue: the pings are lost, as a missing line should show.
        assertThat(lab.inNamespace(worker1, "bash", "-c", "ping -s 172 -c 2 -i 0.1 -W 1 " + GW1 + " >/dev/null; echo $?").strip()).isNotEqualTo("0");

        wanted.set(List.of(new DelayLineSpec(worker1, 9, Duration.ofMillis(5), Duration.ZERO)));
        await(files, s -> s.delayLines().containsKey(key) && s.delayLines().get(key).running());
        supervisor.close();
        running.join(10_000);
        assertThat(running.isAlive()).isFalse();
        assertThat(threads(worker1)).as("closing the supervisor stops its delay lines").isEmpty();
    }

    private double fastestRtt(String namespace) {
        Matcher m = MINIMUM.matcher(lab.inNamespace(namespace, "ping", "-q", "-s", "172", "-c", "20", "-i", "0.05", "-W", "2", GW1));
        assertThat(m.find()).isTrue();
        return Double.parseDouble(m.group(1));
    }

    private static List<String> threads(String namespace) {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName).filter(n -> n.startsWith("delay-line-" + namespace)).toList();
    }

    private static SupervisorStatus await(SupervisorFiles files, Predicate<SupervisorStatus> condition) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        SupervisorStatus last = null;
        while (System.nanoTime() < deadline) {
            last = files.readStatus().orElse(null);
            if (last != null && condition.test(last)) {
                return last;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("the supervisor's status did not come to the expected state within 30 s; last: "
                + (last == null ? "none" : last.delayLines()));
    }
}
