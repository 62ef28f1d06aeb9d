package io.periscope.simulator.conntrack;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.Protocol;
import io.periscope.simulator.trace.Packet;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A state's summary of its hosts (one bit per host index modulo 64) only lets a lookup skip a host
 * that has no entry: hosts 64 apart share a bit, and each still finds its own entries and only those.
 */
class ConntrackStateFindsEntriesByHost {

    private static final Packet SYN = Packet.of(Ipv4Address.parse("10.0.1.4"), Ipv4Address.parse("10.0.2.5"), 40000, 80, Protocol.TCP);

    private static Connection on(int host) {
        return new Connection(host, ConnTuple.of(SYN), ConnTuple.inverseOf(SYN), false, false, 0);
    }

    @Test
    void aHostWithoutEntriesFindsNothingEvenWhenAHost64ApartHasOne() {
        ConntrackState state = ConntrackState.EMPTY.with(on(65));

        assertThat(state.find(1, SYN)).isNull();
        assertThat(state.find(2, SYN)).isNull();
        assertThat(state.entriesOf(1)).isEmpty();
        assertThat(state.replyTupleInUse(1, ConnTuple.inverseOf(SYN))).isFalse();
    }

    @Test
    void eachOfTwoHosts64ApartFindsItsOwnEntryInEitherDirection() {
        Connection first = on(1);
        Connection far = on(65);
        ConntrackState state = ConntrackState.EMPTY.with(first).with(far);

        assertThat(state.find(1, SYN).connection()).isSameAs(first);
        assertThat(state.find(65, SYN).connection()).isSameAs(far);
        assertThat(state.find(65, SYN.answer()).reply()).isTrue();
        assertThat(state.entriesOf(1)).isEqualTo(List.of(first));
        assertThat(state.replyTupleInUse(65, ConnTuple.inverseOf(SYN))).isTrue();
    }
}
