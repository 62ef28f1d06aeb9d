package io.periscope.features.steps;

import io.cucumber.java.ParameterType;
import io.periscope.model.net.Ipv4Address;

import java.util.List;
import java.util.Locale;

/** The scenario vocabulary's own parameter types. */
public final class ParameterTypes {

    /** "172.18.0.6", "172.18.0.6 and 172.18.0.8", "a, b and c". */
    @ParameterType("(?:\\d{1,3}(?:\\.\\d{1,3}){3})(?:(?:, | and )\\d{1,3}(?:\\.\\d{1,3}){3})*")
    public List<Ipv4Address> listOfAddresses(String text) {
        return HostNames.words(text).stream().map(Ipv4Address::parse).toList();
    }

    @ParameterType("plain|resilient")
    public NexthopGroupKind nexthopGroupKind(String text) {
        return NexthopGroupKind.valueOf(text.toUpperCase(Locale.ROOT));
    }
}
