package io.periscope.dataplane.diff;


import io.periscope.dataplane.change.BuiltinChainChange;
import io.periscope.dataplane.change.ChainChange;
import io.periscope.dataplane.change.DataplaneChange;
import io.periscope.dataplane.change.FdbChange;
import io.periscope.dataplane.change.IpSetChange;
import io.periscope.dataplane.change.NeighbourChange;
import io.periscope.dataplane.change.NexthopGroupChange;
import io.periscope.dataplane.change.NexthopObjectChange;
import io.periscope.dataplane.change.PolicyRuleChange;
import io.periscope.dataplane.change.RouteChange;
import io.periscope.dataplane.change.SysctlChange;
import io.periscope.dataplane.change.VxlanDeviceChange;
import io.periscope.dataplane.iptables.SavedTable;
import io.periscope.dataplane.reconcile.ChangeCommands;
import io.periscope.plan.DataplanePlan;
import io.periscope.plan.netfilter.Table;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.EnumMap;
import java.util.Map;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

class DiffOfRandomPlansLeadsToTheDesiredPlan {

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 300);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void applyingTheDiffToTheCurrentPlanGivesTheDesiredPlan(long seed) {
        DataplanePlan current = RandomPlans.plan(seed, 0);
        DataplanePlan desired = RandomPlans.plan(seed, 1);

        DataplaneDiff diff = DataplaneDiff.between(current, desired);

        assertThat(diff.applyTo(current)).isEqualTo(CanonicalForm.of(desired));
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void aPlanComparedWithItselfHasNoDiff(long seed) {
        DataplanePlan plan = RandomPlans.plan(seed, 0);

        assertThat(DataplaneDiff.between(plan, plan).changes()).isEmpty();
        assertThat(DataplaneDiff.between(plan, CanonicalForm.of(plan)).changes()).isEmpty();
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void aDiffHoldsOnlyChangesThatChangeSomethingAndLeavesNothingToDo(long seed) {
        DataplanePlan current = RandomPlans.plan(seed, 0);
        DataplanePlan desired = RandomPlans.plan(seed, 1);

        DataplaneDiff forward = DataplaneDiff.between(current, desired);
        DataplaneDiff after = DataplaneDiff.between(forward.applyTo(current), desired);

        assertThat(after.changes()).isEmpty();
        assertThat(forward.changes()).allSatisfy(change -> assertThat(changesSomething(change)).isTrue());
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void everyDiffRendersToCommands(long seed) {
        DataplanePlan current = CanonicalForm.of(RandomPlans.plan(seed, 0));
        Map<Table, SavedTable> saved = new EnumMap<>(Table.class);
        current.netfilter().forEach(t -> saved.put(t.table(), SavedTable.of(t)));

        DataplaneDiff diff = DataplaneDiff.between(current, RandomPlans.plan(seed, 1));

        assertThat(ChangeCommands.of(diff, saved)).isNotEmpty();
    }

    /** A change whose before and after are the same would be a wasted command. */
    private static boolean changesSomething(DataplaneChange change) {
        return switch (change) {
            case ChainChange c -> !c.before().equals(c.after());
            case BuiltinChainChange c -> !c.before().equals(c.after());
            case IpSetChange c -> !c.before().equals(c.after());
            case VxlanDeviceChange c -> !c.before().equals(c.after());
            case NeighbourChange c -> !c.before().equals(c.after());
            case FdbChange c -> !c.before().equals(c.after());
            case NexthopObjectChange c -> !c.before().equals(c.after());
            case NexthopGroupChange c -> !c.before().equals(c.after());
            case RouteChange c -> !c.before().equals(c.after());
            case PolicyRuleChange c -> true;
            case SysctlChange c -> !c.before().equals(c.after());
        };
    }
}
