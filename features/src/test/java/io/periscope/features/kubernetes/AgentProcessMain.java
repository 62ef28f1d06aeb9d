package io.periscope.features.kubernetes;

import io.periscope.kubernetes.main.AgentCommand;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;

/**
 * What an agent process of the kubernetes-on-lab backend runs: the production entry point
 * ({@link AgentCommand}, as the DaemonSets' and Deployments' containers run it), behind two lines of
 * the harness's own. It says how long the JVM took from the process's start to here (the backend's
 * start-up figure), and it stops the agent when its standard input ends: the harness holds the other
 * end, so an agent never outlives the test JVM that started it, even one killed without its
 * shutdown hooks. Stopping is {@code System.exit}, which runs the agent's own hook (a leader releases
 * its Lease), as SIGTERM does in a pod.
 */
public final class AgentProcessMain {

    /** The line the harness reads the start-up time from. */
    static final String STARTED = "periscope-agent-process: main after ";

    private AgentProcessMain() {
    }

    public static void main(String[] args) {
        Instant start = ProcessHandle.current().info().startInstant().orElse(Instant.now());
        System.out.println(STARTED + Duration.between(start, Instant.now()).toMillis() + " ms");
        Thread.ofPlatform().daemon().name("parent-watch").start(() -> {
            try {
                while (System.in.read() >= 0) {
                    // The harness writes nothing; it only keeps the pipe open.
                }
            } catch (IOException e) {
                // A broken pipe is an ended parent as well.
            }
            System.exit(0);
        });
        AgentCommand.main(args);
    }
}
