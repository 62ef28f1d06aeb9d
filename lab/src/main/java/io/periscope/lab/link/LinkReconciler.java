package io.periscope.lab.link;

import io.periscope.dataplane.command.Command;
import io.periscope.dataplane.command.CommandRunner;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Keeps a lab's links as its {@link LinkPlan} asks, level-driven like the node agents: each pass reads
 * every namespace's qdiscs, classes and filters and its link chains back, compares them with the plan
 * and changes only what differs, with one {@code tc -batch} and one {@code iptables-restore}
 * transaction per namespace. A device whose rate, queue or cables changed gets its tree replaced
 * whole (its queued packets are dropped, as a link's are when it is reconfigured); a device the plan
 * no longer shapes loses the lab's root qdisc; a root qdisc that is not the lab's ({@code tbf 1:}) on
 * a device the plan does not shape is left alone.
 *
 * <p>A namespace the plan asks nothing of is read only until it is found clean: the first pass reads
 * them all (unless the lab was just built, {@link #forNewLab}), later ones only those the plan asks
 * something of or that held something of the layer's.
 */
public final class LinkReconciler {

    private final CommandRunner runner;
    /** Namespaces that may hold something of the link layer's: everything until the first pass found otherwise. */
    private final Set<String> mayHold = new HashSet<>();
    private boolean firstPass;

    private LinkReconciler(CommandRunner runner, boolean everythingMayHold) {
        this.runner = runner;
        this.firstPass = everythingMayHold;
    }

    /** A reconciler of a running lab, which may hold anything of an earlier plan. */
    public static LinkReconciler forRunningLab(CommandRunner runner) {
        return new LinkReconciler(runner, true);
    }

    /** A reconciler of a lab {@code up} has just built: nothing of the link layer is there yet. */
    public static LinkReconciler forNewLab(CommandRunner runner) {
        return new LinkReconciler(runner, false);
    }

    /**
     * What one pass found different and changed.
     *
     * @param differences one line per difference, {@code namespace: what}
     * @param programs    the programs run to change them (reads not counted)
     */
    public record Result(List<String> differences, int programs) {

        public Result {
            differences = List.copyOf(differences);
        }

        public boolean changedNothing() {
            return differences.isEmpty();
        }
    }

    /** Brings every namespace to {@code plan}. @throws io.periscope.dataplane.command.CommandFailedException when a program fails */
    public synchronized Result reconcile(LinkPlan plan) {
        List<String> differences = new ArrayList<>();
        int programs = 0;
        for (NamespaceLinks links : plan.namespaces()) {
            if (!links.asksAnything() && !firstPass && !mayHold.contains(links.namespace())) {
                continue;
            }
            Pass pass = compare(links);
            pass.differences().forEach(d -> differences.add(links.namespace() + ": " + d));
            if (!pass.tcBatch().isEmpty()) {
                runner.run(Command.of("tc", "-n", links.namespace(), "-batch", "-").withStdin(String.join("\n", pass.tcBatch()) + "\n"));
                programs++;
            }
            if (!pass.restore().isEmpty()) {
                runner.run(Command.of("iptables-restore", "-w", "--noflush").withStdin(pass.restore()).inNamespace(links.namespace()));
                programs++;
            }
            if (links.asksAnything()) {
                mayHold.add(links.namespace());
            } else {
                mayHold.remove(links.namespace());
            }
        }
        firstPass = false;
        return new Result(differences, programs);
    }

    /** What differs now, without changing anything. */
    public synchronized List<String> differences(LinkPlan plan) {
        List<String> differences = new ArrayList<>();
        for (NamespaceLinks links : plan.namespaces()) {
            if (links.asksAnything() || firstPass || mayHold.contains(links.namespace())) {
                compare(links).differences().forEach(d -> differences.add(links.namespace() + ": " + d));
            }
        }
        return differences;
    }

    private record Pass(List<String> differences, List<String> tcBatch, String restore) {
    }

    private Pass compare(NamespaceLinks links) {
        String namespace = links.namespace();
        Map<String, TcReadBack.DeviceTc> devices = TcReadBack.qdiscs(runner.run(Command.of("tc", "-n", namespace, "-j", "qdisc", "show")).stdout());
        List<String> differences = new ArrayList<>();
        List<String> batch = new ArrayList<>();
        for (ManagedDevice device : links.devices()) {
            TcReadBack.DeviceTc now = devices.getOrDefault(device.device(),
                    new TcReadBack.DeviceTc(device.device(), "", "", List.of()));
            if (now.labRoot()) {
                now = now.withClasses(runner.run(Command.of("tc", "-n", namespace, "-d", "class", "show", "dev", device.device())).stdout(),
                        runner.run(Command.of("tc", "-n", namespace, "-j", "filter", "show", "dev", device.device(), "parent", TcShaping.HTB)).stdout());
            }
            if (device.shaping().isPresent()) {
                List<String> expected = TcShaping.expected(device);
                if (now.labRoot() && now.lines().equals(expected)) {
                    continue;
                }
                differences.add(device.device() + ": " + tcDifference(now, expected));
                if (!now.defaultRoot()) {
                    batch.add(TcShaping.delete(device.device()));
                }
                batch.addAll(TcShaping.add(device));
            } else if (now.labRoot()) {
                differences.add(device.device() + ": shaped, and the file no longer asks it to be: the lab's qdiscs removed");
                batch.add(TcShaping.delete(device.device()));
            }
        }
        String restore = "";
        if (links.node()) {
            LinkChains.Saved saved = LinkChains.parse(runner.run(Command.of("iptables-save", "-t", "mangle").inNamespace(namespace)).stdout());
            List<String> chains = LinkChains.differences(saved, links.rules());
            if (!chains.isEmpty()) {
                differences.addAll(chains);
                restore = LinkChains.restore(saved, links.rules());
            }
        }
        return new Pass(differences, batch, restore);
    }

    private static String tcDifference(TcReadBack.DeviceTc now, List<String> expected) {
        if (!now.labRoot()) {
            return "not shaped (root qdisc " + (now.rootKind().isEmpty() ? "none" : now.rootKind() + " " + now.rootHandle())
                    + "): the lab's qdiscs added";
        }
        List<String> missing = expected.stream().filter(line -> !now.lines().contains(line)).toList();
        List<String> extra = now.lines().stream().filter(line -> !expected.contains(line)).toList();
        return "shaped otherwise (" + (missing.isEmpty() ? "" : "wanted " + String.join("; ", missing))
                + (missing.isEmpty() || extra.isEmpty() ? "" : "; ") + (extra.isEmpty() ? "" : "found " + String.join("; ", extra))
                + "): its qdiscs replaced";
    }
}
