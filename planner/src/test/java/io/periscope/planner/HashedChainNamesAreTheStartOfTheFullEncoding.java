package io.periscope.planner;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The chain names written straight from the digest are the first 16 characters of the whole base32 encoding. */
class HashedChainNamesAreTheStartOfTheFullEncoding {

    @Test
    void everyNameIsThePrefixAndSixteenCharactersOfTheEncoding() {
        for (String text : new String[] {"", "default/nginx:httptcp", "default/nginxtcp10.1.0.5:8080", "ns-7/svc-123:53udp", "\u00e9t\u00e9"}) {
            assertThat(KubeProxyPlanner.hashedChainName("KUBE-SEP-", text))
                    .isEqualTo("KUBE-SEP-" + KubeProxyPlanner.base32Sha256(text).substring(0, 16));
        }
    }
}
