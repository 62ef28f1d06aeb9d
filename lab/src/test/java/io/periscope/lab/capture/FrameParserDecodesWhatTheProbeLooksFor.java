package io.periscope.lab.capture;

import io.periscope.model.net.Ipv4Address;
import io.periscope.plan.link.MacAddress;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

class FrameParserDecodesWhatTheProbeLooksFor {

    static final MacAddress WORKER = MacAddress.parse("02:01:ac:12:00:0a");
    static final MacAddress GATEWAY = MacAddress.parse("02:01:ac:12:00:08");
    static final MacAddress WORKER_VX = MacAddress.parse("02:40:ac:12:00:0a");
    static final MacAddress GATEWAY_VX = MacAddress.parse("02:40:ac:12:00:08");

    static Ipv4Address ip(String text) {
        return Ipv4Address.parse(text);
    }

    @Test
    void aTcpSynKeepsItsPortsSequenceAndFlags() {
        byte[] frame = Frames.ethernet(WORKER, GATEWAY, Frames.ipv4(ip("10.0.128.4"), ip("242.254.2.254"), 6,
                Frames.tcp(40000, 80, 0xfedcba98L, 0, 0x02)));

        CapturedFrame parsed = FrameParser.parse(frame, Set.of(4800)).orElseThrow();

        assertThat(parsed.srcMac()).isEqualTo(WORKER);
        assertThat(parsed.dstMac()).isEqualTo(GATEWAY);
        assertThat(parsed.vxlan()).isEmpty();
        IpDatagram d = parsed.datagram();
        assertThat(d.src()).isEqualTo(ip("10.0.128.4"));
        assertThat(d.dst()).isEqualTo(ip("242.254.2.254"));
        assertThat(d.sport()).isEqualTo(40000);
        assertThat(d.dport()).isEqualTo(80);
        assertThat(d.tcp().seq()).isEqualTo(0xfedcba98L);
        assertThat(d.tcp().isSyn()).isTrue();
        assertThat(d.tcp().tsVal()).as("no timestamp option").isEqualTo(-1);
    }

    @Test
    void aSynAckKeepsTheTimestampItEchoesWhichTellsWhichSynItAnswers() {
        byte[] frame = Frames.ethernet(GATEWAY, WORKER, Frames.ipv4(ip("10.0.128.5"), ip("10.0.0.1"), 6,
                Frames.tcpWithTimestamps(80, 40000, 7, 0xfedcba99L, 0x12, 3_000_000_001L, 1_167_781_555L)));

        IpDatagram.TcpFields tcp = FrameParser.parse(frame, Set.of()).orElseThrow().datagram().tcp();

        assertThat(tcp.isSynAck()).isTrue();
        assertThat(tcp.ack()).isEqualTo(0xfedcba99L);
        assertThat(tcp.tsVal()).isEqualTo(3_000_000_001L);
        assertThat(tcp.tsEcr()).isEqualTo(1_167_781_555L);
    }

    @Test
    void aVxlanPacketOnATunnelPortCarriesItsVniAndTheInnerFrame() {
        byte[] inner = Frames.ethernet(WORKER_VX, GATEWAY_VX, Frames.ipv4(ip("10.0.128.4"), ip("242.254.2.254"), 17,
                Frames.udp(40000, 53, "PSCQhello".getBytes(StandardCharsets.ISO_8859_1))));
        byte[] outer = Frames.ethernet(WORKER, GATEWAY, Frames.ipv4(ip("172.18.0.10"), ip("172.18.0.8"), 17,
                Frames.udp(51234, 4800, Frames.vxlan(100, inner))));

        CapturedFrame parsed = FrameParser.parse(outer, Set.of(4800, 4500)).orElseThrow();

        assertThat(parsed.datagram().dst()).isEqualTo(ip("172.18.0.8"));
        assertThat(parsed.vxlan()).isPresent();
        assertThat(parsed.vxlan().get().vni()).isEqualTo(100);
        assertThat(parsed.innermost().src()).isEqualTo(ip("10.0.128.4"));
        assertThat(parsed.innermost().payload()).isEqualTo("PSCQhello");
        assertThat(parsed.vxlan().get().inner().srcMac()).isEqualTo(WORKER_VX);
    }

    @Test
    void udpOnAnotherPortIsNotTakenForVxlan() {
        byte[] frame = Frames.ethernet(WORKER, GATEWAY, Frames.ipv4(ip("10.0.128.4"), ip("10.0.0.9"), 17,
                Frames.udp(40000, 4800, Frames.vxlan(100, new byte[40]))));

        assertThat(FrameParser.parse(frame, Set.of(4500)).orElseThrow().vxlan()).isEmpty();
    }

    @Test
    void anIcmpErrorQuotesThePacketItReportsOn() {
        byte[] quoted = Frames.ipv4(ip("10.0.128.5"), ip("242.254.1.9"), 6, Frames.tcp(80, 40000, 1, 2, 0x12));
        byte[] frame = Frames.ethernet(GATEWAY, WORKER, Frames.ipv4(ip("10.0.64.1"), ip("10.0.128.5"), 1,
                Frames.icmp(3, 0, java.util.Arrays.copyOf(quoted, 28))));

        IpDatagram d = FrameParser.parse(frame, Set.of()).orElseThrow().datagram();

        assertThat(d.icmpType()).isEqualTo(IpDatagram.ICMP_DESTINATION_UNREACHABLE);
        assertThat(d.icmpCode()).isZero();
        assertThat(d.quoted()).contains(new IpDatagram.Quoted(ip("10.0.128.5"), ip("242.254.1.9"), 6, 80, 40000));
    }

    @Test
    void framesThatAreNotIpv4AreLeftOut() {
        byte[] arp = new byte[60];
        arp[12] = 0x08;
        arp[13] = 0x06;

        assertThat(FrameParser.parse(arp, Set.of())).isEmpty();
        assertThat(FrameParser.parse(new byte[10], Set.of())).isEmpty();
    }
}
