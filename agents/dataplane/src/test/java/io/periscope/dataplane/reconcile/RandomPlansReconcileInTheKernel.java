package io.periscope.dataplane.reconcile;

import io.periscope.dataplane.TestNamespace;
import io.periscope.dataplane.diff.CanonicalForm;
import io.periscope.dataplane.diff.RandomPlans;
import io.periscope.dataplane.watch.NetlinkKernelWatch;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.routing.RouteProtocol;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A sequence of random plans (see {@link RandomPlans}) reconciled one after the other in a real
 * namespace: each is read back exactly, and reconciling it again runs nothing. Consecutive plans
 * share names and ids with other attributes, so devices, groups and routes get replaced, rebuilt
 * and deleted in every order the diff knows.
 */
class RandomPlansReconcileInTheKernel {

    /** Random plans use vx-a / vx-b and tables 100 and main for their static routes. */
    private static final Ownership OWNERSHIP = new Ownership(List.of("SUBMARINER-", "SM-GN-"), List.of("SUBMARINER-", "SM-GN-"),
            List.of("vx-"), Set.of(100, 254), EnumSet.of(RouteProtocol.STATIC));

    private TestNamespace namespace;

    @BeforeEach
    void createNamespace() {
        namespace = TestNamespace.create();
        namespace.veth("eth0", "172.18.0.10/16");
    }

    @AfterEach
    void deleteNamespace() {
        if (namespace != null) {
            namespace.close();
        }
    }

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 20);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void eachPlanOfASequenceIsReachedAndThenStable(long seed) {
        reachEachPlan(seed, new Reconciler(namespace.runner(), OWNERSHIP));
    }

    /** The same with a kernel watch: the reconciler's kept picture must never drift from the kernel. */
    @ParameterizedTest
    @MethodSource("seeds")
    void eachPlanOfASequenceIsReachedAndThenStableReadingOnlyWhatChanged(long seed) {
        try (NetlinkKernelWatch watch = NetlinkKernelWatch.openIn(namespace.name())) {
            reachEachPlan(seed, new Reconciler(namespace.runner(), OWNERSHIP, watch));
        }
    }

    private void reachEachPlan(long seed, Reconciler reconciler) {
        for (int index = 0; index < 4; index++) {
            DataplanePlan plan = RandomPlans.plan(seed, index);

            reconciler.reconcile(plan);

            DataplanePlan read = new DataplaneReader(namespace.runner()).read(OWNERSHIP.scopeFor(plan)).plan();
            assertThat(CanonicalForm.of(read)).as("plan %d of seed %d", index, seed).isEqualTo(CanonicalForm.of(plan));
            assertThat(reconciler.reconcile(plan).applied()).as("again plan %d of seed %d", index, seed).isEmpty();
        }
    }
}
