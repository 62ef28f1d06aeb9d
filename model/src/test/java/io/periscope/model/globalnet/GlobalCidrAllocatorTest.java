package io.periscope.model.globalnet;

import io.periscope.model.net.Ipv4Prefix;
import io.periscope.model.topology.Cluster;
import io.periscope.model.topology.GlobalnetConfig;
import io.periscope.model.topology.GlobalnetMode;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.periscope.model.globalnet.TopologyFixture.cluster;
import static io.periscope.model.globalnet.TopologyFixture.globalnet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

class GlobalCidrAllocatorTest {

    private static Cluster named(String name) {
        return cluster(name).build();
    }

    private static Cluster declaring(String name, String cidr) {
        return cluster(name).globalCidr(cidr).build();
    }

    private static Ipv4Prefix cidr(String text) {
        return Ipv4Prefix.parse(text);
    }

    @Test
    void declaredCidrsAreKept() {
        GlobalCidrAssignment assignment = GlobalCidrAllocator.allocate(globalnet("242.254.0.0/16", 256),
                List.of(declaring("cluster1", "242.254.1.0/24"), declaring("cluster2", "242.254.2.0/24")));

        assertThat(assignment.succeeded()).isTrue();
        assertThat(assignment.cidrs()).containsExactly(
                entry("cluster1", cidr("242.254.1.0/24")), entry("cluster2", cidr("242.254.2.0/24")));
    }

    @Test
    void brokerHandsOutTheLowestFreeBlocksInClusterOrder() {
        GlobalCidrAssignment assignment = GlobalCidrAllocator.allocate(new GlobalnetConfig(true, GlobalnetConfig.DEFAULT_CIDR, GlobalnetConfig.DEFAULT_CLUSTER_SIZE, GlobalnetMode.V2),
                List.of(named("east"), named("west"), named("north")));

        assertThat(assignment.cidrs()).containsExactly(
                entry("east", cidr("242.0.0.0/16")), entry("west", cidr("242.1.0.0/16")), entry("north", cidr("242.2.0.0/16")));
    }

    @Test
    void handOutSkipsBlocksDeclaredByLaterClusters() {
        GlobalCidrAssignment assignment = GlobalCidrAllocator.allocate(globalnet("242.254.0.0/16", 256),
                List.of(named("a"), named("b"), declaring("c", "242.254.0.0/24"), declaring("d", "242.254.2.0/23")));

        assertThat(assignment.cidrs()).containsExactly(
                entry("a", cidr("242.254.1.0/24")), entry("b", cidr("242.254.4.0/24")),
                entry("c", cidr("242.254.0.0/24")), entry("d", cidr("242.254.2.0/23")));
    }

    @Test
    void handedOutBlocksAreAlignedToTheirSizePastAnOddDeclaredBlock() {
        GlobalCidrAssignment assignment = GlobalCidrAllocator.allocate(globalnet("242.254.0.0/16", 1024),
                List.of(declaring("small", "242.254.0.64/26"), named("big")));

        assertThat(assignment.cidrOf("big")).contains(cidr("242.254.4.0/22"));
    }

    @Test
    void cidrOutsideTheGlobalRangeIsRefusedNamingTheCluster() {
        GlobalCidrAssignment assignment = GlobalCidrAllocator.allocate(globalnet("242.254.0.0/16", 256),
                List.of(declaring("cluster1", "242.254.1.0/24"), declaring("cluster2", "243.0.1.0/24")));

        assertThat(assignment.cidrs()).containsOnlyKeys("cluster1");
        assertThat(assignment.failures()).singleElement().satisfies(f -> {
            assertThat(f.cluster()).isEqualTo("cluster2");
            assertThat(f.kind()).isEqualTo(GlobalCidrFailure.Kind.OUTSIDE_GLOBAL_RANGE);
            assertThat(f.problem()).contains("243.0.1.0/24").contains("242.254.0.0/16");
            assertThat(f.fix()).isNotBlank();
        });
    }

    @Test
    void cidrPartlyOutsideTheGlobalRangeIsRefused() {
        GlobalCidrAssignment assignment = GlobalCidrAllocator.allocate(globalnet("242.254.0.0/16", 256),
                List.of(declaring("wide", "242.254.0.0/15")));

        assertThat(assignment.failures()).extracting(GlobalCidrFailure::kind).containsExactly(GlobalCidrFailure.Kind.OUTSIDE_GLOBAL_RANGE);
    }

    @Test
    void overlappingDeclaredCidrIsRefusedNamingBothClusters() {
        GlobalCidrAssignment assignment = GlobalCidrAllocator.allocate(globalnet("242.254.0.0/16", 256),
                List.of(declaring("cluster1", "242.254.0.0/23"), declaring("cluster2", "242.254.1.0/24")));

        assertThat(assignment.cidrs()).containsOnlyKeys("cluster1");
        assertThat(assignment.failures()).singleElement().satisfies(f -> {
            assertThat(f.cluster()).isEqualTo("cluster2");
            assertThat(f.kind()).isEqualTo(GlobalCidrFailure.Kind.OVERLAPS_DECLARED);
            assertThat(f.problem()).contains("242.254.1.0/24").contains("cluster1").contains("242.254.0.0/23");
        });
    }

    @Test
    void refusedDeclaredCidrStillKeepsTheHandOutAway() {
        GlobalCidrAssignment assignment = GlobalCidrAllocator.allocate(globalnet("242.254.0.0/16", 256),
                List.of(declaring("x", "242.254.0.0/24"), declaring("y", "242.254.0.0/23"), named("z")));

        assertThat(assignment.failures()).extracting(GlobalCidrFailure::cluster).containsExactly("y");
        assertThat(assignment.cidrOf("z")).contains(cidr("242.254.2.0/24"));
    }

    @Test
    void exhaustionOfTheGlobalRangeNamesTheClusterLeftWithout() {
        GlobalCidrAssignment assignment = GlobalCidrAllocator.allocate(globalnet("242.254.0.0/23", 256),
                List.of(named("one"), named("two"), named("three")));

        assertThat(assignment.cidrs()).containsExactly(
                entry("one", cidr("242.254.0.0/24")), entry("two", cidr("242.254.1.0/24")));
        assertThat(assignment.failures()).singleElement().satisfies(f -> {
            assertThat(f.cluster()).isEqualTo("three");
            assertThat(f.kind()).isEqualTo(GlobalCidrFailure.Kind.GLOBAL_RANGE_EXHAUSTED);
            assertThat(f.problem()).contains("242.254.0.0/23").contains("256");
        });
    }

    @Test
    void clusterSizeThatIsNoPowerOfTwoIsRefusedForEachClusterThatNeedsIt() {
        GlobalCidrAssignment assignment = GlobalCidrAllocator.allocate(globalnet("242.254.0.0/16", 300),
                List.of(declaring("keeps", "242.254.1.0/24"), named("needs")));

        assertThat(assignment.cidrs()).containsOnlyKeys("keeps");
        assertThat(assignment.failures()).singleElement().satisfies(f -> {
            assertThat(f.cluster()).isEqualTo("needs");
            assertThat(f.kind()).isEqualTo(GlobalCidrFailure.Kind.INVALID_CLUSTER_SIZE);
            assertThat(f.problem()).contains("300");
        });
    }

    @Test
    void clusterSizeLargerThanTheGlobalRangeIsRefused() {
        GlobalCidrAssignment assignment = GlobalCidrAllocator.allocate(globalnet("242.254.0.0/24", 512), List.of(named("c")));

        assertThat(assignment.failures()).extracting(GlobalCidrFailure::kind).containsExactly(GlobalCidrFailure.Kind.INVALID_CLUSTER_SIZE);
    }

    @Test
    void declaredCidrTooSmallForAnyAddressIsRefused() {
        GlobalCidrAssignment assignment = GlobalCidrAllocator.allocate(globalnet("242.254.0.0/16", 256),
                List.of(declaring("tiny", "242.254.0.4/31")));

        assertThat(assignment.failures()).extracting(GlobalCidrFailure::kind).containsExactly(GlobalCidrFailure.Kind.UNSUPPORTED_SIZE);
    }

    @Test
    void duplicateClusterNameIsRefusedNotOverwritten() {
        GlobalCidrAssignment assignment = GlobalCidrAllocator.allocate(globalnet("242.254.0.0/16", 256),
                List.of(declaring("twin", "242.254.1.0/24"), declaring("twin", "242.254.2.0/24")));

        assertThat(assignment.cidrs()).containsExactly(entry("twin", cidr("242.254.1.0/24")));
        assertThat(assignment.failures()).extracting(GlobalCidrFailure::kind).containsExactly(GlobalCidrFailure.Kind.DUPLICATE_CLUSTER);
    }

    @Test
    void disabledGlobalnetHandsOutNothing() {
        GlobalCidrAssignment assignment = GlobalCidrAllocator.allocate(GlobalnetConfig.DISABLED,
                List.of(named("a"), declaring("b", "10.0.0.0/24")));

        assertThat(assignment.cidrs()).isEmpty();
        assertThat(assignment.failures()).isEmpty();
    }

    @Test
    void assignmentCannotBeModified() {
        GlobalCidrAssignment assignment = GlobalCidrAllocator.allocate(globalnet("242.254.0.0/16", 256), List.of(named("a")));

        Map<String, Ipv4Prefix> cidrs = assignment.cidrs();
        assertThatThrownBy(() -> cidrs.put("b", cidr("242.254.9.0/24")))
                .isInstanceOf(UnsupportedOperationException.class);
    }
}
