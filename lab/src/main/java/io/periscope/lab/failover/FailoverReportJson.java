package io.periscope.lab.failover;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * {@code lab failover --json}: the report's records as they are, field for field, described by
 * docs/schemas/lab-failover.schema.json. Rendered here rather than in the command so that a test can
 * check a report built in code against the schema without a lab.
 */
public final class FailoverReportJson {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private FailoverReportJson() {
    }

    public static String render(FailoverReport report) {
        try {
            return JSON.writeValueAsString(report);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the report as JSON: " + e.getMessage(), e);
        }
    }
}
