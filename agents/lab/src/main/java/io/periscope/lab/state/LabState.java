package io.periscope.lab.state;

import java.util.List;

/**
 * What {@code lab up} created, written before it creates anything and kept up to date, so that
 * {@code lab down} (or an interrupted {@code up} cleaning after itself) removes exactly that and
 * nothing else, even after a crash. The lab starts no process that outlives a command: the probe's
 * servers and captures are threads of the probing JVM, and {@code ping} is waited for.
 *
 * @param topology   the topology's name
 * @param file       the topology file it was built from
 * @param hash       the hash in every namespace name
 * @param namespaces every namespace this lab creates
 * @param state      {@code building} while {@code up} runs, {@code converged} once it returned
 */
public record LabState(String topology, String file, String hash, List<String> namespaces, String state) {

    public static final String BUILDING = "building";
    public static final String CONVERGED = "converged";

    public LabState {
        namespaces = List.copyOf(namespaces);
    }

    public LabState withState(String newState) {
        return new LabState(topology, file, hash, namespaces, newState);
    }
}
