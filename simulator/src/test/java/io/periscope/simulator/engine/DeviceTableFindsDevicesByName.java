package io.periscope.simulator.engine;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class DeviceTableFindsDevicesByName {

    @Test
    void aNameEqualToADevicesFindsItsOwnOptionalAndRpFilter() {
        DeviceTable table = new DeviceTable(List.of("eth0", "vx-submariner", "veth1"), new int[] {1, 2, 0});
        // A string with the same characters, not the one the table was built from.
        String asked = new String("vx-submariner".toCharArray());

        assertThat(table.optional(asked)).contains("vx-submariner");
        assertThat(table.optional(asked)).isSameAs(table.optional("vx-submariner"));
        assertThat(table.rpFilter(asked, 7)).isEqualTo(2);
        assertThat(table.rpFilter("eth0", 7)).isEqualTo(1);
        assertThat(table.rpFilter("veth1", 7)).isEqualTo(0);
    }

    @Test
    void anUnknownNameIsItselfWithTheOthersRpFilterAndNullIsNoDevice() {
        DeviceTable table = new DeviceTable(List.of("eth0"), new int[] {1});

        assertThat(table.optional("wg0")).contains("wg0");
        assertThat(table.rpFilter("wg0", 2)).isEqualTo(2);
        assertThat(table.optional(null)).isEqualTo(Optional.empty());
        assertThat(table.rpFilter(null, 2)).isEqualTo(2);
    }

    @Test
    void everyOfManyDevicesIsFound() {
        List<String> names = IntStream.range(0, 300).mapToObj(i -> "veth" + i).toList();
        DeviceTable table = new DeviceTable(names, IntStream.range(0, 300).map(i -> i % 3).toArray());

        for (int i = 0; i < 300; i++) {
            assertThat(table.rpFilter("veth" + i, 9)).as("veth" + i).isEqualTo(i % 3);
        }
        assertThat(table.rpFilter("veth300", 9)).isEqualTo(9);
    }
}
