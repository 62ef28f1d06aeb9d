package io.periscope.model.globalnet;

import io.periscope.model.net.Ipv4Prefix;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The broker's hand-out: each cluster's global CIDR, in cluster order, and the clusters it could
 * not serve. A cluster named in {@code failures} has no entry in {@code cidrs}.
 */
public record GlobalCidrAssignment(Map<String, Ipv4Prefix> cidrs, List<GlobalCidrFailure> failures) {

    public static final GlobalCidrAssignment NONE = new GlobalCidrAssignment(Map.of(), List.of());

    public GlobalCidrAssignment {
        // LinkedHashMap keeps cluster order, which reports and plans show.
        cidrs = Collections.unmodifiableMap(new LinkedHashMap<>(cidrs));
        failures = List.copyOf(failures);
    }

    public boolean succeeded() {
        return failures.isEmpty();
    }

    public Optional<Ipv4Prefix> cidrOf(String cluster) {
        return Optional.ofNullable(cidrs.get(cluster));
    }
}
