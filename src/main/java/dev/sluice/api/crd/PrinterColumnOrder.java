package dev.sluice.api.crd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Build step (run by Maven after the Quarkus build): the CRD generator sorts printer columns by JSON path, but
 * kubectl prints them in CRD order, and Kueue's users expect Kueue's order (Age last). This puts the columns of
 * each generated CRD back in the order they are declared on the resource class of that version.
 */
public final class PrinterColumnOrder {

    private PrinterColumnOrder() {
    }

    /** Puts each version's columns of every CRD of {@code kinds} in {@code dir} in the order its class declares. */
    static void apply(Path dir, List<Class<? extends HasMetadata>> kinds) throws IOException {
        for (Class<? extends HasMetadata> kind : kinds) {
            Path file = CrdBuildStep.file(dir, kind);
            if (Files.exists(file)) {
                reorder(file, HasMetadata.getVersion(kind), declaredPaths(kind));
            }
        }
    }

    static List<String> declaredPaths(Class<?> kind) {
        List<String> paths = new ArrayList<>();
        for (AdditionalPrinterColumn column : kind.getAnnotationsByType(AdditionalPrinterColumn.class)) {
            paths.add(column.jsonPath());
        }
        return paths;
    }

    static void reorder(Path file, String versionName, List<String> declared) throws IOException {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER));
        JsonNode crd = yaml.readTree(file.toFile());
        boolean changed = false;
        for (JsonNode version : crd.path("spec").path("versions")) {
            if (!version.path("name").asText().equals(versionName)) {
                continue;
            }
            JsonNode columns = version.path("additionalPrinterColumns");
            if (!columns.isArray()) {
                continue;
            }
            List<JsonNode> sorted = new ArrayList<>();
            columns.forEach(sorted::add);
            sorted.sort((a, b) -> Integer.compare(rank(declared, a), rank(declared, b)));
            ArrayNode ordered = yaml.createArrayNode().addAll(sorted);
            if (!ordered.equals(columns)) {
                ((ObjectNode) version).set("additionalPrinterColumns", ordered);
                changed = true;
            }
        }
        if (changed) {
            yaml.writeValue(file.toFile(), crd);
        }
    }

    private static int rank(List<String> declared, JsonNode column) {
        int i = declared.indexOf(column.path("jsonPath").asText());
        return i < 0 ? Integer.MAX_VALUE : i;
    }
}
