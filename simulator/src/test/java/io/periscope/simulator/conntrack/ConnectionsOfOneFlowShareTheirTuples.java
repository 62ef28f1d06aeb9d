package io.periscope.simulator.conntrack;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Protocol;
import io.periscope.simulator.trace.Packet;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hosts along a path confirm the same tuples hop after hop: a connection confirmed like one of
 * another host shares its tuple packets and listed entry where they are the same, and is still the
 * connection it would be without (equal, and listed the same).
 */
class ConnectionsOfOneFlowShareTheirTuples {

    private static final Packet SYN = Packet.of(Ipv4Address.parse("10.0.1.4"), Ipv4Address.parse("10.0.2.5"), 40000, 80, Protocol.TCP);
    /** The SYN as the next host sees it: one TTL less, the same flow. */
    private static final Packet FORWARDED = SYN.withTtl(63);

    @Test
    void aConnectionOfTheSameFlowSharesBothTuplesAndTheEntry() {
        Connection first = Connection.confirmed(1, SYN, SYN, false, false, 0);
        first.listed();
        Connection like = ConntrackState.EMPTY.with(first).recentFlow(FORWARDED);

        Connection next = Connection.confirmed(2, FORWARDED, FORWARDED, false, false, 0, like);

        assertThat(next).isEqualTo(Connection.confirmed(2, FORWARDED, FORWARDED, false, false, 0));
        assertThat(next.original()).isSameAs(first.original());
        assertThat(next.reply()).isSameAs(first.reply());
        assertThat(next.listed()).isSameAs(first.listed());
    }

    @Test
    void aConnectionNattedOnItsHostKeepsAReplyTupleOfItsOwn() {
        Connection first = Connection.confirmed(1, SYN, SYN, false, false, 0);
        Packet snatted = FORWARDED.withSource(Ipv4Address.parse("242.254.1.1"), 40000);

        Connection next = Connection.confirmed(2, FORWARDED, snatted, true, false, 0, first);

        assertThat(next).isEqualTo(Connection.confirmed(2, FORWARDED, snatted, true, false, 0));
        assertThat(next.original()).isSameAs(first.original());
        assertThat(next.reply().dst()).isEqualTo(Ipv4Address.parse("242.254.1.1"));
        assertThat(next.listed()).isEqualTo(Connection.confirmed(2, FORWARDED, snatted, true, false, 0).listed());
    }

    @Test
    void anotherFlowSharesNothing() {
        Connection first = Connection.confirmed(1, SYN, SYN, false, false, 0);
        Packet other = SYN.withSource(Ipv4Address.parse("10.0.1.5"), 40000);

        assertThat(ConntrackState.EMPTY.with(first).recentFlow(other)).isNull();
        Connection next = Connection.confirmed(2, other, other, false, false, 0, first);
        assertThat(next).isEqualTo(Connection.confirmed(2, other, other, false, false, 0));
        assertThat(next.original()).isNotSameAs(first.original());
    }
}
