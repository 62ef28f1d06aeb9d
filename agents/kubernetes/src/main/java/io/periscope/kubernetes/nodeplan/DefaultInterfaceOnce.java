package io.periscope.kubernetes.nodeplan;

import io.periscope.dataplane.command.CommandRunner;
import io.periscope.dataplane.iproute.DefaultInterface;
import io.periscope.model.topology.NodeLink;
import io.periscope.plan.Names;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;

/**
 * A node agent's default interface, discovered on the node the first time a pass asks for it and kept
 * (an interface's name and MTU do not change under a running agent). Until it is found, for instance
 * while the node has no default route yet, the node is planned with the lab's names and the discovery
 * is tried again at the next pass; the reason is logged once.
 */
public final class DefaultInterfaceOnce {

    private static final Logger LOG = LoggerFactory.getLogger(DefaultInterfaceOnce.class);

    private final CommandRunner runner;
    private final String node;
    private volatile Optional<NodeLink> found = Optional.empty();
    private volatile String lastProblem = "";

    public DefaultInterfaceOnce(CommandRunner runner, String node) {
        this.runner = runner;
        this.node = node;
    }

    public Optional<NodeLink> link() {
        if (found.isPresent()) {
            return found;
        }
        try {
            DefaultInterface discovered = DefaultInterface.discover(runner);
            LOG.info("node {}: default interface {} with MTU {} (VXLAN devices get {})", node, discovered.name(), discovered.mtu(),
                    discovered.mtu() - Names.VXLAN_OVERHEAD);
            found = Optional.of(discovered.link());
        } catch (DefaultInterface.DiscoveryException e) {
            if (!e.getMessage().equals(lastProblem)) {
                LOG.warn("node {}: {}; planning with eth0 and MTU 1500 until it is found", node, e.getMessage());
                lastProblem = e.getMessage();
            }
        }
        return found;
    }
}
