package io.periscope.model.topology;

/** A ServiceExport: the service {@code namespace/name} is offered to the cluster set. */
public record ServiceExport(String namespace, String name) {

    @Override
    public String toString() {
        return namespace + "/" + name;
    }
}
