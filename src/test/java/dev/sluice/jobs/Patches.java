package dev.sluice.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.json.Json;
import jakarta.json.JsonReader;
import jakarta.json.JsonStructure;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;

/**
 * Applies a JSON Patch with an independent implementation: Parsson (jakarta.json), on the classpath through
 * Quarkus. Not fabric8's zjsonpatch: it decodes "~01" as "/" instead of "~1" (RFC 6901 says ~1 first, then ~0).
 */
final class Patches {
    private Patches() {
    }

    static JsonNode apply(JsonNode patch, JsonNode document) {
        JsonStructure doc = read(document.toString());
        JsonStructure result = Json.createPatch(read(patch.toString()).asJsonArray()).apply(doc);
        try {
            return Manifests.JSON.readTree(result.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonStructure read(String json) {
        try (JsonReader r = Json.createReader(new StringReader(json))) {
            return r.read();
        }
    }
}
