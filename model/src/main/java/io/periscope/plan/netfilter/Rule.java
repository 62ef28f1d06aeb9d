package io.periscope.plan.netfilter;

import java.util.List;
import java.util.Optional;

/**
 * One iptables rule: every match must hold, then the target applies. The optional comment is
 * rendered as {@code -m comment --comment}, as kube-proxy and Submariner do, and carries no meaning.
 */
public record Rule(List<Match> matches, Target target, Optional<String> comment) {

    public Rule {
        matches = List.copyOf(matches);
    }

    public static Rule of(Target target, Match... matches) {
        return new Rule(List.of(matches), target, Optional.empty());
    }

    public Rule withComment(String text) {
        return new Rule(matches, target, Optional.of(text));
    }
}
