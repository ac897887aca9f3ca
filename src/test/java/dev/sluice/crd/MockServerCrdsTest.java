package dev.sluice.crd;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * fabric8's mock API server knows one version per CRD (the highest, v1beta2): without more, it would list no
 * v1beta1 resources in discovery and treat their status as no subresource. The test profile therefore also applies
 * src/test/resources/mock-crds/ (quarkus.operator-sdk.crd.external-crd-locations): each CRD again, under a name of
 * its own, with only its v1beta1 version. A real API server needs none of this. To regenerate after an API change:
 * -Dsluice.crd.write-mock=true.
 */
class MockServerCrdsTest {

    static final Path CHART_CRDS = Path.of("helm", "sluice", "files", "crds");
    static final Path MOCK_CRDS = Path.of("src", "test", "resources", "mock-crds");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER));

    static ObjectNode v1beta1Only(JsonNode crd) {
        ObjectNode copy = crd.deepCopy();
        ObjectNode metadata = (ObjectNode) copy.get("metadata");
        String name = metadata.get("name").asText();
        metadata.removeAll();
        metadata.put("name", name.replaceFirst("\\.", "-v1beta1."));
        ObjectNode spec = (ObjectNode) copy.get("spec");
        spec.remove("conversion");
        ArrayNode versions = YAML.createArrayNode();
        for (JsonNode v : spec.get("versions")) {
            if (v.path("name").asText().equals("v1beta1")) {
                ObjectNode only = v.deepCopy();
                only.put("storage", true);
                versions.add(only);
            }
        }
        spec.set("versions", versions);
        return copy;
    }

    @Test
    void mockCrdsAreTheV1beta1SliceOfTheChartsCrds() throws Exception {
        List<Path> files;
        try (Stream<Path> s = Files.list(CHART_CRDS)) {
            files = s.filter(p -> p.toString().endsWith(".yml")).sorted().toList();
        }
        assertThat(files).hasSize(6);
        for (Path file : files) {
            ObjectNode expected = v1beta1Only(YAML.readTree(file.toFile()));
            Path mock = MOCK_CRDS.resolve(file.getFileName());
            if (Boolean.getBoolean("sluice.crd.write-mock")) {
                Files.createDirectories(MOCK_CRDS);
                YAML.writeValue(mock.toFile(), expected);
            }
            assertThat(mock).exists();
            assertThat(YAML.readTree(mock.toFile())).as("%s is out of date: run ./mvnw test -Dtest=MockServerCrdsTest"
                    + " -Dsluice.crd.write-mock=true", mock).isEqualTo(expected);
        }
    }
}
