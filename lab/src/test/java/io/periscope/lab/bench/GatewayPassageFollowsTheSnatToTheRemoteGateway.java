package io.periscope.lab.bench;

import io.periscope.model.net.Ipv4Address;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gateways' connection tables, as captured after 8 iperf3 streams through a Globalnet lab: a
 * stream's local gateway holds its client's tuple, which that gateway SNATed to one of its global
 * egress addresses; the remote gateway knows the stream only by that translated tuple.
 */
class GatewayPassageFollowsTheSnatToTheRemoteGateway {

    private static final Ipv4Address CLIENT = Ipv4Address.parse("10.0.128.4");
    private static final Ipv4Address NGINX = Ipv4Address.parse("242.254.2.254");

    private static Map<String, List<ConntrackEntry>> tables(String... gateways) {
        Map<String, List<ConntrackEntry>> tables = new LinkedHashMap<>();
        for (String gateway : gateways) {
            tables.put(gateway, ConntrackEntry.parse(BenchSamples.conntrack(gateway)));
        }
        return tables;
    }

    private static GatewayPassage passage(int port) {
        return GatewayPassage.of(new ConntrackEntry.Tuple(CLIENT, NGINX, port, 80), tables("cluster1/gw-1", "cluster1/gw-2"),
                tables("cluster2/gw-3", "cluster2/gw-4"));
    }

    @Test
    void conntrackLinesGiveBothDirectionsAndTheState() {
        List<ConntrackEntry> entries = ConntrackEntry.parse(BenchSamples.conntrack("cluster1/gw-2"));

        assertThat(entries).hasSize(4);
        ConntrackEntry first = entries.getFirst();
        assertThat(first.protocol()).isEqualTo("tcp");
        assertThat(first.state()).contains("TIME_WAIT");
        assertThat(first.original()).isEqualTo(new ConntrackEntry.Tuple(CLIENT, NGINX, 21000, 80));
        // The reply is addressed to the global egress address the gateway SNATed the stream to.
        assertThat(first.translated()).isEqualTo(new ConntrackEntry.Tuple(Ipv4Address.parse("242.254.1.9"), NGINX, 21000, 80));
        assertThat(ConntrackEntry.parse("icmp     1 29 src=10.0.0.1 dst=10.0.0.2 type=8 code=0 id=7 src=10.0.0.2 dst=10.0.0.1 type=0 code=0 id=7 mark=0 use=1\n"
                + "conntrack v1.4.7 (conntrack-tools): 1 flow entries have been shown.")).isEmpty();
    }

    @Test
    void eachStreamIsFoundOnOneLocalAndOneRemoteGateway() {
        assertThat(passage(21000)).isEqualTo(new GatewayPassage(Set.of("cluster1/gw-2"), Set.of("cluster2/gw-4")));
        assertThat(passage(21001)).isEqualTo(new GatewayPassage(Set.of("cluster1/gw-2"), Set.of("cluster2/gw-3")));
        assertThat(passage(21002)).isEqualTo(new GatewayPassage(Set.of("cluster1/gw-1"), Set.of("cluster2/gw-3")));
        assertThat(passage(21004)).isEqualTo(new GatewayPassage(Set.of("cluster1/gw-1"), Set.of("cluster2/gw-4")));
        for (int port = 21000; port < 21008; port++) {
            assertThat(passage(port).local()).as("port %d", port).hasSize(1);
            assertThat(passage(port).remote()).as("port %d", port).hasSize(1);
        }
    }

    @Test
    void theRemoteGatewayKnowsNoStreamByItsClientsAddress() {
        // Matching the remote side on the client's own tuple would find nothing: only the SNAT's tuple leads there.
        Map<String, List<ConntrackEntry>> remote = tables("cluster2/gw-3", "cluster2/gw-4");
        assertThat(remote.values().stream().flatMap(List::stream)).noneMatch(e -> e.original().src().equals(CLIENT));
        assertThat(GatewayPassage.of(new ConntrackEntry.Tuple(CLIENT, NGINX, 21000, 80), Map.of(), remote).remote()).isEmpty();
    }

    @Test
    void aStreamNoTableHoldsCrossedNoGateway() {
        assertThat(passage(29999)).isEqualTo(new GatewayPassage(Set.of(), Set.of()));
    }

    @Test
    void anEntryMadeByTheAnswersAloneIsNotTheStreams() {
        // A reply that came back through the other local gateway leaves an entry whose original tuple is the server's.
        String replyOnly = "tcp      6 431999 ESTABLISHED src=242.254.2.254 dst=10.0.128.4 sport=80 dport=21000 src=10.0.128.4 dst=242.254.2.254"
                + " sport=21000 dport=80 mark=0 use=1\n";
        GatewayPassage passage = GatewayPassage.of(new ConntrackEntry.Tuple(CLIENT, NGINX, 21000, 80),
                Map.of("cluster1/gw-1", ConntrackEntry.parse(replyOnly), "cluster1/gw-2", ConntrackEntry.parse(BenchSamples.conntrack("cluster1/gw-2"))),
                tables("cluster2/gw-3", "cluster2/gw-4"));

        assertThat(passage.local()).containsExactly("cluster1/gw-2");
    }

    /** Captured on this machine: an iperf3 stream over loopback in a namespace with {@code nf_conntrack_acct=1}. */
    private static final String COUNTED = "tcp      6 9 CLOSE src=127.0.0.1 dst=127.0.0.1 sport=21000 dport=5201 packets=26478 bytes=3216466238"
            + " src=127.0.0.1 dst=127.0.0.1 sport=5201 dport=21000 packets=23184 bytes=1205824 [ASSURED] mark=0 use=1";

    @Test
    void accountingGivesEachDirectionsPacketsAndBytes() {
        ConntrackEntry entry = ConntrackEntry.parse(COUNTED).getFirst();

        assertThat(entry.counted()).isTrue();
        assertThat(entry.originalCounters()).contains(new ConntrackEntry.Counters(26478, 3_216_466_238L));
        assertThat(entry.replyCounters()).contains(new ConntrackEntry.Counters(23184, 1_205_824));
        assertThat(entry.reply()).isEqualTo(new ConntrackEntry.Tuple(Ipv4Address.parse("127.0.0.1"), Ipv4Address.parse("127.0.0.1"), 5201, 21000));
        assertThat(ConntrackEntry.parse(BenchSamples.conntrack("cluster1/gw-2")).getFirst().counted()).as("captured without accounting").isFalse();
    }

    private static final Ipv4Address GLOBAL = Ipv4Address.parse("242.254.1.9");
    private static final Ipv4Address NGINX_POD = Ipv4Address.parse("10.1.128.5");

    private static String line(String state, Ipv4Address a, int aPort, Ipv4Address b, int bPort, long forth,
                               Ipv4Address c, int cPort, Ipv4Address d, int dPort, long back) {
        return "tcp      6 100 " + state + " src=" + a + " dst=" + b + " sport=" + aPort + " dport=" + bPort + " packets=10 bytes=" + forth
                + " src=" + c + " dst=" + d + " sport=" + cPort + " dport=" + dPort + " packets=10 bytes=" + back + " mark=0 use=1\n";
    }

    @Test
    void aStreamWhoseDirectionsTookDifferentGatewaysIsFoundByItsForwardBytes() {
        // gw-1 SNATed the stream and saw only its forward packets; gw-2 saw only the answers (they came back to the global address through it).
        String gw1 = line("SYN_SENT", CLIENT, 21000, NGINX, 80, 5_000_000, NGINX, 80, GLOBAL, 21000, 0);
        String gw2 = line("ESTABLISHED", NGINX, 80, GLOBAL, 21000, 60_000, GLOBAL, 21000, NGINX, 80, 0);
        // gw-3 took the forward packets in (and DNATed them to the pod); gw-4 saw only the pod's answers, its entry made by them.
        String gw3 = line("SYN_RECV", GLOBAL, 21000, NGINX, 80, 4_990_000, NGINX_POD, 80, GLOBAL, 21000, 0);
        String gw4 = line("ESTABLISHED", NGINX_POD, 80, GLOBAL, 21000, 60_000, GLOBAL, 21000, NGINX_POD, 80, 0);

        GatewayPassage passage = GatewayPassage.of(new ConntrackEntry.Tuple(CLIENT, NGINX, 21000, 80),
                Map.of("cluster1/gw-1", ConntrackEntry.parse(gw1), "cluster1/gw-2", ConntrackEntry.parse(gw2)),
                Map.of("cluster2/gw-3", ConntrackEntry.parse(gw3), "cluster2/gw-4", ConntrackEntry.parse(gw4)));

        assertThat(passage.localBytes()).containsExactly(Map.entry("cluster1/gw-1", 5_000_000L));
        assertThat(passage.remoteBytes()).containsExactly(Map.entry("cluster2/gw-3", 4_990_000L));
    }

    @Test
    void anEntryTheAnswersMadeCountsTheForwardBytesOfItsReplyDirection() {
        // The stream moved (a retransmission timeout redrew its hash): gw-2 first carried it, then gw-1, whose entry the answers had made.
        String gw1 = line("ESTABLISHED", NGINX, 80, CLIENT, 21000, 50_000, CLIENT, 21000, NGINX, 80, 3_000_000);
        String gw2 = line("ESTABLISHED", CLIENT, 21000, NGINX, 80, 1_000_000, NGINX, 80, CLIENT, 21000, 10_000);
        String gw3 = line("ESTABLISHED", CLIENT, 21000, NGINX, 80, 3_990_000, NGINX, 80, CLIENT, 21000, 60_000);

        GatewayPassage passage = GatewayPassage.of(new ConntrackEntry.Tuple(CLIENT, NGINX, 21000, 80),
                Map.of("cluster1/gw-1", ConntrackEntry.parse(gw1), "cluster1/gw-2", ConntrackEntry.parse(gw2)),
                Map.of("cluster2/gw-3", ConntrackEntry.parse(gw3), "cluster2/gw-4", List.of()));

        assertThat(passage.mainLocal()).contains("cluster1/gw-1");
        assertThat(passage.local()).containsExactly("cluster1/gw-1", "cluster1/gw-2");
        assertThat(passage.share("cluster1/gw-2")).isEqualTo(0.25);
        assertThat(passage.mainRemote()).contains("cluster2/gw-3");
        assertThat(BenchReportText.measured(passage)).isEqualTo("cluster1/gw-1 +cluster1/gw-2 25% > cluster2/gw-3");
    }

    @Test
    void theWanCountersSayWhatCrossedEachGateway() {
        LinkBytes gw1 = LinkBytes.parse(BenchSamples.wan("after", "cluster1/gw-1")).minus(LinkBytes.parse(BenchSamples.wan("before", "cluster1/gw-1")));
        LinkBytes gw2 = LinkBytes.parse(BenchSamples.wan("after", "cluster1/gw-2")).minus(LinkBytes.parse(BenchSamples.wan("before", "cluster1/gw-2")));

        assertThat(gw1.sent()).isEqualTo(1_568_112_660L - 11_960L);
        assertThat(gw2.received()).isEqualTo(2_753_610L - 12_098L);
        // Four streams each: what the two gateways sent is the streams' 3,135,373,312 bytes and a little (tunnel headers, the control connection).
        double ratio = (double) (gw1.sent() + gw2.sent()) / 3_135_373_312L;
        assertThat(ratio).isBetween(1.0, 1.01);
    }
}
