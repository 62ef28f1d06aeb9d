package io.periscope.lab.agent;

import io.periscope.dataplane.change.BuiltinChainChange;
import io.periscope.dataplane.change.DataplaneChange;
import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.ovs.BridgeChange;
import io.periscope.dataplane.ovs.NodeBridge;
import io.periscope.dataplane.ovs.OvsBridgeProgrammer;
import io.periscope.dataplane.reconcile.NetfilterPicture;
import io.periscope.dataplane.reconcile.Ownership;
import io.periscope.dataplane.reconcile.ReconcileResult;
import io.periscope.dataplane.reconcile.Reconciler;
import io.periscope.dataplane.watch.KernelWatch;
import io.periscope.dataplane.watch.NetlinkKernelWatch;
import io.periscope.lab.layout.HostNamespace;
import io.periscope.lab.netns.NamespaceThread;
import io.periscope.plan.DataplanePlan;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The lab's node agents, both the dataplane {@link Reconciler} running its programs inside the
 * node's namespace (from a thread of the namespace, see {@link NamespaceCommandRunner}): Periscope's
 * own agent with exactly the ownership it has on a real node, and a stand-in for kube-proxy that
 * owns only {@code KUBE-} chains.
 */
public final class ReconcilingAgents implements LayerAgents {

    private final Map<String, NamespaceThread> threads = new ConcurrentHashMap<>();
    private final Map<String, NetfilterPicture> pictures = new ConcurrentHashMap<>();
    /** Each namespace's watches, so that a node that leaves can let its namespace go ({@link #release}). */
    private final Map<String, List<KernelWatch>> watches = new ConcurrentHashMap<>();

    /** kube-proxy's chains and nothing else: no sets, devices, tables or route protocols of its own. */
    static final Ownership KUBE_PROXY = new Ownership(List.of("KUBE-"), List.of(), List.of(), Set.of(), Set.of());

    @Override
    public LayerAgent kubeProxy(HostNamespace node) {
        return new KubeProxyAgent(new Reconciler(runner(node), KUBE_PROXY, watch(node), picture(node)), node.plan().kubeProxy());
    }

    @Override
    public LayerAgent submariner(HostNamespace node) {
        return new PeriscopeAgent(new Reconciler(runner(node), Ownership.submariner(), watch(node), picture(node)), node.plan().submariner());
    }

    /**
     * On an OVN node, the same agent first keeps the node's bridges ({@link OvsBridgeProgrammer},
     * the code the route agent runs on a real node): the layer's routes through {@code ovn-k8s-sub0}
     * need the port.
     */
    @Override
    public LayerAgent submariner(HostNamespace node, NodeOvs ovs) {
        return new OvnNodeAgent(bridgeProgrammer(node, ovs.database()), ovs.bridges(),
                new PeriscopeAgent(new Reconciler(runner(node), Ownership.submariner(), watch(node), picture(node)), node.plan().submariner()));
    }

    /** Periscope's agent's keeper of the node's bridges, running its programs inside the node's namespace. */
    public OvsBridgeProgrammer bridgeProgrammer(HostNamespace node, String database) {
        return new OvsBridgeProgrammer(runner(node), Optional.of(database));
    }

    /**
     * Periscope's agent's reconciler for the node, for an agent that decides what to program pass by
     * pass (the lab's supervisor withdraws dead gateways' choices from the plan first).
     */
    public Reconciler submarinerReconciler(HostNamespace node) {
        return new Reconciler(runner(node), Ownership.submariner(), watch(node));
    }

    private NamespaceCommandRunner runner(HostNamespace node) {
        return new NamespaceCommandRunner(thread(node));
    }

    /**
     * The node's tables as last read or committed, shared by its two agents: each otherwise reads
     * with {@code iptables-save} what the other just committed (kube-proxy's rules run to hundreds
     * of kilobytes per node in a lab of thousands of pods). Believed only at the generation the
     * kernel reports, as each agent's own picture is.
     */
    private NetfilterPicture picture(HostNamespace node) {
        return pictures.computeIfAbsent(node.namespace(), namespace -> new NetfilterPicture());
    }

    private NamespaceThread thread(HostNamespace node) {
        return threads.computeIfAbsent(node.namespace(), NamespaceThread::enter);
    }

    /**
     * A watch of the node's namespace for one reconciler (each must drain its own notifications),
     * opened from the namespace's thread; without one the reconciler simply reads everything.
     */
    private KernelWatch watch(HostNamespace node) {
        KernelWatch watch;
        try {
            watch = thread(node).call(NetlinkKernelWatch::open);
        } catch (RuntimeException e) {
            watch = KernelWatch.NONE;
        }
        watches.computeIfAbsent(node.namespace(), ns -> new CopyOnWriteArrayList<>()).add(watch);
        return watch;
    }

    /**
     * Closes what the agents hold inside the namespace (its thread, its netlink watches): a namespace
     * lives on, with its interfaces, as long as a thread or a socket is in it, so a node that leaves
     * the cluster ({@code lab apply}) must be let go before its namespace is deleted.
     */
    public void release(String namespace) {
        List<KernelWatch> held = watches.remove(namespace);
        if (held != null) {
            held.forEach(KernelWatch::close);
        }
        NamespaceThread thread = threads.remove(namespace);
        if (thread != null) {
            thread.close();
        }
        pictures.remove(namespace);
    }

    @Override
    public void close() {
        watches.values().forEach(held -> held.forEach(KernelWatch::close));
        watches.clear();
        threads.values().forEach(NamespaceThread::close);
        threads.clear();
        pictures.clear();
    }

    private record PeriscopeAgent(Reconciler reconciler, DataplanePlan layer) implements LayerAgent {
        public List<String> reconcile() {
            ReconcileResult result = reconciler.reconcile(layer);
            return result.applied().stream().map(Command::toString).toList();
        }

        public List<String> pendingChanges() {
            return reconciler.diffWithKernel(layer).changes().stream().map(DataplaneChange::toString).toList();
        }
    }

    private record OvnNodeAgent(OvsBridgeProgrammer bridges, List<NodeBridge> wanted, PeriscopeAgent layer) implements LayerAgent {
        public List<String> reconcile() {
            List<String> ran = new ArrayList<>(bridges.program(wanted).stream().map(BridgeChange::toString).toList());
            ran.addAll(layer.reconcile());
            return ran;
        }

        public List<String> pendingChanges() {
            List<String> pending = new ArrayList<>(bridges.pending(wanted).stream().map(BridgeChange::toString).toList());
            pending.addAll(layer.pendingChanges());
            return pending;
        }
    }

    /**
     * kube-proxy runs before Periscope, whose agent then puts its own jumps on top of the built-in
     * chains, as it does on every real node; kube-proxy's jumps being second is then no difference
     * for kube-proxy. (Re-reconciling it would put them back on top, and the two would take turns.)
     */
    private record KubeProxyAgent(Reconciler reconciler, DataplanePlan layer) implements LayerAgent {
        public List<String> reconcile() {
            ReconcileResult result = reconciler.reconcile(layer);
            return result.applied().stream().map(Command::toString).toList();
        }

        public List<String> pendingChanges() {
            return reconciler.diffWithKernel(layer).changes().stream()
                    .filter(change -> !(change instanceof BuiltinChainChange builtin && builtin.before().equals(builtin.after())))
                    .map(DataplaneChange::toString).toList();
        }
    }
}
