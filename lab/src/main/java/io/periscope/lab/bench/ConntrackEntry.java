package io.periscope.lab.bench;

import io.periscope.model.net.Ipv4Address;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * One line of {@code conntrack -L}: a connection as a host's connection tracking knows it, by the
 * tuple of its first packet as it arrived ({@code original}) and the tuple its answers are expected
 * with ({@code reply}). Where the host translates the connection, the two differ: the reply is
 * addressed to the SNATed source and comes from the DNATed destination, so a packet that leaves the
 * host after translation has the reply tuple turned around ({@link #translated()}).
 *
 * <p>With {@code net.netfilter.nf_conntrack_acct=1} in the host's namespace when the connection was
 * created, each direction also carries its {@code packets=} and {@code bytes=} counters (the packets
 * and IP bytes this host saw that way); without it, both are empty.
 *
 * @param originalCounters what went the original direction (the way the connection's first packet went)
 * @param replyCounters    what went the reply direction
 */
public record ConntrackEntry(String protocol, Optional<String> state, Tuple original, Tuple reply, Optional<Counters> originalCounters,
                             Optional<Counters> replyCounters) {

    /** A direction's accounting: packets and bytes (IP headers included) this host saw that way. */
    public record Counters(long packets, long bytes) {
    }

    /** An entry read without accounting. */
    public ConntrackEntry(String protocol, Optional<String> state, Tuple original, Tuple reply) {
        this(protocol, state, original, reply, Optional.empty(), Optional.empty());
    }

    /** Whether the host counted this entry's bytes (accounting was on when it was created). */
    public boolean counted() {
        return originalCounters.isPresent() && replyCounters.isPresent();
    }

    /** Addresses and ports of one direction. */
    public record Tuple(Ipv4Address src, Ipv4Address dst, int sport, int dport) {

        /** The other direction's tuple: a reply to this one. */
        public Tuple reversed() {
            return new Tuple(dst, src, dport, sport);
        }

        @Override
        public String toString() {
            return src + ":" + sport + " > " + dst + ":" + dport;
        }
    }

    /** The original direction's packets as they leave this host, after its NAT: the reply tuple turned around. */
    public Tuple translated() {
        return reply.reversed();
    }

    /**
     * Every TCP or UDP entry of {@code conntrack -L}'s output, or of {@code conntrack -E}'s events; lines of other protocols, or
     * without ports, are left out.
     */
    public static List<ConntrackEntry> parse(String listing) {
        List<ConntrackEntry> entries = new ArrayList<>();
        for (String line : listing.split("\n")) {
            parseLine(line).ifPresent(entries::add);
        }
        return entries;
    }

    /**
     * {@code tcp 6 119 TIME_WAIT src=A dst=B sport=P dport=Q [packets=N bytes=M] src=B' dst=A' sport=Q' dport=P' [packets=N' bytes=M']
     * [ASSURED] mark=0 use=1}: the first {@code src dst sport dport} (and counters) are the original direction's, the second the reply's.
     * An event of {@code conntrack -E} is the same line after its type ({@code [DESTROY] tcp 6 120 CLOSE src=...}).
     */
    static Optional<ConntrackEntry> parseLine(String line) {
        String[] words = withoutEventType(line.strip().split("\\s+"));
        if (words.length < 4 || !(words[0].equals("tcp") || words[0].equals("udp"))) {
            return Optional.empty();
        }
        List<String> src = new ArrayList<>();
        List<String> dst = new ArrayList<>();
        List<String> sport = new ArrayList<>();
        List<String> dport = new ArrayList<>();
        List<String> packets = new ArrayList<>();
        List<String> bytes = new ArrayList<>();
        Optional<String> state = Optional.empty();
        // words[1] is the protocol's number; then the timeout and the TCP state, which events may leave out
        for (int i = 2; i < words.length; i++) {
            String word = words[i];
            int equals = word.indexOf('=');
            if (equals < 0) {
                if (state.isEmpty() && src.isEmpty() && !word.startsWith("[") && !word.chars().allMatch(Character::isDigit)) {
                    state = Optional.of(word);
                }
                continue;
            }
            String value = word.substring(equals + 1);
            switch (word.substring(0, equals)) {
                case "src" -> src.add(value);
                case "dst" -> dst.add(value);
                case "sport" -> sport.add(value);
                case "dport" -> dport.add(value);
                case "packets" -> packets.add(value);
                case "bytes" -> bytes.add(value);
                default -> {
                    // mark, use, zone: not needed here
                }
            }
        }
        if (src.size() < 2 || dst.size() < 2 || sport.size() < 2 || dport.size() < 2) {
            return Optional.empty();
        }
        try {
            boolean counted = packets.size() >= 2 && bytes.size() >= 2;
            return Optional.of(new ConntrackEntry(words[0], state,
                    new Tuple(Ipv4Address.parse(src.get(0)), Ipv4Address.parse(dst.get(0)), Integer.parseInt(sport.get(0)), Integer.parseInt(dport.get(0))),
                    new Tuple(Ipv4Address.parse(src.get(1)), Ipv4Address.parse(dst.get(1)), Integer.parseInt(sport.get(1)), Integer.parseInt(dport.get(1))),
                    counted ? Optional.of(new Counters(Long.parseLong(packets.get(0)), Long.parseLong(bytes.get(0)))) : Optional.empty(),
                    counted ? Optional.of(new Counters(Long.parseLong(packets.get(1)), Long.parseLong(bytes.get(1)))) : Optional.empty()));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** The words of a line less an event's type ({@code [NEW]}, {@code [UPDATE]}, {@code [DESTROY]}) before the protocol. */
    private static String[] withoutEventType(String[] words) {
        int first = 0;
        while (first < words.length && words[first].startsWith("[")) {
            first++;
        }
        return first == 0 ? words : Arrays.copyOfRange(words, first, words.length);
    }
}
