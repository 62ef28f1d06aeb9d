package io.periscope.lab.probe;

import io.periscope.lab.wireguard.WireGuardCounters;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.HostId;
import io.periscope.plan.cable.WireGuardDevice;
import io.periscope.plan.cable.WireGuardPeer;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A packet whose outer packet reached c1/gw1 and that never came out of its device: the device's
 * counters over the round say whether it decrypted the packet, and the peer's allowed IPs whether
 * the inner source was the reason it kept it. wireguard-go counts a decrypted packet into its peer's
 * received bytes before the allowed-IPs check; in-kernel WireGuard counts the drop as a receive error.
 */
class WireGuardReceiveDropIsJudgedByTheDevicesCounters {

    private static final HostId RECEIVER = HostId.node("c1", "gw1");
    private static final String FROM_GW1 = "172.18.0.3:4500";
    private static final Ipv4Address HEADLESS_POD = Ipv4Address.parse("242.0.0.254");
    private static final List<Ipv4Prefix> GW1_ALLOWED = List.of(Ipv4Prefix.parse("242.0.0.3/32"), Ipv4Prefix.parse("242.0.0.4/32"));
    /** A SYN of 60 bytes padded to 64 and wrapped: what one data message adds to its peer's received bytes. */
    private static final long ONE_SYN = 96;

    private static final WireGuardDevice DEVICE = new WireGuardDevice("submariner", 4500, "c1/gw1", WireGuardDevice.DEFAULT_MTU, List.of(
            new WireGuardPeer("c0/gw0", "c0/gw0", "psk", Ipv4Address.parse("172.18.0.2"), 4500, List.of(Ipv4Prefix.parse("242.0.0.0/24")), 10),
            new WireGuardPeer("c0/gw1", "c0/gw1", "psk", Ipv4Address.parse("172.18.0.3"), 4500, GW1_ALLOWED, 10)));

    private static WireGuardReceipts counted(long receivedBefore, long receivedAfter, long errorsBefore, long errorsAfter) {
        return new WireGuardReceipts(Map.of(RECEIVER, device(receivedBefore, errorsBefore)), Map.of(RECEIVER, device(receivedAfter, errorsAfter)));
    }

    private static WireGuardCounters device(long received, long errors) {
        return new WireGuardCounters(List.of(
                new WireGuardCounters.Peer("KEY-GW0", Optional.of("172.18.0.2:4500"), List.of(Ipv4Prefix.parse("242.0.0.0/24")), 5000),
                new WireGuardCounters.Peer("KEY-GW1", Optional.of(FROM_GW1), GW1_ALLOWED, received)), errors);
    }

    @Test
    void bytesReceivedForWhatArrivedAndASourceOutsideTheAllowedIpsIsTheAllowedIpsDrop() {
        WireGuardReceiveDrop drop = WireGuardReceiveDrop.judge(RECEIVER, DEVICE, FROM_GW1, HEADLESS_POD, 3 * ONE_SYN,
                counted(1000, 1000 + 3 * ONE_SYN, 0, 0));

        assertThat(drop).isInstanceOf(WireGuardReceiveDrop.SourceNotAllowed.class);
        assertThat(drop.reason()).startsWith("c1/gw1 submariner drops a packet from peer c0/gw1 (172.18.0.3:4500): inner source 242.0.0.254"
                + " is not in its allowed IPs [242.0.0.3/32, 242.0.0.4/32] (decrypted: the peer's received bytes grew by 288 for the 288 bytes"
                + " that arrived from it");
    }

    @Test
    void aReceiveErrorOfTheDeviceIsTheKernelsCountOfTheSameDrop() {
        WireGuardReceiveDrop drop = WireGuardReceiveDrop.judge(RECEIVER, DEVICE, FROM_GW1, HEADLESS_POD, ONE_SYN, counted(1000, 1000, 4, 5));

        assertThat(drop).isInstanceOf(WireGuardReceiveDrop.SourceNotAllowed.class);
        assertThat(drop.reason()).contains("the device counted 1 receive error");
    }

    @Test
    void fewerBytesThanArrivedMeansTheDeviceNeverDecryptedIt() {
        WireGuardReceiveDrop drop = WireGuardReceiveDrop.judge(RECEIVER, DEVICE, FROM_GW1, HEADLESS_POD, 2 * ONE_SYN,
                counted(1000, 1000, 0, 0));

        assertThat(drop).isEqualTo(new WireGuardReceiveDrop.NotDecrypted("c1/gw1 submariner", "c0/gw1 (172.18.0.3:4500)", 2 * ONE_SYN, 0));
    }

    @Test
    void anAllowedSourceThatStillDidNotComeOutIsSaidSo() {
        WireGuardReceiveDrop drop = WireGuardReceiveDrop.judge(RECEIVER, DEVICE, FROM_GW1, Ipv4Address.parse("242.0.0.3"), ONE_SYN,
                counted(0, ONE_SYN, 0, 0));

        assertThat(drop).isInstanceOf(WireGuardReceiveDrop.DecryptedAndKept.class);
        assertThat(drop.reason()).contains("although its inner source 242.0.0.3 is in the peer's allowed IPs");
    }

    @Test
    void aPacketFromWhereNoPeerIsHasNoKeyToBeDecryptedWith() {
        WireGuardReceiveDrop drop = WireGuardReceiveDrop.judge(RECEIVER, DEVICE, "172.18.0.9:4500", HEADLESS_POD, ONE_SYN,
                counted(0, 0, 0, 0));

        assertThat(drop).isEqualTo(new WireGuardReceiveDrop.UnknownPeer("c1/gw1 submariner", "172.18.0.9:4500"));
    }

    @Test
    void withoutCountersTheDropIsPlacedAndThePlannedAllowedIpsSayWhatWasChecked() {
        WireGuardReceiveDrop drop = WireGuardReceiveDrop.judge(RECEIVER, DEVICE, FROM_GW1, HEADLESS_POD, ONE_SYN, WireGuardReceipts.UNREAD);

        assertThat(drop).isInstanceOf(WireGuardReceiveDrop.Uncounted.class);
        assertThat(drop.reason()).isEqualTo("c1/gw1 submariner let nothing out of a packet from peer c0/gw1 (172.18.0.3:4500) (its counters"
                + " could not be read); its inner source 242.0.0.254 is not in the peer's allowed IPs [242.0.0.3/32, 242.0.0.4/32]");
    }
}
