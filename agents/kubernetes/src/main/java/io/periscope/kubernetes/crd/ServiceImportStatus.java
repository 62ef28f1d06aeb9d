package io.periscope.kubernetes.crd;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/** The MCS API's ServiceImport status: the clusters that export the service. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ServiceImportStatus(List<ClusterStatus> clusters) {

    public ServiceImportStatus {
        clusters = clusters == null ? List.of() : List.copyOf(clusters);
    }

    public record ClusterStatus(String cluster) {
    }
}
