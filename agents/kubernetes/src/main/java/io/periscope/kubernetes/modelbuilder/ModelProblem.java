package io.periscope.kubernetes.modelbuilder;

/**
 * An object the model builder left out, and why: a pod without an address, a GlobalEgressIP with
 * a selector the model cannot express, a CIDR that does not parse. The builder never throws over
 * one bad object; the snapshot prints these and the agents log them.
 *
 * @param object {@code Kind namespace/name} (or {@code Kind name} for cluster-scoped objects)
 */
public record ModelProblem(String object, String problem) {

    @Override
    public String toString() {
        return object + ": " + problem;
    }
}
