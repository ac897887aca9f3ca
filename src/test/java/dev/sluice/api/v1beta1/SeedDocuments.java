package dev.sluice.api.v1beta1;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** Reads the documents of a multi-document YAML test resource as JSON trees. */
final class SeedDocuments {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private SeedDocuments() {
    }

    static List<JsonNode> read(String resource) {
        try (InputStream in = SeedDocuments.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource " + resource);
            }
            YAMLParser parser = new YAMLFactory().createParser(in);
            List<JsonNode> documents = new ArrayList<>();
            for (var it = YAML.readValues(parser, JsonNode.class); it.hasNext();) {
                JsonNode document = it.next();
                if (document != null && !document.isNull() && !document.isMissingNode()) {
                    documents.add(document);
                }
            }
            return documents;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
