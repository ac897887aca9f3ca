package dev.sluice.api.crd;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Adds spec.conversion (strategy Webhook, POST /convert on the webhook Service) to every CRD, wired for the plain
 * install (release sluice in sluice-system, cert-manager injecting the CA named by the Certificate sluice-webhook).
 * The chart renders the same files with its own Service, namespace and CA (templates/crds.yaml).
 */
final class ConversionWebhookStanza {

    static final String SERVICE = "sluice-webhook";
    static final String NAMESPACE = "sluice-system";
    static final String PATH = "/convert";
    static final String CA_INJECTION = "cert-manager.io/inject-ca-from";

    private ConversionWebhookStanza() {
    }

    static void apply(Path dir, List<Class<? extends HasMetadata>> kinds) throws IOException {
        ObjectMapper yaml = new ObjectMapper(new YAMLFactory().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER));
        Set<Path> files = new LinkedHashSet<>();
        for (Class<? extends HasMetadata> kind : kinds) {
            files.add(CrdBuildStep.file(dir, kind));
        }
        for (Path file : files) {
            if (!Files.exists(file)) {
                continue;
            }
            ObjectNode crd = (ObjectNode) yaml.readTree(file.toFile());
            child(child(crd, "metadata"), "annotations").put(CA_INJECTION, NAMESPACE + "/" + SERVICE);
            ObjectNode conversion = child(crd, "spec").putObject("conversion");
            conversion.put("strategy", "Webhook");
            ObjectNode webhook = conversion.putObject("webhook");
            webhook.putArray("conversionReviewVersions").add("v1");
            webhook.putObject("clientConfig").putObject("service").put("name", SERVICE).put("namespace", NAMESPACE)
                    .put("path", PATH).put("port", 443);
            yaml.writeValue(file.toFile(), crd);
        }
    }

    private static ObjectNode child(ObjectNode parent, String name) {
        return parent.get(name) instanceof ObjectNode o ? o : parent.putObject(name);
    }
}
