package io.periscope.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

/**
 * The writer of the commands' {@code --json} output. A class of its own, first touched when JSON is
 * written: as a static field of each command it built Jackson's ObjectMapper (hundreds of classes)
 * for every text output too.
 */
final class IndentedJson {

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private IndentedJson() {
    }

    static String write(Object value) throws JsonProcessingException {
        return MAPPER.writeValueAsString(value);
    }
}
