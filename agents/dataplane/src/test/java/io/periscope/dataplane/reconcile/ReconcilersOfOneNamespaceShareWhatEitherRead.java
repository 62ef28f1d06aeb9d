package io.periscope.dataplane.reconcile;

import io.periscope.dataplane.TestNamespace;
import io.periscope.dataplane.command.RecordingCommandRunner;
import io.periscope.dataplane.diff.CanonicalForm;
import io.periscope.dataplane.watch.NetlinkKernelWatch;
import io.periscope.model.net.Ipv4Address;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.netfilter.Chain;
import io.periscope.plan.netfilter.Match;
import io.periscope.plan.netfilter.NetfilterTable;
import io.periscope.plan.netfilter.Rule;
import io.periscope.plan.netfilter.Table;
import io.periscope.plan.netfilter.Target;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * In a real namespace just made, two reconcilers sharing one {@link NetfilterPicture}, as the lab's
 * kube-proxy stand-in and Periscope's agent of one node do: the second works from what the first
 * committed without an {@code iptables-save}, a check against the kernel reads the tables once for
 * both, and a rule anyone else commits in between is seen and left alone.
 */
class ReconcilersOfOneNamespaceShareWhatEitherRead {

    private static final Ownership KUBE_PROXY = new Ownership(List.of("KUBE-"), List.of(), List.of(), Set.of(), Set.of());

    private TestNamespace namespace;
    private NetlinkKernelWatch kubeProxyWatch;
    private NetlinkKernelWatch submarinerWatch;
    private RecordingCommandRunner runner;
    private Reconciler kubeProxy;
    private Reconciler submariner;

    @BeforeEach
    void createNamespace() {
        namespace = TestNamespace.create();
        SeedGateway.prepare(namespace);
        kubeProxyWatch = NetlinkKernelWatch.openIn(namespace.name());
        submarinerWatch = NetlinkKernelWatch.openIn(namespace.name());
        runner = RecordingCommandRunner.wrapping(namespace.runner());
        NetfilterPicture shared = new NetfilterPicture();
        kubeProxy = new Reconciler(runner, KUBE_PROXY, kubeProxyWatch, shared);
        submariner = new Reconciler(runner, Ownership.submariner(), submarinerWatch, shared);
    }

    @AfterEach
    void deleteNamespace() {
        if (kubeProxyWatch != null) {
            kubeProxyWatch.close();
        }
        if (submarinerWatch != null) {
            submarinerWatch.close();
        }
        if (namespace != null) {
            namespace.close();
        }
    }

    /** A kube-proxy layer of {@code count} service rules in a chain of its own. */
    private static DataplanePlan services(int count) {
        List<Rule> rules = IntStream.range(0, count).mapToObj(i -> Rule.of(
                new Target.Dnat(Ipv4Address.parse("10.0." + i / 256 + "." + i % 256), OptionalInt.empty()),
                new Match.Destination(Ipv4Prefix.parse("100.0." + i / 256 + "." + i % 256 + "/32")))).toList();
        return new DataplanePlan(List.of(new NetfilterTable(Table.NAT, List.of(new Chain("KUBE-SERVICES", rules)))),
                List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), Map.of());
    }

    private long saves() {
        long saves = runner.commands().stream().filter(c -> c.argv().equals(List.of("iptables-save"))).count();
        runner.clear();
        return saves;
    }

    private void assertTheKernelHolds(Ownership ownership, DataplanePlan plan) {
        DataplanePlan read = new DataplaneReader(namespace.runner()).read(ownership.scopeFor(plan)).plan();
        assertThat(CanonicalForm.of(read)).isEqualTo(CanonicalForm.of(plan));
    }

    @Test
    void theSecondAgentWorksFromWhatTheFirstCommittedAndTheCheckReadsOnceForBoth() {
        kubeProxy.reconcile(services(300));
        runner.clear();

        submariner.reconcile(SeedGateway.plan());

        assertThat(saves()).as("iptables-save run by the second agent").isZero();
        assertTheKernelHolds(KUBE_PROXY, services(300));
        assertTheKernelHolds(Ownership.submariner(), SeedGateway.plan());
        assertThat(kubeProxy.diffWithKernel(services(300)).changes()).isEmpty();
        assertThat(submariner.diffWithKernel(SeedGateway.plan()).changes()).isEmpty();
        assertThat(saves()).as("iptables-save run by both checks").isEqualTo(1);
    }

    @Test
    void aFreshNamespacesFirstReconcileIsTrustedWithoutReadingItBack() {
        kubeProxy.reconcile(services(10));
        runner.clear();

        assertThat(kubeProxy.reconcile(services(11)).applied()).singleElement();

        assertThat(saves()).isZero();
        assertTheKernelHolds(KUBE_PROXY, services(11));
    }

    @Test
    void aRuleSomeoneElseCommitsInBetweenIsReadAndLeftAlone() {
        kubeProxy.reconcile(services(50));
        namespace.run("iptables", "-t", "nat", "-A", "PREROUTING", "-s", "10.9.0.0/16", "-j", "ACCEPT");
        runner.clear();

        submariner.reconcile(SeedGateway.plan());

        assertThat(saves()).isEqualTo(1);
        assertThat(namespace.run("iptables-save", "-t", "nat")).contains("-A PREROUTING -s 10.9.0.0/16 -j ACCEPT");
        assertTheKernelHolds(KUBE_PROXY, services(50));
        assertTheKernelHolds(Ownership.submariner(), SeedGateway.plan());
        assertThat(kubeProxy.diffWithKernel(services(50)).changes()).isEmpty();
    }
}
