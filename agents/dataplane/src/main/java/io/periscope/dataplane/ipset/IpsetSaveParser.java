package io.periscope.dataplane.ipset;

import io.periscope.model.net.Ipv4Prefix;
import io.periscope.plan.ipset.IpSet;
import io.periscope.plan.ipset.IpSetType;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses {@code ipset save} output ({@code create NAME TYPE options...} and {@code add NAME MEMBER}
 * lines) into {@link IpSet} records. Sets of types the model lacks, or of family inet6, are skipped
 * with their members. A member without a length ({@code 10.1.2.3}) is a /32.
 */
public final class IpsetSaveParser {

    private IpsetSaveParser() {
    }

    public static List<IpSet> parse(String text) {
        Map<String, IpSetType> types = new LinkedHashMap<>();
        Map<String, List<Ipv4Prefix>> members = new LinkedHashMap<>();
        int lineNumber = 0;
        for (String line : text.lines().toList()) {
            lineNumber++;
            String[] words = line.strip().split("\\s+");
            if (words.length < 2) {
                continue;
            }
            switch (words[0]) {
                case "create" -> {
                    if (words.length < 3) {
                        throw new IllegalArgumentException("ipset save line " + lineNumber + " has no type: " + line);
                    }
                    if (supported(words)) {
                        types.put(words[1], IpSetType.fromIpsetName(words[2]));
                        members.put(words[1], new ArrayList<>());
                    }
                }
                case "add" -> {
                    List<Ipv4Prefix> set = members.get(words[1]);
                    if (set != null && words.length >= 3) {
                        set.add(Ipv4Prefix.parse(words[2]));
                    }
                }
                default -> throw new IllegalArgumentException("ipset save line " + lineNumber + " is not understood: " + line);
            }
        }
        List<IpSet> sets = new ArrayList<>();
        types.forEach((name, type) -> sets.add(new IpSet(name, type, members.get(name))));
        return sets;
    }

    private static boolean supported(String[] createWords) {
        for (IpSetType type : IpSetType.values()) {
            if (type.ipsetName().equals(createWords[2])) {
                for (int i = 3; i + 1 < createWords.length; i++) {
                    if (createWords[i].equals("family") && !createWords[i + 1].equals("inet")) {
                        return false;
                    }
                }
                return true;
            }
        }
        return false;
    }
}
