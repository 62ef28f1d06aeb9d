package io.periscope.features.steps;

import io.periscope.model.net.Ipv4Address;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AddressPatternAcceptsAnyAddressOfARange {

    @Test
    void aRangeAcceptsEveryAddressOfItAndNoOther() {
        AddressPattern range = AddressPattern.parse("242.254.1.9-242.254.1.16");
        assertThat(range.matches(Ipv4Address.parse("242.254.1.9"), 40000)).isTrue();
        assertThat(range.matches(Ipv4Address.parse("242.254.1.16"), 40000)).isTrue();
        assertThat(range.matches(Ipv4Address.parse("242.254.1.8"), 40000)).isFalse();
    }

    @Test
    void aPortIsCheckedOnlyWhenWritten() {
        assertThat(AddressPattern.parse("10.0.128.5").matches(Ipv4Address.parse("10.0.128.5"), 80)).isTrue();
        assertThat(AddressPattern.parse("10.0.128.5:80").matches(Ipv4Address.parse("10.0.128.5"), 8080)).isFalse();
    }

    @Test
    void anEmptyCellAcceptsAnything() {
        assertThat(AddressPattern.parse(" ").matches(Ipv4Address.parse("1.2.3.4"), 1)).isTrue();
    }
}
