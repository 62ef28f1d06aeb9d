package io.periscope.features.kubernetes;

import io.periscope.dataplane.command.CommandRunner;
import io.periscope.dataplane.health.IcmpEchoProber;
import io.periscope.dataplane.health.Prober;
import io.periscope.dataplane.watch.KernelWatch;
import io.periscope.dataplane.watch.NetlinkKernelWatch;
import io.periscope.lab.agent.NamespaceCommandRunner;
import io.periscope.lab.layout.LabLayout;
import io.periscope.lab.netns.NamespaceThread;
import io.periscope.plan.HostId;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * The lab's node namespaces as the kernels of the production node agents: each node's programs run
 * from a thread living in that node's namespace ({@link NamespaceCommandRunner}, the runner the lab's
 * own agents use), so {@code iptables-restore}, {@code ipset} and {@code ip} change that node and
 * nothing else, as they would on the node a DaemonSet pod runs on with host networking. Each agent's
 * reconciler gets a netlink watch opened inside the namespace, as {@code periscope-agent} opens one
 * on its host, and probes the gateways it sends to from inside the namespace, so that a gateway
 * the lab fails is found dead by the agents' own health checks.
 */
public final class LabNodeKernels implements NodeKernels {

    private final LabLayout layout;
    private final Map<String, NamespaceThread> threads = new ConcurrentHashMap<>();
    private final List<KernelWatch> watches = new CopyOnWriteArrayList<>();

    public LabNodeKernels(LabLayout layout) {
        this.layout = layout;
    }

    /** The namespace the lab built for {@code cluster/node}. */
    public String namespace(String cluster, String node) {
        return layout.requireHost(HostId.node(cluster, node)).namespace();
    }

    @Override
    public CommandRunner runner(String cluster, String node) {
        return new NamespaceCommandRunner(thread(cluster, node));
    }

    /** Without a watch (a kernel that refuses the netlink socket) the reconciler reads everything every pass: slower, as correct. */
    @Override
    public KernelWatch watch(String cluster, String node) {
        KernelWatch watch;
        try {
            watch = thread(cluster, node).call(NetlinkKernelWatch::open);
        } catch (RuntimeException e) {
            watch = KernelWatch.NONE;
        }
        watches.add(watch);
        return watch;
    }

    /** ICMP echo requests from a raw socket in the node's namespace, as the agents send them from the host they run on. */
    @Override
    public Supplier<Prober> probers(String cluster, String node) {
        String namespace = namespace(cluster, node);
        return () -> IcmpEchoProber.openIn(namespace);
    }

    @Override
    public boolean routeAgents() {
        return true;
    }

    private NamespaceThread thread(String cluster, String node) {
        return threads.computeIfAbsent(namespace(cluster, node), NamespaceThread::enter);
    }

    @Override
    public void close() {
        watches.forEach(KernelWatch::close);
        watches.clear();
        threads.values().forEach(NamespaceThread::close);
        threads.clear();
    }
}
