package io.periscope.simulator.netfilter;

import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Protocol;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import io.periscope.simulator.trace.Packet;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a compiled chain knows it cannot do, which lets a traversal skip it: a chain of TCPMSS targets
 * leaves an MSS none of them would lower (the kernel's TCPMSS never raises one), and a chain whose only
 * rule is a plain jump is walked as the chain it jumps to, with the same outcome.
 */
class ChainsSayWhatTheyCannotChange {

    private static final Packet SYN = Packet.of(Ipv4Address.of(10, 1, 0, 4), Ipv4Address.of(10, 2, 0, 5), 40000, 80, Protocol.TCP);

    private static Ruleset mangle(Chain... chains) {
        DataplanePlan plan = new DataplanePlan(List.of(new NetfilterTable(Table.MANGLE, List.of(chains))), List.of(), List.of(),
                List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), Map.of());
        return Ruleset.compile("n1", plan, address -> false);
    }

    private static CompiledChain postrouting(Chain... chains) {
        return mangle(chains).builtin(Table.MANGLE, Hook.POSTROUTING);
    }

    private static Rule setMss(int mss) {
        return Rule.of(new Target.SetMss(mss), new Match.ProtocolIs(Protocol.TCP), new Match.TcpSyn());
    }

    @Test
    void aChainOfSetMssTargetsKeepsEveryMssUpToTheLowestTheySet() {
        CompiledChain chain = postrouting(new Chain("POSTROUTING", List.of(setMss(1450), Rule.of(new Target.Jump("CLAMP")))),
                new Chain("CLAMP", List.of(setMss(1380))));

        assertThat(chain.keepsMss(1380)).isTrue();
        assertThat(chain.keepsMss(0)).as("a packet without the option").isTrue();
        assertThat(chain.keepsMss(1381)).as("the jumped-to rule lowers it").isFalse();
    }

    @Test
    void aClampToThePathMtuKeepsOnlyAMissingMss() {
        CompiledChain chain = postrouting(new Chain("POSTROUTING", List.of(
                Rule.of(new Target.ClampMssToPmtu(), new Match.ProtocolIs(Protocol.TCP), new Match.TcpSyn()))));

        assertThat(chain.keepsMss(0)).isTrue();
        assertThat(chain.keepsMss(536)).as("the clamp's value needs the route").isFalse();
    }

    @Test
    void aChainWithAnyOtherTargetMayChangeEvenAPacketWithoutAnMss() {
        CompiledChain chain = postrouting(new Chain("POSTROUTING", List.of(setMss(1450), Rule.of(new Target.SetMark(0x4000, 0x4000)))));

        assertThat(chain.keepsMss(0)).isFalse();
    }

    @Test
    void aBuiltinChainOfOnePlainJumpIsWalkedAsTheChainAtTheEndOfItsJumps() {
        Ruleset mangle = mangle(new Chain("POSTROUTING", List.of(Rule.of(new Target.Jump("SUBMARINER-POSTROUTING")))),
                new Chain("SUBMARINER-POSTROUTING", List.of(Rule.of(new Target.Jump("SUBMARINER-MSS")))),
                new Chain("SUBMARINER-MSS", List.of(setMss(1380))));
        CompiledChain chain = mangle.builtin(Table.MANGLE, Hook.POSTROUTING);

        assertThat(chain.walked.name()).isEqualTo("SUBMARINER-MSS");
        TableRun run = mangle.runOnce(chain, new TableRun(SYN, "eth0", "eth1", 0, 0, 0, true).withMss(1460));
        assertThat(run.verdict()).isEqualTo(Verdict.ACCEPT);
        assertThat(run.mss()).isEqualTo(1380);
        assertThat(run.hits()).isEqualTo(1);
        assertThat(run.hitRule(0).ref().chain()).isEqualTo("SUBMARINER-MSS");
    }

    @Test
    void aChainWhoseJumpHasAMatchIsWalkedItself() {
        CompiledChain chain = postrouting(new Chain("POSTROUTING", List.of(
                        Rule.of(new Target.Jump("SUBMARINER-MSS"), new Match.Destination(Ipv4Prefix.parse("10.2.0.0/16"))))),
                new Chain("SUBMARINER-MSS", List.of(setMss(1380))));

        assertThat(chain.walked).isSameAs(chain);
    }

    @Test
    void anObservedTraversalEntersTheBuiltinChainAndEveryChainItJumpsTo() {
        Ruleset mangle = mangle(new Chain("POSTROUTING", List.of(Rule.of(new Target.Jump("SUBMARINER-POSTROUTING")))),
                new Chain("SUBMARINER-POSTROUTING", List.of(setMss(1380))));
        List<String> entered = new java.util.ArrayList<>();

        mangle.runOnce(mangle.builtin(Table.MANGLE, Hook.POSTROUTING), new TableRun(SYN, "eth0", "eth1", 0, 0, 0, true).withMss(1380)
                .observedBy((host, table, name, packet) -> entered.add(name), null));

        assertThat(entered).containsExactly("POSTROUTING", "SUBMARINER-POSTROUTING");
    }
}
