package io.periscope.plan.dns;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The rules a name asked of the resolver must keep (RFC 1035 section 2.3.4, and the host-name
 * characters of RFC 952/1123 with the underscore of SRV names, RFC 2782). A person typing a name gets
 * the rule broken; the server, which reads names off the wire, holds them only to what the wire
 * format itself limits ({@link #fitsTheWireFormat}), since any other octet is legal there (RFC 2181
 * section 11) and a server answers such a name like any other.
 */
public final class DnsNameSyntax {

    /** Octets of one label. */
    public static final int MAX_LABEL = 63;
    /** Characters of a name in text form without its final dot: 255 octets on the wire. */
    public static final int MAX_NAME = 253;

    private DnsNameSyntax() {
    }

    /** The rule {@code name} breaks, e.g. "label 2 is empty"; empty when it may be asked. One final dot is allowed. */
    public static Optional<String> problem(String name) {
        String text = name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
        if (text.isEmpty()) {
            return Optional.of("the name is empty");
        }
        int length = text.getBytes(StandardCharsets.UTF_8).length;
        if (length > MAX_NAME) {
            return Optional.of("the name is " + length + " octets long, more than the " + MAX_NAME + " a name may have");
        }
        String[] labels = text.split("\\.", -1);
        for (int i = 0; i < labels.length; i++) {
            String label = labels[i];
            if (label.isEmpty()) {
                return Optional.of("label " + (i + 1) + " is empty (two dots in a row, or a dot at the start)");
            }
            int octets = label.getBytes(StandardCharsets.UTF_8).length;
            if (octets > MAX_LABEL) {
                return Optional.of("label " + (i + 1) + " is " + octets + " octets long, more than the " + MAX_LABEL + " a label may have");
            }
            for (int c = 0; c < label.length(); c++) {
                char ch = label.charAt(c);
                if (!(ch < 128 && (Character.isLetterOrDigit(ch) || ch == '-' || ch == '_'))) {
                    return Optional.of("label " + (i + 1) + " holds " + describe(ch)
                            + "; a name has only ASCII letters, digits, '-' and '_' (internationalised names are asked in their xn-- form)");
                }
            }
        }
        return Optional.empty();
    }

    /** Whether a name read off the wire keeps the limits of the wire format: labels of at most 63 octets, 255 octets in all. */
    public static boolean fitsTheWireFormat(String name) {
        String text = name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
        if (text.isEmpty()) {
            return true; // the root
        }
        int wire = 1;
        for (String label : text.split("\\.", -1)) {
            int octets = label.getBytes(StandardCharsets.UTF_8).length;
            if (octets == 0 || octets > MAX_LABEL) {
                return false;
            }
            wire += octets + 1;
        }
        return wire <= MAX_NAME + 2;
    }

    private static String describe(char ch) {
        return ch == ' ' ? "a space" : ch < 32 || ch == 127 ? String.format("the control character U+%04X", (int) ch)
                : ch >= 128 ? String.format("the non-ASCII character '%c' (U+%04X)", ch, (int) ch) : "'" + ch + "'";
    }
}
