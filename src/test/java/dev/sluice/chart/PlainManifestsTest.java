package dev.sluice.chart;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * src/main/kubernetes/kubernetes.yml installs what the chart installs with its defaults (release sluice in
 * sluice-system, cert-manager TLS), except the CRDs: the plain install applies helm/sluice/files/crds/ server-side
 * (they are too large for a client-side apply), already wired for these defaults. To regenerate after a chart
 * change: -Dsluice.chart.write-plain=true.
 */
class PlainManifestsTest {
    static final Path PLAIN = Path.of("src", "main", "kubernetes", "kubernetes.yml");

    static String expected() {
        return "# Generated from helm/sluice with its default values (release sluice, namespace sluice-system) by\n"
                + "# PlainManifestsTest; do not edit: change the chart and run the test with -Dsluice.chart.write-plain=true.\n"
                + "# The CRDs are not here: kubectl apply --server-side -f helm/sluice/files/crds/ first.\n"
                + Chart.renderText(java.util.Map.of("crds.install", false)).replaceAll("(?m)^# Source: .*\\n", "").replaceAll("(?m)^\\s*#.*\\n", "")
                        // dekorate, which merges this file into target/kubernetes/, rejects an empty first document
                        .replaceFirst("^---\\n", "");
    }

    @Test
    void plainManifestsAreTheChartWithDefaults() throws Exception {
        String expected = expected();
        if (Boolean.getBoolean("sluice.chart.write-plain")) {
            Files.createDirectories(PLAIN.getParent());
            Files.writeString(PLAIN, expected);
        }
        assertThat(PLAIN).exists();
        assertThat(Files.readString(PLAIN)).as("src/main/kubernetes/kubernetes.yml is out of date with helm/sluice: "
                + "run ./mvnw test -Dtest=PlainManifestsTest -Dsluice.chart.write-plain=true").isEqualTo(expected);
    }
}
