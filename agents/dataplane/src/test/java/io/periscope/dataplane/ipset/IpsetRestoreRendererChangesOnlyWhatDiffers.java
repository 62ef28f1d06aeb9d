package io.periscope.dataplane.ipset;

import io.periscope.dataplane.change.IpSetChange;
import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.ipset.IpSetType;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IpsetRestoreRendererChangesOnlyWhatDiffers {

    private static IpSet set(String name, IpSetType type, String... members) {
        return new IpSet(name, type, List.of(members).stream().map(Ipv4Prefix::parse).toList());
    }

    @Test
    void aNewSetIsCreatedWithItsMembersAndSingleAddressesAreWrittenBare() {
        IpSetChange created = new IpSetChange(Optional.empty(), Optional.of(set("SM-GN-NS-1", IpSetType.HASH_NET, "10.0.1.5/32", "10.0.2.0/24")));

        assertThat(IpsetRestoreRenderer.renderUpdates(List.of(created))).contains("""
                create SM-GN-NS-1 hash:net family inet -exist
                add SM-GN-NS-1 10.0.1.5 -exist
                add SM-GN-NS-1 10.0.2.0/24 -exist
                """);
        assertThat(IpsetRestoreRenderer.renderDestructions(List.of(created))).isEmpty();
    }

    @Test
    void membershipChangesTouchOnlyTheMembersThatDiffer() {
        IpSetChange changed = new IpSetChange(Optional.of(set("SM-GN-NS-1", IpSetType.HASH_NET, "10.0.1.5/32", "10.0.1.6/32")),
                Optional.of(set("SM-GN-NS-1", IpSetType.HASH_NET, "10.0.1.6/32", "10.0.1.7/32")));

        assertThat(IpsetRestoreRenderer.renderUpdates(List.of(changed))).contains("del SM-GN-NS-1 10.0.1.5 -exist\nadd SM-GN-NS-1 10.0.1.7 -exist\n");
    }

    @Test
    void destructionsComeSeparatelySoTheyCanRunAfterIptables() {
        IpSetChange destroyed = new IpSetChange(Optional.of(set("SM-GN-NS-1", IpSetType.HASH_NET)), Optional.empty());

        assertThat(IpsetRestoreRenderer.renderUpdates(List.of(destroyed))).isEmpty();
        assertThat(IpsetRestoreRenderer.renderDestructions(List.of(destroyed))).contains("destroy SM-GN-NS-1\n");
    }

    @Test
    void aHashIpSetRefusesANetwork() {
        IpSetChange created = new IpSetChange(Optional.empty(), Optional.of(set("SM-GN-IPS", IpSetType.HASH_IP, "10.0.0.0/24")));

        assertThatThrownBy(() -> IpsetRestoreRenderer.renderUpdates(List.of(created))).hasMessageContaining("hash:ip set SM-GN-IPS cannot hold 10.0.0.0/24");
    }
}
