package io.periscope.dataplane.iptables;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a line of {@code iptables-save} output into words the way {@code iptables-restore} does:
 * on spaces, except inside double quotes, where a backslash takes the next character literally.
 */
final class IptablesTokens {

    private IptablesTokens() {
    }

    static List<String> split(String line) {
        List<String> tokens = new ArrayList<>();
        StringBuilder token = new StringBuilder();
        boolean inToken = false;
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '\\' && i + 1 < line.length()) {
                    token.append(line.charAt(++i));
                } else if (c == '"') {
                    quoted = false;
                } else {
                    token.append(c);
                }
            } else if (c == '"') {
                quoted = true;
                inToken = true;
            } else if (Character.isWhitespace(c)) {
                if (inToken) {
                    tokens.add(token.toString());
                    token.setLength(0);
                    inToken = false;
                }
            } else {
                token.append(c);
                inToken = true;
            }
        }
        if (quoted) {
            throw new IllegalArgumentException("unterminated quote in: " + line);
        }
        if (inToken) {
            tokens.add(token.toString());
        }
        return tokens;
    }
}
