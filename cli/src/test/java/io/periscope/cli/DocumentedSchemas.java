package io.periscope.cli;

import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The JSON Schemas of docs/schemas, loaded by their {@code $id} so that one refers to another by a
 * relative {@code $ref} (trace.schema.json's version 3 uses lab-probe.schema.json's flow findings):
 * an {@code $id} under {@link #ID_PREFIX} is read from docs/schemas, never fetched.
 */
final class DocumentedSchemas {

    static final Path DIRECTORY = Path.of("..", "docs", "schemas");
    static final String ID_PREFIX = "https://periscope.invalid/schemas/";

    private DocumentedSchemas() {
    }

    /** {@code name}'s schema, e.g. {@code trace.schema.json}. */
    static Schema load(String name) {
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                builder -> builder.schemas(DocumentedSchemas::text));
        return registry.getSchema(SchemaLocation.of(ID_PREFIX + name));
    }

    private static String text(String iri) {
        if (!iri.startsWith(ID_PREFIX)) {
            return null;
        }
        try {
            return Files.readString(DIRECTORY.resolve(iri.substring(ID_PREFIX.length())));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the schema " + iri + " from " + DIRECTORY, e);
        }
    }
}
