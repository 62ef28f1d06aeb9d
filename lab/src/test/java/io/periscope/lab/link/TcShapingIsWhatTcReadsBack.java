package io.periscope.lab.link;

import io.periscope.model.net.Ipv4Address;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link TcShaping}'s batch lines, and its description of them, which must be what {@link TcReadBack}
 * makes of what tc shows once the lines ran: the fixtures under {@code link/} are tc 6.1's output
 * for these very lines run on a veth of this kernel (eth0 as {@code ra}, wan0 as {@code rb}).
 */
class TcShapingIsWhatTcReadsBack {

    private static final ManagedDevice UPLINK = new ManagedDevice("ra", 1500, "east/east-worker uplink (eth0), leaving",
            Optional.of(new Shaping(OptionalLong.of(20_000_000), 50, List.of())));
    private static final ManagedDevice WAN = new ManagedDevice("rb", 1500, "east/east-gw uplink (wan0), leaving",
            Optional.of(new Shaping(OptionalLong.of(50_000_000), 1000,
                    List.of(new CableClass("west", 0x11, 10_000_000, 30, List.of(Ipv4Address.parse("172.31.42.2")))))));

    @Test
    void anUplinkIsASegmentingTbfAnHtbClassOfItsRateAndAFifoOfItsQueue() {
        assertThat(TcShaping.add(UPLINK)).containsExactly(
                "qdisc add dev ra root handle 1: tbf rate 100000000000bit burst 1514 limit 1514000",
                "qdisc add dev ra parent 1:1 handle 2: htb default 1",
                "class add dev ra parent 2: classid 2:1 htb rate 20000000bit ceil 20000000bit burst 3028 cburst 3028 quantum 1514",
                "qdisc add dev ra parent 2:1 handle 11: pfifo limit 50");
    }

    @Test
    void aCableIsAClassOfItsRateUnderTheUplinksWithAFilterPerRemoteGateway() {
        assertThat(TcShaping.add(WAN)).containsExactly(
                "qdisc add dev rb root handle 1: tbf rate 100000000000bit burst 1514 limit 1514000",
                "qdisc add dev rb parent 1:1 handle 2: htb default 2",
                "class add dev rb parent 2: classid 2:1 htb rate 50000000bit ceil 50000000bit burst 6250 cburst 6250 quantum 1514",
                "class add dev rb parent 2:1 classid 2:2 htb rate 25000000bit ceil 50000000bit burst 3125 cburst 6250 quantum 1514",
                "qdisc add dev rb parent 2:2 handle 12: pfifo limit 1000",
                "class add dev rb parent 2:1 classid 2:11 htb rate 10000000bit ceil 10000000bit burst 3028 cburst 3028 quantum 1514",
                "qdisc add dev rb parent 2:11 handle 21: pfifo limit 30",
                "filter add dev rb parent 2: protocol ip prio 1 u32 match ip dst 172.31.42.2/32 flowid 2:11");
        assertThat(TcShaping.delete("rb")).isEqualTo("qdisc del dev rb root");
    }

    @Test
    void whatTcShowsAfterTheLinesRanIsWhatTheShapingExpects() {
        Map<String, TcReadBack.DeviceTc> devices = TcReadBack.qdiscs(fixture("qdisc-show.json"));

        TcReadBack.DeviceTc eth0 = devices.get("ra").withClasses(fixture("class-show-eth0.txt"), fixture("filter-show-eth0.json"));
        TcReadBack.DeviceTc wan0 = devices.get("rb").withClasses(fixture("class-show-wan0.txt"), fixture("filter-show-wan0.json"));

        assertThat(eth0.labRoot()).isTrue();
        assertThat(eth0.lines()).isEqualTo(TcShaping.expected(UPLINK));
        assertThat(wan0.lines()).isEqualTo(TcShaping.expected(WAN));
        assertThat(devices.get("lo").labRoot()).isFalse();
        assertThat(devices.get("lo").defaultRoot()).isTrue();
    }

    @Test
    void aRateChangedByHandNoLongerMatches() {
        String changed = fixture("class-show-eth0.txt").replace("rate 20Mbit ceil 20Mbit", "rate 5Mbit ceil 5Mbit");
        TcReadBack.DeviceTc eth0 = TcReadBack.qdiscs(fixture("qdisc-show.json")).get("ra").withClasses(changed, "[]");

        assertThat(eth0.lines()).isNotEqualTo(TcShaping.expected(UPLINK))
                .contains("class htb 2:1 parent root leaf 11: quantum 1514 rate 5Mbit ceil 5Mbit");
    }

    /** What tc 6.1 printed for these rates (it keeps whole bytes per second and shortens by thousands). */
    @Test
    void ratesReadAsTcPrintsThem() {
        assertThat(TcShaping.rateText(1_234_567)).isEqualTo("1234Kbit");
        assertThat(TcShaping.rateText(1_500_000)).isEqualTo("1500Kbit");
        assertThat(TcShaping.rateText(8_000)).isEqualTo("8Kbit");
        assertThat(TcShaping.rateText(100_000_000_000L)).isEqualTo("100Gbit");
        assertThat(TcShaping.rateText(1_500_000_000)).isEqualTo("1500Mbit");
        assertThat(TcShaping.rateText(999_999)).isEqualTo("999992bit");
        assertThat(TcShaping.rateText(1_000_001)).isEqualTo("1Mbit");
        assertThat(TcShaping.rateText(20_000_000)).isEqualTo("20Mbit");
        assertThat(TcShaping.rateText(33_333_333)).isEqualTo("33333Kbit");
        assertThat(TcShaping.rateText(12_345_678_901L)).isEqualTo("12345Mbit");
    }

    @Test
    void htbsBurstIsAMillisecondAtTheRateAndNeverLessThanTwoFrames() {
        assertThat(TcShaping.burst(1_000_000_000, 1514)).isEqualTo(125_000);
        assertThat(TcShaping.burst(10_000_000, 1514)).isEqualTo(3028);
        assertThat(TcShaping.burst(8_000, 9014)).isEqualTo(18028);
    }

    static String fixture(String name) {
        try (var in = TcShapingIsWhatTcReadsBack.class.getResourceAsStream("/link/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
