package io.periscope.model.load;

import java.util.regex.Pattern;

/**
 * The name rules Kubernetes applies to the objects a topology file describes. Periscope relies on them
 * too: flows name pods as {@code cluster/namespace/pod} and services by DNS name, so a name with a
 * slash, a colon or an upper-case letter could never be referred to.
 */
final class KubernetesNames {

    /** RFC 1123 label: cluster ids, namespaces, service names. */
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

    private static final int MAX_LABEL = 63;
    private static final int MAX_SUBDOMAIN = 253;

    private KubernetesNames() {
    }

    static boolean isDnsLabel(String name) {
        return name.length() <= MAX_LABEL && DNS_LABEL.matcher(name).matches();
    }

    /** RFC 1123 subdomain (dot-separated labels): pod and node names. */
    static boolean isDnsSubdomain(String name) {
        if (name.isEmpty() || name.length() > MAX_SUBDOMAIN) {
            return false;
        }
        for (String label : name.split("\\.", -1)) {
            if (!isDnsLabel(label)) {
                return false;
            }
        }
        return true;
    }

    /** What is wrong with a name that is not a DNS label, in words a user can act on. */
    static String labelRule() {
        return "at most 63 characters of lower-case letters, digits and '-', starting and ending with a letter or digit";
    }

    static String subdomainRule() {
        return "lower-case letters, digits, '-' and '.', each dot-separated part starting and ending with a letter or digit";
    }
}
