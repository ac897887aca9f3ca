package dev.sluice.crd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.InputStream;
import java.nio.file.Path;

/** Kueue v0.19.2's CRDs (test resources under kueue-crds/) and the chart's, read for a field-by-field comparison. */
final class KueueCrds {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Path CHART_CRDS = Path.of("helm", "sluice", "files", "crds");

    private KueueCrds() {
    }

    /** A file of Kueue's under src/test/resources/kueue-crds/. */
    static JsonNode kueue(String name) throws Exception {
        try (InputStream in = KueueCrds.class.getResourceAsStream("/kueue-crds/" + name)) {
            assertThat(in).as(name).isNotNull();
            return YAML.readTree(in);
        }
    }

    /** The chart's CRD of a kueue.x-k8s.io plural. */
    static JsonNode chart(String plural) throws Exception {
        return YAML.readTree(CHART_CRDS.resolve(plural + ".kueue.x-k8s.io-v1.yml").toFile());
    }

    static JsonNode version(JsonNode crd, String name) {
        for (JsonNode v : crd.at("/spec/versions")) {
            if (v.path("name").asText().equals(name)) {
                return v;
            }
        }
        throw new AssertionError(crd.at("/metadata/name") + " has no version " + name);
    }
}
