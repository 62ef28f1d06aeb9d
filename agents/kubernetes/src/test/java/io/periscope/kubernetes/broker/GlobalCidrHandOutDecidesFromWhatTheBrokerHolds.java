package io.periscope.kubernetes.broker;

import io.periscope.model.net.Ipv4Prefix;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The decision alone, for the cases the CRUD tests do not reach. */
class GlobalCidrHandOutDecidesFromWhatTheBrokerHolds {

    private static final String WHERE = "ConfigMap submariner-k8s-broker/submariner-globalnet-info";

    @Test
    void withoutTheConfigMapOrWithGlobalnetOffNothingIsDecided() {
        assertThat(GlobalCidrHandOut.decide(Optional.empty(), "east", List.of("10.9.0.0/16"), Map.of(), WHERE))
                .isInstanceOf(GlobalCidrHandOut.Off.class);
        assertThat(GlobalCidrHandOut.decide(Optional.of(new GlobalnetInfo(false, null, 0, Map.of())), "east", List.of(), Map.of(), WHERE))
                .isInstanceOf(GlobalCidrHandOut.Off.class);
    }

    @Test
    void aBlockAnotherClusterPublishedBeforeTheRecordExistedIsNotHandedOutAgain() {
        GlobalnetInfo info = new GlobalnetInfo(true, Ipv4Prefix.parse("242.0.0.0/8"), 65536, Map.of());

        assertThat(GlobalCidrHandOut.decide(Optional.of(info), "east", List.of(), Map.of("west", Ipv4Prefix.parse("242.0.0.0/16")), WHERE))
                .isEqualTo(new GlobalCidrHandOut.Record(Ipv4Prefix.parse("242.1.0.0/16"), false));
    }

    @Test
    void aCidrWithHostBitsOrMoreThanOneCidrIsRefusedSayingHowToWriteIt() {
        GlobalnetInfo info = new GlobalnetInfo(true, Ipv4Prefix.parse("242.0.0.0/8"), 65536, Map.of());

        GlobalCidrHandOut.Decision hostBits = GlobalCidrHandOut.decide(Optional.of(info), "east", List.of("242.0.1.0/16"), Map.of(), WHERE);
        assertThat(hostBits).isInstanceOfSatisfying(GlobalCidrHandOut.Refused.class, r -> {
            assertThat(r.reason()).isEqualTo("InvalidGlobalCIDR");
            assertThat(r.message()).contains("242.0.0.0/16", "remove global_cidr");
        });
        GlobalCidrHandOut.Decision two = GlobalCidrHandOut.decide(Optional.of(info), "east", List.of("242.0.0.0/16", "242.1.0.0/16"), Map.of(), WHERE);
        assertThat(two).isInstanceOfSatisfying(GlobalCidrHandOut.Refused.class, r -> assertThat(r.reason()).isEqualTo("InvalidGlobalCIDR"));
    }

    @Test
    void theRecordOfTheClusterItselfIsNoOverlap() {
        GlobalnetInfo info = new GlobalnetInfo(true, Ipv4Prefix.parse("242.0.0.0/8"), 65536, Map.of("east", Ipv4Prefix.parse("242.0.0.0/16")));

        assertThat(GlobalCidrHandOut.decide(Optional.of(info), "east", List.of("242.0.0.0/17"), Map.of(), WHERE))
                .isEqualTo(new GlobalCidrHandOut.Record(Ipv4Prefix.parse("242.0.0.0/17"), true));
        assertThat(GlobalCidrHandOut.decide(Optional.of(info), "east", List.of("242.0.0.0/16"), Map.of(), WHERE))
                .isEqualTo(new GlobalCidrHandOut.Held(Ipv4Prefix.parse("242.0.0.0/16"), true));
    }
}
