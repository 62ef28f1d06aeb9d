package io.periscope.model.net;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class Ipv4AddressesOrderAndParseLikeTheKernel {

    @Test
    void highAddressesSortAfterLowOnesDespiteTheSignBit() {
        assertThat(Ipv4Address.parse("242.254.1.1")).isGreaterThan(Ipv4Address.parse("10.0.0.1"));
        assertThat(Ipv4Address.parse("255.255.255.255").compareTo(Ipv4Address.parse("127.255.255.255"))).isPositive();
    }

    @Test
    void textRoundTripsForRandomAddresses() {
        Random random = new Random(42);
        for (int i = 0; i < 10_000; i++) {
            Ipv4Address address = new Ipv4Address(random.nextInt());
            assertThat(Ipv4Address.parse(address.toString())).isEqualTo(address);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"10.0.0", "10.0.0.0.1", "256.1.1.1", "a.b.c.d", "10..0.1", "", "10.0.0.1 "})
    void malformedAddressesAreRefusedWithTheirText(String text) {
        assertThatThrownBy(() -> Ipv4Address.parse(text)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining(text.trim().isEmpty() ? "" : text);
    }

    @Test
    void plusMovesAcrossOctets() {
        assertThat(Ipv4Address.parse("242.254.1.255").plus(1)).isEqualTo(Ipv4Address.parse("242.254.2.0"));
        assertThat(Ipv4Address.parse("10.0.0.0").plus(-1)).isEqualTo(Ipv4Address.parse("9.255.255.255"));
    }

    @Test
    void prefixWithHostBitsIsRefusedNamingTheNetwork() {
        assertThatThrownBy(() -> Ipv4Prefix.parse("10.0.0.1/16")).hasMessageContaining("10.0.0.0/16");
    }

    @Test
    void prefixContainmentAndOverlap() {
        Ipv4Prefix pods = Ipv4Prefix.parse("10.0.0.0/16");
        assertThat(pods.contains(Ipv4Address.parse("10.0.255.255"))).isTrue();
        assertThat(pods.contains(Ipv4Address.parse("10.1.0.0"))).isFalse();
        assertThat(pods.contains(Ipv4Prefix.parse("10.0.128.0/17"))).isTrue();
        assertThat(pods.overlaps(Ipv4Prefix.parse("10.0.0.0/8"))).isTrue();
        assertThat(pods.overlaps(Ipv4Prefix.parse("10.1.0.0/16"))).isFalse();
        assertThat(Ipv4Prefix.DEFAULT.contains(Ipv4Address.parse("242.0.0.1"))).isTrue();
        assertThat(Ipv4Prefix.parse("242.254.1.0/24").last()).isEqualTo(Ipv4Address.parse("242.254.1.255"));
        assertThat(Ipv4Prefix.parse("242.254.1.0/24").size()).isEqualTo(256);
    }

    @Test
    void rangeListsItsAddressesInOrder() {
        Ipv4Range range = Ipv4Range.parse("242.254.1.9-242.254.1.16");
        assertThat(range.size()).isEqualTo(8);
        List<String> texts = new ArrayList<>();
        range.addresses().forEach(a -> texts.add(a.toString()));
        assertThat(texts).first().isEqualTo("242.254.1.9");
        assertThat(texts).last().isEqualTo("242.254.1.16");
        assertThat(range.toString()).isEqualTo("242.254.1.9-242.254.1.16");
        assertThat(Ipv4Range.single(Ipv4Address.parse("242.254.2.254")).toString()).isEqualTo("242.254.2.254");
        assertThatThrownBy(() -> Ipv4Range.parse("10.0.0.9-10.0.0.1")).hasMessageContaining("ends before it starts");
    }
}
