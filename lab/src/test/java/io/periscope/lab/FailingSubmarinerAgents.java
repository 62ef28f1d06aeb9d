package io.periscope.lab;

import io.periscope.lab.agent.LayerAgent;
import io.periscope.lab.agent.LayerAgents;
import io.periscope.lab.agent.ReconcilingAgents;
import io.periscope.lab.layout.HostNamespace;

import java.util.List;

/**
 * The real agents, except Submariner's, which fails as a node whose iptables refuses a rule would:
 * kube-proxy's chains are in the kernel by then, so a failed {@code up} has real state to remove.
 */
public final class FailingSubmarinerAgents implements LayerAgents {

    private final ReconcilingAgents real = new ReconcilingAgents();

    @Override
    public LayerAgent kubeProxy(HostNamespace node) {
        return real.kubeProxy(node);
    }

    @Override
    public LayerAgent submariner(HostNamespace node) {
        return new LayerAgent() {
            public List<String> reconcile() {
                throw new IllegalStateException("iptables-restore refused line 3 on " + node.host());
            }

            public List<String> pendingChanges() {
                return List.of("everything");
            }
        };
    }

    @Override
    public void close() {
        real.close();
    }
}
