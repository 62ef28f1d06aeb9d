package io.periscope.features.steps;

import io.periscope.plan.HostId;

import java.util.Arrays;
import java.util.List;

/** Hosts as the scenarios name them: {@code cluster/node} or {@code cluster/namespace/pod}, lists joined by "and" or commas. */
final class HostNames {

    private HostNames() {
    }

    static HostId parse(String text) {
        String[] parts = text.trim().split("/", -1);
        return switch (parts.length) {
            case 2 -> HostId.node(parts[0], parts[1]);
            case 3 -> HostId.pod(parts[0], parts[1], parts[2]);
            default -> throw new IllegalArgumentException("'" + text + "' names no host: write cluster/node or cluster/namespace/pod");
        };
    }

    static List<HostId> parseList(String text) {
        return words(text).stream().map(HostNames::parse).toList();
    }

    /** "a, b and c" as [a, b, c]. */
    static List<String> words(String text) {
        return Arrays.stream(text.split(",|\\band\\b")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }
}
