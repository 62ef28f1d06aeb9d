package io.periscope.plan;

import io.periscope.model.globalnet.GlobalnetAllocations;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A plan copies the hosts it is given once, keeps them sorted and unmodifiable, and a plan made from its hosts shares them. */
class APlansHostsAreItsOwn {

    private static HostPlan host(HostId id) {
        return new HostPlan(id, HostPlan.HostRole.NODE, Optional.empty(), List.of(), DataplanePlan.EMPTY, DataplanePlan.EMPTY);
    }

    @Test
    void theCallersMapChangesNothingOnceThePlanIsMade() {
        TreeMap<HostId, HostPlan> given = new TreeMap<>();
        given.put(HostId.node("west", "n2"), host(HostId.node("west", "n2")));
        given.put(HostId.node("east", "n1"), host(HostId.node("east", "n1")));
        ClusterSetPlan plan = new ClusterSetPlan(null, List.of(), given, List.of(), List.of());

        given.clear();

        assertThat(plan.hosts().keySet()).containsExactly(HostId.node("east", "n1"), HostId.node("west", "n2"));
        assertThat(plan.hosts().firstKey()).isEqualTo(HostId.node("east", "n1"));
        assertThat(plan.hosts().tailMap(HostId.node("f", "")).keySet()).containsExactly(HostId.node("west", "n2"));
        assertThat(plan.host(HostId.node("west", "n2"))).isPresent();
        assertThat(plan.hosts()).isEqualTo(new TreeMap<>(java.util.Map.of(HostId.node("east", "n1"), host(HostId.node("east", "n1")),
                HostId.node("west", "n2"), host(HostId.node("west", "n2")))));
    }

    @Test
    void nobodyChangesThePlansHosts() {
        ClusterSetPlan plan = new ClusterSetPlan(null, List.of(), new TreeMap<>(java.util.Map.of(HostId.node("east", "n1"),
                host(HostId.node("east", "n1")))), List.of(), List.of());

        assertThatThrownBy(() -> plan.hosts().put(HostId.node("east", "n2"), host(HostId.node("east", "n2"))))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> plan.hosts().entrySet().iterator().next().setValue(host(HostId.node("east", "n9"))))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> plan.hosts().headMap(HostId.node("z", "")).clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThat(plan.hosts()).hasSize(1);
    }

    @Test
    void aPlanMadeFromAnotherPlansHostsSharesThem() {
        ClusterSetPlan plan = new ClusterSetPlan(null, List.of(), new TreeMap<>(java.util.Map.of(HostId.node("east", "n1"),
                host(HostId.node("east", "n1")))), List.of(), List.of());

        ClusterSetPlan withAllocations = new ClusterSetPlan(plan.clusterSet(), plan.endpoints(), plan.hosts(), plan.segments(),
                plan.serviceRecords(), GlobalnetAllocations.NONE);

        assertThat(withAllocations.hosts()).isSameAs(plan.hosts());
    }
}
