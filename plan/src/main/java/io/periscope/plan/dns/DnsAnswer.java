package io.periscope.plan.dns;

import java.util.List;
import java.util.Optional;

/**
 * The resolver's answer to one question: the response code, the records of each section, and why:
 * every cluster considered with its verdict, and a note when the name itself explains the code.
 */
public record DnsAnswer(String name, int type, Rcode rcode, List<DnsRecord> answers, List<DnsRecord> authority,
                        List<DnsRecord> additionals, List<ClusterVerdict> clusters, Optional<String> note) {

    public DnsAnswer {
        answers = List.copyOf(answers);
        authority = List.copyOf(authority);
        additionals = List.copyOf(additionals);
        clusters = List.copyOf(clusters);
    }

    /** NOERROR with no answer: the name exists but has no record of the asked type, or no cluster is left to answer. */
    public boolean noData() {
        return rcode == Rcode.NOERROR && answers.isEmpty();
    }

    /** The A records' addresses, in answer order. */
    public List<io.periscope.model.net.Ipv4Address> addresses() {
        return answers.stream().filter(r -> r instanceof DnsRecord.Address).map(r -> ((DnsRecord.Address) r).address()).toList();
    }

    /** Whether clusters export the name's service but none is left to answer: empty, though no type was missing. */
    public boolean nobodyLeft() {
        return rcode == Rcode.NOERROR && answers.isEmpty() && !clusters.isEmpty() && clusters.stream().noneMatch(c -> c.verdict().eligible());
    }

    /** Whether some cluster exported the service but was left out (by policy or health). */
    public boolean leftOut() {
        return clusters.stream().anyMatch(c -> !c.verdict().eligible() && c.verdict() != ClusterVerdict.Verdict.NO_ADDRESS);
    }
}
