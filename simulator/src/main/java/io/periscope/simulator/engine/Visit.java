package io.periscope.simulator.engine;

import io.periscope.model.net.Ipv4Address;
import io.periscope.simulator.conntrack.Connection;
import io.periscope.simulator.conntrack.ConntrackState;
import io.periscope.simulator.conntrack.TcpSegment;
import io.periscope.simulator.netfilter.ChainObserver;
import io.periscope.simulator.netfilter.TableRun;
import io.periscope.simulator.routing.CompiledNexthop;
import io.periscope.simulator.trace.ConntrackLookup;
import io.periscope.simulator.trace.Hop;
import io.periscope.simulator.trace.Packet;
import io.periscope.simulator.trace.Step;

import java.util.function.Consumer;

/**
 * Where one branch of a packet's walk stands: the history it shares with its siblings (persistent, so a
 * fork is a shallow copy), the hop being built, the packet layer being processed, and that layer's
 * conntrack view. The walk mutates its own Visit; a fork copies it first.
 */
final class Visit {

    // the branch
    Consumer<Ending> sink;
    ChainObserver observer;
    ConntrackState conntrack;
    Trail<Hop> hops;
    Trail<String> choices;
    int hopCount;
    int passes;
    Packet origin;
    /** Which TCP segment the branch's TCP packet is (ignored for other protocols) */
    TcpSegment segment;
    /** Whether the sending socket fragments a packet larger than its device's MTU (else EMSGSIZE) */
    boolean socketFragments;
    /** Where conntrack found the packet INVALID, for the reason of an end it leads to; null when nowhere */
    String invalidAt;
    /**
     * Whether the branch keeps its story (steps, hops, conntrack lookups, choices): false when only its
     * ending counts, as for the reachability matrix, which reads nothing of a path but how it ended.
     */
    boolean record = true;
    /** The flow's suffixes already counted, for a walk that only counts; null when every hop is walked. */
    SuffixMemo memo;

    // the hop being built
    CompiledHost host;
    String hopIn;
    Packet hopArrive;
    String hopOut;
    Packet hopDepart;
    HopSteps steps;

    // the layer being processed (an outer packet and, after decapsulation, its inner one are layers)
    Packet packet;
    Tunnel tunnel;
    String in;
    String out;
    int mark;
    /**
     * The MSS option of a TCP SYN or SYN-ACK, set by the socket that sends it and lowered by TCPMSS
     * rules on the way; 0 for every other packet. A header field, so it crosses hosts and tunnels.
     */
    int mss;
    /** Where a forwarded or sent packet leaves, once routing chose it (null: to the host itself). */
    CompiledNexthop nexthop;
    // a locally generated packet: the device its socket is bound to, and what its first routing
    // decision saw (OUTPUT changing either means routing again) and which of its branches this is
    String oif;
    Ipv4Address routedDst;
    int routedMark;
    int branchIndex;

    // conntrack for this layer
    Connection conn;
    boolean isNew;
    boolean reply;
    boolean untracked;
    /** conntrack refused the packet (a TCP segment that opens no connection and has none): no entry, no NAT */
    boolean invalid;
    boolean snatDone;
    boolean dnatDone;
    int connmark;
    Packet ctOriginal;

    // conntrack as the hop's trace tells it: the layers done, and the one being processed
    Trail<ConntrackLookup> ctLayers;
    /** What the lookup of the layer being processed found; null when no layer is open */
    ConntrackLookup.State ctState;
    Packet ctPacket;

    /**
     * Reused for every table this branch runs. A copy starts without one (a fork inside a table leaves
     * outcomes pending), except the branches of a route, which share it (see Dataplane.branch).
     */
    TableRun run;

    Visit copy() {
        Visit v = new Visit();
        v.sink = sink;
        v.observer = observer;
        v.conntrack = conntrack;
        v.hops = hops;
        v.choices = choices;
        v.hopCount = hopCount;
        v.passes = passes;
        v.origin = origin;
        v.segment = segment;
        v.socketFragments = socketFragments;
        v.invalidAt = invalidAt;
        v.record = record;
        v.memo = memo;
        v.host = host;
        v.hopIn = hopIn;
        v.hopArrive = hopArrive;
        v.hopOut = hopOut;
        v.hopDepart = hopDepart;
        // Unrecorded steps stay empty, so the copy may share them.
        v.steps = record ? steps.copy() : steps;
        v.packet = packet;
        v.tunnel = tunnel;
        v.in = in;
        v.out = out;
        v.mark = mark;
        v.mss = mss;
        v.nexthop = nexthop;
        v.oif = oif;
        v.routedDst = routedDst;
        v.routedMark = routedMark;
        v.branchIndex = branchIndex;
        v.conn = conn;
        v.isNew = isNew;
        v.reply = reply;
        v.untracked = untracked;
        v.invalid = invalid;
        v.snatDone = snatDone;
        v.dnatDone = dnatDone;
        v.connmark = connmark;
        v.ctOriginal = ctOriginal;
        v.ctLayers = ctLayers;
        v.ctState = ctState;
        v.ctPacket = ctPacket;
        return v;
    }

    void step(Step step) {
        if (record) {
            steps.add(step);
        }
    }

    /** Adds {@code choice} to the branch's choices, when it keeps them. */
    void chose(String choice) {
        if (record) {
            choices = choices.add(choice);
        }
    }
}
