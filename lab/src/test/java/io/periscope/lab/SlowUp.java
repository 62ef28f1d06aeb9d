package io.periscope.lab;

import io.periscope.lab.agent.LayerAgent;
import io.periscope.lab.agent.LayerAgents;
import io.periscope.lab.agent.ReconcilingAgents;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.dataplane.command.ProcessCommandRunner;
import io.periscope.lab.state.LabStateFile;
import io.periscope.lab.up.LabUp;

import java.nio.file.Path;
import java.util.List;

/**
 * {@code lab up} in a process of its own whose kube-proxy phase takes a few seconds, for the test
 * that interrupts it: {@code SlowUp STATE_DIRECTORY TOPOLOGY_NAME}. Prints each progress line.
 */
public final class SlowUp {

    private SlowUp() {
    }

    public static void main(String[] args) {
        ReconcilingAgents real = new ReconcilingAgents();
        LayerAgents slow = new LayerAgents() {
            public LayerAgent kubeProxy(HostNamespace node) {
                return new LayerAgent() {
                    public List<String> reconcile() {
                        try {
                            Thread.sleep(3_000);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return List.of();
                    }

                    public List<String> pendingChanges() {
                        return List.of();
                    }
                };
            }

            public LayerAgent submariner(HostNamespace node) {
                return real.submariner(node);
            }

            public void close() {
                real.close();
            }
        };
        try {
            new LabUp(ProcessCommandRunner.here(), new LabStateFile(Path.of(args[0])), slow)
                    .run(Path.of(args[1] + ".yaml"), Examples.renamed(Examples.load(Examples.GLOBALNET_EGRESS), args[1]), line -> {
                        System.out.println(line);
                        System.out.flush();
                    });
        } catch (IllegalStateException interrupted) {
            // The phase after the signal refuses to start; the command line treats that failure as the
            // signal's consequence and prints nothing of it, and so does this stand-in for it.
        }
    }
}
