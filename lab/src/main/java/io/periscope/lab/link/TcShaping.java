package io.periscope.lab.link;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.topology.LinkProperties;

import java.util.ArrayList;
import java.util.List;

/**
 * A device's shaping as {@code tc -batch} lines, and as the lines {@link TcReadBack} makes of what the
 * kernel holds, so that the two compare.
 *
 * <pre>
 * tbf 1: (root)  rate 100gbit, burst one frame: cuts GSO packets into frames
 *  └ htb 2:
 *     └ class 2:1   rate = ceil = the uplink's rate                      └ pfifo 11: limit = the uplink's queue
 *       (on a WAN device with cables, 2:1 holds:)
 *       ├ class 2:2   what goes to no cable, ceil = the uplink's rate     └ pfifo 12:
 *       └ class 2:1x  a cable, ceil = min(its rate, the uplink's)         └ pfifo 2x: limit = the cable's queue
 *          u32 filters on the destination address: the other cluster's gateways' endpoints
 * </pre>
 *
 * <p>Why a {@code tbf} above the {@code htb}: a veth passes TCP's and a tunnel's GSO packets of up to
 * 64 KiB through the qdisc whole, so a {@code pfifo} of N packets could hold 43 times N full-size
 * frames, and the file's {@code queue} would mean nothing. {@code tbf} is the one qdisc of this kernel
 * that cuts a GSO packet larger than its burst into frames before they queue; with a burst of one
 * frame and a rate beyond any veth (100gbit) it cuts everything and holds nothing back. The rate is
 * {@code htb}'s job: its burst of 1 ms at the rate (at least two frames) keeps a timer slower than
 * this machine's from costing throughput, as {@code tbf}'s one-frame burst would (measured: a
 * {@code tbf} with a burst of one frame carried 47% of a 1gbit rate; this pair carries 95%).
 * {@code htb} classes, and not a {@code tbf} per rate, because a cable's rate nests under its
 * gateway's uplink. Each class's {@code quantum} is one frame: siblings share their parent fairly,
 * frame by frame.
 */
public final class TcShaping {

    /** The rate of the segmenting {@code tbf}, and of the uplink where only cables are shaped: more than any veth carries. */
    public static final long LINE_RATE_BITS = LinkProperties.MAX_RATE_BITS;
    /** htb's burst in time at the rate: a timer may fire this late and the rate is still reached. */
    static final long BURST_MICROS = 1_000;

    static final String ROOT = "1:";
    static final String HTB = "2:";
    static final String UPLINK_CLASS = "2:1";
    static final String OTHER_CLASS = "2:2";

    private TcShaping() {
    }

    /** The lines that build {@code device}'s shaping on a device without a root qdisc of its own. */
    public static List<String> add(ManagedDevice device) {
        Shaping shaping = device.shaping().orElseThrow();
        String dev = device.device();
        int frame = device.frameBytes();
        List<String> lines = new ArrayList<>();
        lines.add("qdisc add dev " + dev + " root handle " + ROOT + " tbf rate " + LINE_RATE_BITS + "bit burst " + frame
                + " limit " + (long) frame * LinkPlan.DEFAULT_QUEUE);
        lines.add("qdisc add dev " + dev + " parent 1:1 handle " + HTB + " htb default " + Integer.toHexString(defaultMinor(shaping)));
        long uplink = shaping.uplinkRateBits().orElse(LINE_RATE_BITS);
        lines.add(htbClass(dev, HTB, UPLINK_CLASS, uplink, uplink, frame));
        if (shaping.cables().isEmpty()) {
            lines.add(leaf(dev, UPLINK_CLASS, 1, shaping.uplinkQueue()));
            return lines;
        }
        long share = uplink / (shaping.cables().size() + 1);
        lines.add(htbClass(dev, UPLINK_CLASS, OTHER_CLASS, Math.min(share, uplink), uplink, frame));
        lines.add(leaf(dev, OTHER_CLASS, 2, shaping.uplinkQueue()));
        for (CableClass cable : shaping.cables()) {
            long ceil = Math.min(cable.rateBits(), uplink);
            lines.add(htbClass(dev, UPLINK_CLASS, classId(cable.minor()), Math.min(share, ceil), ceil, frame));
            lines.add(leaf(dev, classId(cable.minor()), cable.minor(), cable.queuePackets()));
        }
        for (CableClass cable : shaping.cables()) {
            for (Ipv4Address destination : cable.destinations()) {
                lines.add("filter add dev " + dev + " parent " + HTB + " protocol ip prio 1 u32 match ip dst " + destination + "/32 flowid "
                        + classId(cable.minor()));
            }
        }
        return lines;
    }

    /** Removes the lab's shaping: the device goes back to its default root. */
    public static String delete(String device) {
        return "qdisc del dev " + device + " root";
    }

    /**
     * The shaping as {@link TcReadBack} describes a device's qdiscs, classes and filters: rates as tc
     * prints them (whole bytes per second, so {@code 1234567bit} reads back as {@code 1234Kbit}).
     */
    public static List<String> expected(ManagedDevice device) {
        Shaping shaping = device.shaping().orElseThrow();
        int frame = device.frameBytes();
        List<String> lines = new ArrayList<>();
        lines.add(TcReadBack.qdisc("tbf", ROOT, "root", "rate " + LINE_RATE_BITS / 8));
        lines.add(TcReadBack.qdisc("htb", HTB, "1:1", "default 0x" + Integer.toHexString(defaultMinor(shaping))));
        long uplink = shaping.uplinkRateBits().orElse(LINE_RATE_BITS);
        if (shaping.cables().isEmpty()) {
            lines.add(TcReadBack.htbClass(UPLINK_CLASS, "root", leafHandle(1), frame, rateText(uplink), rateText(uplink)));
            lines.add(TcReadBack.qdisc("pfifo", leafHandle(1), UPLINK_CLASS, "limit " + shaping.uplinkQueue()));
            return lines.stream().sorted().toList();
        }
        long share = uplink / (shaping.cables().size() + 1);
        lines.add(TcReadBack.htbClass(UPLINK_CLASS, "root", "", 0, rateText(uplink), rateText(uplink)));
        lines.add(TcReadBack.htbClass(OTHER_CLASS, UPLINK_CLASS, leafHandle(2), frame, rateText(Math.min(share, uplink)), rateText(uplink)));
        lines.add(TcReadBack.qdisc("pfifo", leafHandle(2), OTHER_CLASS, "limit " + shaping.uplinkQueue()));
        for (CableClass cable : shaping.cables()) {
            long ceil = Math.min(cable.rateBits(), uplink);
            lines.add(TcReadBack.htbClass(classId(cable.minor()), UPLINK_CLASS, leafHandle(cable.minor()), frame,
                    rateText(Math.min(share, ceil)), rateText(ceil)));
            lines.add(TcReadBack.qdisc("pfifo", leafHandle(cable.minor()), classId(cable.minor()), "limit " + cable.queuePackets()));
            for (Ipv4Address destination : cable.destinations()) {
                lines.add(TcReadBack.filter(destination, classId(cable.minor())));
            }
        }
        return lines.stream().sorted().toList();
    }

    private static int defaultMinor(Shaping shaping) {
        return shaping.cables().isEmpty() ? 1 : 2;
    }

    private static String htbClass(String dev, String parent, String classId, long rate, long ceil, int frame) {
        return "class add dev " + dev + " parent " + parent + " classid " + classId + " htb rate " + rate + "bit ceil " + ceil + "bit burst "
                + burst(rate, frame) + " cburst " + burst(ceil, frame) + " quantum " + frame;
    }

    private static String leaf(String dev, String classId, int minor, int queue) {
        return "qdisc add dev " + dev + " parent " + classId + " handle " + leafHandle(minor) + " pfifo limit " + queue;
    }

    /** htb's bucket: {@link #BURST_MICROS} at the rate, and never less than two frames. */
    static long burst(long rateBits, int frame) {
        return Math.max(2L * frame, rateBits / 8 * BURST_MICROS / 1_000_000);
    }

    static String classId(int minor) {
        return "2:" + Integer.toHexString(minor);
    }

    /** The leaf qdisc of class {@code 2:m} is {@code (0x10 + m):}: {@code 11:} for the uplink, {@code 2x:} for cables. */
    static String leafHandle(int minor) {
        return Integer.toHexString(0x10 + minor) + ":";
    }

    /**
     * A rate as tc prints it: tc keeps whole bytes per second, and divides by 1000 while the figure is
     * a multiple of 1000 or at least a million ({@code 1234567bit} prints as {@code 1234Kbit}).
     */
    static String rateText(long bits) {
        String[] units = {"bit", "Kbit", "Mbit", "Gbit", "Tbit"};
        long rate = bits / 8 * 8;
        int unit = 0;
        for (; unit < units.length - 1; unit++) {
            if (rate < 1000 || rate % 1000 != 0 && rate < 1000 * 1000) {
                break;
            }
            rate /= 1000;
        }
        return rate + units[unit];
    }
}
