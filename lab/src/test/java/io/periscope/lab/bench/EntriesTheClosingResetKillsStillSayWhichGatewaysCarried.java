package io.periscope.lab.bench;

import io.periscope.model.net.Ipv4Address;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One connection of a bench over three active gateways per cluster under L4 hashing, as the lab's
 * gateways held it (lines from {@code conntrack -L} in the lab, ports as the bench chose them): its
 * SYN left through cluster1/gw-3, its answers came back through cluster1/gw-2, and its forward bytes
 * crossed cluster2/gw-3. When the streams end the kernel kills at once the entries that never saw a
 * reply and then see a reset, so a reading after the run lost the answers' entry and the remote
 * gateway's entry went to CLOSE; readings during the run kept them. The kernel's deletion events
 * ({@code conntrack -E -e DESTROY}) keep them too, even between two readings.
 */
class EntriesTheClosingResetKillsStillSayWhichGatewaysCarried {

    private static final ConntrackEntry.Tuple SENT = new ConntrackEntry.Tuple(Ipv4Address.parse("10.1.100.4"), Ipv4Address.parse("10.2.100.5"),
            21001, 5201);

    private static final String SYN_ONLY = "tcp      6 117 SYN_SENT src=10.1.100.4 dst=10.2.100.5 sport=21001 dport=5201 packets=1 bytes=60"
            + " [UNREPLIED] src=10.2.100.5 dst=10.1.100.4 sport=5201 dport=21001 packets=0 bytes=0 mark=0 use=1";
    private static final String ANSWERS_DURING = "tcp      6 300 ESTABLISHED src=10.2.100.5 dst=10.1.100.4 sport=5201 dport=21001 packets=724"
            + " bytes=37648 [UNREPLIED] src=10.1.100.4 dst=10.2.100.5 sport=21001 dport=5201 packets=0 bytes=0 mark=0 use=1";
    private static final String REMOTE_DURING = "tcp      6 299 ESTABLISHED src=10.1.100.4 dst=10.2.100.5 sport=21001 dport=5201 packets=1001"
            + " bytes=1448511 src=10.2.100.5 dst=10.1.100.4 sport=5201 dport=21001 packets=700 bytes=36400 [ASSURED] mark=0 use=1";
    private static final String REMOTE_AFTER = "tcp      6 9 CLOSE src=10.1.100.4 dst=10.2.100.5 sport=21001 dport=5201 packets=2256"
            + " bytes=3271057 src=10.2.100.5 dst=10.1.100.4 sport=5201 dport=21001 packets=1300 bytes=67600 [ASSURED] mark=0 use=1";

    private static Map<String, List<ConntrackEntry>> reading(String gw2, String gw3) {
        return Map.of("cluster1/gw-2", ConntrackEntry.parse(gw2), "cluster1/gw-3", ConntrackEntry.parse(gw3));
    }

    @Test
    void aReadingDuringTheRunKeepsTheEntriesTheResetKilled() {
        ConnectionTables local = new ConnectionTables();
        ConnectionTables remote = new ConnectionTables();
        local.add(reading(ANSWERS_DURING, SYN_ONLY));
        remote.add(Map.of("cluster2/gw-3", ConntrackEntry.parse(REMOTE_DURING)));
        local.add(reading("", SYN_ONLY));
        remote.add(Map.of("cluster2/gw-3", ConntrackEntry.parse(REMOTE_AFTER)));

        GatewayPassage passage = GatewayPassage.of(SENT, local.entries(), remote.entries());

        assertThat(passage.mainLocal()).contains("cluster1/gw-3");
        assertThat(passage.mainRemote()).contains("cluster2/gw-3");
        assertThat(passage.remoteBytes()).containsEntry("cluster2/gw-3", 3_271_057L);
        assertThat(local.entries().get("cluster1/gw-2")).as("the answers' entry, gone from the last reading").hasSize(1);
        assertThat(local.readings()).isEqualTo(2);
    }

    @Test
    void anEntryReadAgainReplacesItsEarlierReading() {
        ConnectionTables remote = new ConnectionTables();
        remote.add(Map.of("cluster2/gw-3", ConntrackEntry.parse(REMOTE_DURING)));
        remote.add(Map.of("cluster2/gw-3", ConntrackEntry.parse(REMOTE_AFTER)));

        assertThat(remote.entries().get("cluster2/gw-3")).singleElement()
                .satisfies(e -> assertThat(e.originalCounters()).contains(new ConntrackEntry.Counters(2256, 3_271_057)));
    }

    @Test
    void withTheLastReadingAloneTheLocalSideLosesTheAnswersAndKeepsOnlyTheSyn() {
        ConnectionTables local = new ConnectionTables();
        local.add(reading("", SYN_ONLY));

        assertThat(local.entries().get("cluster1/gw-2")).isEmpty();
        assertThat(GatewayPassage.of(SENT, local.entries(), Map.of()).localBytes()).containsExactly(Map.entry("cluster1/gw-3", 60L));
    }

    /** {@code conntrack -E -e DESTROY} as it printed a connection refused with a reset (the entry the kernel kills at once). */
    private static final String RESET_KILLED = "[DESTROY] tcp      6 120 CLOSE src=10.1.100.4 dst=10.2.100.5 sport=21001 dport=5201 packets=1"
            + " bytes=60 [UNREPLIED] src=10.2.100.5 dst=10.1.100.4 sport=5201 dport=21001 packets=1 bytes=40";
    private static final String ANSWERS_DELETED = "[DESTROY] tcp      6 src=10.2.100.5 dst=10.1.100.4 sport=5201 dport=21001 packets=1300"
            + " bytes=67600 [UNREPLIED] src=10.1.100.4 dst=10.2.100.5 sport=21001 dport=5201 packets=0 bytes=0";

    @Test
    void aDeletionEventReadsAsTheTablesLineWithItsFinalCounters() {
        ConntrackEntry killed = ConntrackEntry.parse(RESET_KILLED).getFirst();

        assertThat(killed.original()).isEqualTo(SENT);
        assertThat(killed.state()).contains("CLOSE");
        assertThat(killed.originalCounters()).contains(new ConntrackEntry.Counters(1, 60));
        assertThat(killed.replyCounters()).contains(new ConntrackEntry.Counters(1, 40));
        assertThat(ConntrackEntry.parse(ANSWERS_DELETED)).as("an event without timeout and state").singleElement()
                .satisfies(e -> assertThat(e.state()).isEmpty())
                .satisfies(e -> assertThat(e.originalCounters()).contains(new ConntrackEntry.Counters(1300, 67_600)));
    }

    @Test
    void anEntryNoReadingHeldIsKnownByItsDeletion() {
        ConnectionTables local = new ConnectionTables();
        local.add(reading("", SYN_ONLY));
        local.addEnded(Map.of("cluster1/gw-2", ConntrackEntry.parse(ANSWERS_DELETED)));

        assertThat(local.entries().get("cluster1/gw-2")).as("the answers' entry, deleted between two readings").singleElement()
                .satisfies(e -> assertThat(e.originalCounters()).contains(new ConntrackEntry.Counters(1300, 67_600)));
        assertThat(local.readings()).as("a deletion is not a reading").isEqualTo(1);
    }
}
