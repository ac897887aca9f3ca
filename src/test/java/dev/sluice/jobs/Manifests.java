package dev.sluice.jobs;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/** Loads the seed manifests copied into src/test/resources/jobs/ (multi-document YAML). */
final class Manifests {
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    static final ObjectMapper JSON = JsonMapper.builder().build();

    private Manifests() {
    }

    static List<GenericKubernetesResource> load(String resource) {
        try (InputStream in = Manifests.class.getResourceAsStream("/jobs/" + resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource /jobs/" + resource);
            }
            return YAML.readerFor(GenericKubernetesResource.class)
                    .<GenericKubernetesResource>readValues(in).readAll();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The single object of an ack-kube-queue seed manifest (src/test/resources/seeds/ack-kube-queue/). */
    static GenericKubernetesResource ackSeed(String file) {
        try (InputStream in = Manifests.class.getResourceAsStream("/seeds/ack-kube-queue/" + file)) {
            if (in == null) {
                throw new IllegalArgumentException("no ack-kube-queue seed " + file);
            }
            return YAML.readValue(in, GenericKubernetesResource.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static GenericKubernetesResource one(String resource, String name) {
        return load(resource).stream()
                .filter(r -> name.equals(r.getMetadata().getName()))
                .findFirst().orElseThrow(() -> new IllegalArgumentException(name + " not in " + resource));
    }

    static GenericKubernetesResource parse(String yaml) {
        try {
            return YAML.readValue(yaml, GenericKubernetesResource.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A deep copy through JSON, to compare before and after in-place edits. */
    static GenericKubernetesResource copy(GenericKubernetesResource r) {
        try {
            return JSON.readValue(JSON.writeValueAsString(r), GenericKubernetesResource.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
