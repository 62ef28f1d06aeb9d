package io.periscope.lab.probe;

import io.periscope.lab.trace.HopDifference;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Everything one flow's probe found: each connection sent, how many paths the simulator gives, and
 * which of them real packets took. The flow matches the simulation when every connection's path is
 * one of the simulator's, field by field; paths that no connection took are reported, not failed
 * (the kernel may never hash onto them).
 *
 * @param problem    set when the flow could not be probed at all (it names nothing in the lab, a
 *                   capture could not open)
 * @param unanswered set when the flow's DNS name gets no answer: unreachable, nothing sent (see {@link #unanswered})
 * @param dns        for a flow written with a DNS name: how it resolved in the lab next to the simulator's answers
 */
public record FlowProbeResult(String name, String from, String to, String resolved, int simulatedPaths,
                              List<ObservedAttempt> attempts, Optional<String> problem, Optional<String> unanswered,
                              Optional<NameResolution> dns) {

    /** What a flow resolves to when nobody answers its name: the text {@code trace --json} writes there. */
    public static final String NO_ADDRESS = "no address";

    public FlowProbeResult {
        attempts = List.copyOf(attempts);
    }

    public FlowProbeResult(String name, String from, String to, String resolved, int simulatedPaths,
                           List<ObservedAttempt> attempts, Optional<String> problem, Optional<String> unanswered) {
        this(name, from, to, resolved, simulatedPaths, attempts, problem, unanswered, Optional.empty());
    }

    public FlowProbeResult withDns(NameResolution resolution) {
        return new FlowProbeResult(name, from, to, resolved, simulatedPaths, attempts, problem, unanswered, Optional.of(resolution));
    }

    public FlowProbeResult(String name, String from, String to, String resolved, int simulatedPaths,
                           List<ObservedAttempt> attempts, Optional<String> problem) {
        this(name, from, to, resolved, simulatedPaths, attempts, problem, Optional.empty());
    }

    /**
     * A flow whose DNS name nobody answers: a real client gets no address and sends nothing, which is
     * what the simulator says (unreachable), so nothing is sent and the flow agrees with the simulation.
     *
     * @param why what Lighthouse lacks, e.g. "nothing answers 'x...': no cluster exports service ns/x"
     */
    public static FlowProbeResult unanswered(String name, String from, String to, String why) {
        return new FlowProbeResult(name, from, to, NO_ADDRESS, 1, List.of(), Optional.empty(), Optional.of(why));
    }

    public boolean matchesSimulation() {
        if (dns.isPresent() && !dns.get().matches()) {
            return false;
        }
        if (unanswered.isPresent()) {
            return problem.isEmpty();
        }
        return problem.isEmpty() && !attempts.isEmpty() && attempts.stream().allMatch(a -> a.match().matches());
    }

    /** The DNS answer's difference first (the packets' path follows from it), then the first path's. */
    public Optional<HopDifference> firstDifference() {
        Optional<HopDifference> answer = dns.flatMap(NameResolution::difference);
        if (answer.isPresent()) {
            return answer;
        }
        return attempts.stream().map(a -> a.match().firstDifference()).flatMap(Optional::stream).findFirst();
    }

    /** The simulated paths (0-based) some connection took and matched. */
    public Set<Integer> pathsSeen() {
        Set<Integer> seen = new TreeSet<>();
        attempts.stream().filter(a -> a.match().matches()).forEach(a -> seen.add(a.match().simulatedPath()));
        return seen;
    }
}
