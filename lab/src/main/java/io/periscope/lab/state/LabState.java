package io.periscope.lab.state;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@code lab up} created, written before it creates anything and kept up to date, so that
 * {@code lab down} (or an interrupted {@code up} cleaning after itself) removes exactly that and
 * nothing else, even after a crash. The only processes the lab leaves running are the
 * {@code wireguard-go} daemons of WireGuard cables, each recorded as soon as it started; the
 * probe's servers and captures are threads of the probing JVM, and {@code ping} is waited for.
 *
 * @param topology   the topology's name
 * @param file       the topology file it was built from
 * @param hash       the hash in every namespace name
 * @param namespaces every namespace this lab creates
 * @param state      {@code building} while {@code up} runs, {@code converged} once it returned
 * @param wireGuard  every {@code wireguard-go} started so far
 * @param sourceSha256 the SHA-256 of the file's bytes when {@code up} (or the last {@code apply}) read it (see {@link TopologySource});
 *                   empty when it had no file, {@code null} in state files written before it was recorded
 * @param supervisor the supervisor keeping the agents running once {@code up} converged (null before, or without one)
 * @param failures   the nodes {@code lab fail} failed and {@code lab heal} has not healed yet
 * @param links      what {@code up} made of the links (shaped devices, loss, delay), as its progress line says; empty for none
 * @param ovnRunDirectories the run directory of every OVN-Kubernetes cluster's daemons (databases, ovn-northd, each node's
 *                   ovsdb-server, ovs-vswitchd and ovn-controller), listed before the first daemon starts: they detach,
 *                   and a running daemon keeps its namespace alive, so {@code down} stops them by their pid files first
 */
public record LabState(String topology, String file, String hash, List<String> namespaces, String state,
                       List<WireGuardProcess> wireGuard, String sourceSha256, SupervisorProcess supervisor, List<NodeFailure> failures,
                       String links, List<String> ovnRunDirectories) {

    public static final String BUILDING = "building";
    public static final String CONVERGED = "converged";

    public LabState {
        namespaces = List.copyOf(namespaces);
        // State files written before WireGuard was real have no such field.
        wireGuard = wireGuard == null ? List.of() : List.copyOf(wireGuard);
        failures = failures == null ? List.of() : List.copyOf(failures);
        // State files written before links were shaped have none.
        links = links == null ? "" : links;
        // State files written before the lab ran OVN have none.
        ovnRunDirectories = ovnRunDirectories == null ? List.of() : List.copyOf(ovnRunDirectories);
    }

    public LabState(String topology, String file, String hash, List<String> namespaces, String state,
                    List<WireGuardProcess> wireGuard, String sourceSha256, SupervisorProcess supervisor, List<NodeFailure> failures,
                    String links) {
        this(topology, file, hash, namespaces, state, wireGuard, sourceSha256, supervisor, failures, links, List.of());
    }

    public LabState(String topology, String file, String hash, List<String> namespaces, String state,
                    List<WireGuardProcess> wireGuard, String sourceSha256, SupervisorProcess supervisor, List<NodeFailure> failures) {
        this(topology, file, hash, namespaces, state, wireGuard, sourceSha256, supervisor, failures, "");
    }

    public LabState(String topology, String file, String hash, List<String> namespaces, String state,
                    List<WireGuardProcess> wireGuard, String sourceSha256) {
        this(topology, file, hash, namespaces, state, wireGuard, sourceSha256, null, List.of());
    }

    public LabState(String topology, String file, String hash, List<String> namespaces, String state) {
        this(topology, file, hash, namespaces, state, List.of(), "");
    }

    public LabState(String topology, TopologySource source, String hash, List<String> namespaces, String state) {
        this(topology, source.file(), hash, namespaces, state, List.of(), source.sha256());
    }

    public LabState withState(String newState) {
        return new LabState(topology, file, hash, namespaces, newState, wireGuard, sourceSha256, supervisor, failures, links, ovnRunDirectories);
    }

    public LabState withWireGuard(WireGuardProcess started) {
        List<WireGuardProcess> all = new ArrayList<>(wireGuard);
        all.add(started);
        return new LabState(topology, file, hash, namespaces, state, all, sourceSha256, supervisor, failures, links, ovnRunDirectories);
    }

    public LabState withSupervisor(SupervisorProcess started) {
        return new LabState(topology, file, hash, namespaces, state, wireGuard, sourceSha256, started, failures, links, ovnRunDirectories);
    }

    /** The lab as {@code lab apply} left it: built from the same file, which now has these bytes. */
    public LabState withSourceSha256(String applied) {
        return new LabState(topology, file, hash, namespaces, state, wireGuard, applied, supervisor, failures, links, ovnRunDirectories);
    }

    /**
     * The lab once {@code lab apply} deleted the namespaces of the nodes and pods an edit removed: it
     * lists only those left, and forgets a removed node's failure.
     */
    public LabState withoutNamespaces(java.util.Collection<String> deleted, java.util.Collection<String> removedNodes) {
        return new LabState(topology, file, hash, namespaces.stream().filter(ns -> !deleted.contains(ns)).toList(), state, wireGuard,
                sourceSha256, supervisor, failures.stream().filter(f -> !removedNodes.contains(f.node())).toList(), links);
    }

    /** The lab as {@code up} shaped its links. */
    public LabState withLinks(String summary) {
        return new LabState(topology, file, hash, namespaces, state, wireGuard, sourceSha256, supervisor, failures, summary, ovnRunDirectories);
    }

    /** The lab with one more OVN run directory, recorded before its daemons start. */
    public LabState withOvnRunDirectory(String directory) {
        List<String> all = new ArrayList<>(ovnRunDirectories);
        all.add(directory);
        return new LabState(topology, file, hash, namespaces, state, wireGuard, sourceSha256, supervisor, failures, links, all);
    }

    public java.util.Optional<NodeFailure> failure(String node) {
        return failures.stream().filter(f -> f.node().equals(node)).findFirst();
    }

    public LabState withFailure(NodeFailure failure) {
        List<NodeFailure> all = new ArrayList<>(failures);
        all.removeIf(f -> f.node().equals(failure.node()));
        all.add(failure);
        return new LabState(topology, file, hash, namespaces, state, wireGuard, sourceSha256, supervisor, all, links, ovnRunDirectories);
    }

    public LabState withoutFailure(String node) {
        List<NodeFailure> all = new ArrayList<>(failures);
        all.removeIf(f -> f.node().equals(node));
        return new LabState(topology, file, hash, namespaces, state, wireGuard, sourceSha256, supervisor, all, links, ovnRunDirectories);
    }
}
