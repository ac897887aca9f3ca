package dev.sluice.chart;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * helm/sluice/files/crds/ holds the CRDs exactly as the build writes them to target/kubernetes/ (runs after package);
 * the chart renders them (templates/crds.yaml) and the plain install applies them as they are.
 * After an API change: cp target/kubernetes/*.kueue.x-k8s.io-v1.yml helm/sluice/files/crds/
 */
class ChartCrdsIT {

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Path GENERATED = Path.of("target", "kubernetes");
    private static final Path CHART = Chart.DIR.resolve("files").resolve("crds");

    static List<String> crdFiles(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".kueue.x-k8s.io-v1.yml")).sorted().toList();
        }
    }

    @Test
    void chartCrdsAreTheGeneratedOnes() throws Exception {
        List<String> generated = crdFiles(GENERATED);
        assertThat(generated).hasSize(7 + 4); // + admission checks, ProvisioningRequest, MultiKueue
        assertThat(crdFiles(CHART)).as("files in helm/sluice/files/crds").containsExactlyElementsOf(generated);
        for (String name : generated) {
            assertThat(YAML.readTree(CHART.resolve(name).toFile()))
                    .as("helm/sluice/files/crds/%s differs from target/kubernetes/%s: copy it over", name, name)
                    .isEqualTo(YAML.readTree(GENERATED.resolve(name).toFile()));
        }
    }
}
