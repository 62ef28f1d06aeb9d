package io.periscope.plan.link;

import java.util.HexFormat;

/** A 48-bit MAC address held in a long. */
public record MacAddress(long bits) {

    public static final MacAddress ZERO = new MacAddress(0);

    public static MacAddress parse(String text) {
        String hex = text.replace(":", "");
        if (hex.length() != 12) {
            throw new IllegalArgumentException("'" + text + "' is not a MAC address");
        }
        return new MacAddress(HexFormat.fromHexDigitsToLong(hex));
    }

    /** A locally administered unicast MAC (02:...) carrying the given 32 bits, e.g. an address. */
    public static MacAddress locallyAdministered(int prefixByte, int bits) {
        return new MacAddress(0x02L << 40 | (long) (prefixByte & 0xff) << 32 | Integer.toUnsignedLong(bits));
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(17);
        for (int shift = 40; shift >= 0; shift -= 8) {
            if (shift != 40) {
                text.append(':');
            }
            text.append(HexFormat.of().toHexDigits((byte) (bits >>> shift)));
        }
        return text.toString();
    }
}
