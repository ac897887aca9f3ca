package dev.sluice.controller.store;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.sluice.jobs.JobKind;
import dev.sluice.jobs.JobKinds;
import dev.sluice.jobs.PodSetStart;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Real job objects of every kind, for the job cache's tests: the seed manifests (src/test/resources/jobs/ and the
 * ack-kube-queue seeds) and {@link JobCacheCost}'s Job and JobSet as the API server answers them, each with the
 * managedFields and last-applied annotation the store strips, and each in the JSON form the informer gets (parsed
 * from JSON, as a watch event is).
 */
public final class LiveJobFixtures {

    static final JobKinds KINDS = JobKinds.standard();
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final List<String> MANIFESTS = List.of("/jobs/job-queued.yaml", "/jobs/jobset-low-priority-autopilot.yaml",
            "/jobs/jobset-low-priority-standard.yaml", "/jobs/jobsets-multislice-autopilot.yaml",
            "/jobs/jobsets-multislice-standard.yaml", "/seeds/ack-kube-queue/job-queued.yaml",
            "/seeds/ack-kube-queue/tfjob-queued.yaml", "/seeds/ack-kube-queue/pytorchjob-queued.yaml",
            "/seeds/ack-kube-queue/mpijob-queued.yaml", "/seeds/ack-kube-queue/rayjob-queued.yaml",
            "/seeds/ack-kube-queue/spark-queued.yaml", "/seeds/ack-kube-queue/argo-workflow-queued.yaml");

    private LiveJobFixtures() {
    }

    /** A named held job, as submitted. */
    public record Fixture(String name, GenericKubernetesResource job) {
        public JobKind kind() {
            return KINDS.forJob(job).orElseThrow();
        }

        public String key() {
            return job.getMetadata().getNamespace() + "/" + job.getMetadata().getName();
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** Every held job of the fixtures, in a namespace, with a uid and resourceVersion, as the API server has them. */
    static List<Fixture> held() {
        List<Fixture> out = new ArrayList<>();
        int n = 0;
        for (String file : MANIFESTS) {
            for (GenericKubernetesResource job : load(file)) {
                if (KINDS.forJob(job).isEmpty()) {
                    continue;
                }
                var meta = job.getMetadata();
                if (meta.getName() == null) {
                    meta.setName(meta.getGenerateName() + "x" + n);
                }
                meta.setNamespace(meta.getNamespace() == null ? "team-a" : meta.getNamespace());
                meta.setUid("uid-" + n);
                meta.setResourceVersion(Integer.toString(100 + n));
                n++;
                out.add(new Fixture(file.substring(file.lastIndexOf('/') + 1) + " " + meta.getName(), withCruft(job)));
            }
        }
        for (JobCacheCost.Shape shape : JobCacheCost.Shape.values()) {
            if (!shape.running()) {
                out.add(new Fixture("api-server " + shape, withCruft(JobCacheCost.job(n++, shape))));
            }
        }
        return out;
    }

    /** The job started as JobSync starts it (node labels, a toleration, the podset label; hold released), running. */
    public static GenericKubernetesResource running(JobKind kind, GenericKubernetesResource held) {
        GenericKubernetesResource job = Serialization.clone(held);
        kind.start(job, starts(kind, held));
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("startTime", "2026-12-01T10:00:00Z");
        status.put("active", 1);
        job.setAdditionalProperty("status", status);
        job.getMetadata().setResourceVersion(job.getMetadata().getResourceVersion() + "1");
        return reparsed(job);
    }

    /** What JobSync's start gives each pod set: a flavor's node label and toleration. */
    public static List<PodSetStart> starts(JobKind kind, GenericKubernetesResource job) {
        return kind.podSets(job).stream().map(ps -> new PodSetStart(ps.name(), Map.of("sluice.dev/pool", "batch"),
                List.of(new TolerationBuilder().withKey("sluice.dev/pool").withOperator("Exists").build()), null)).toList();
    }

    /** The object as a watch event brings it: parsed from its JSON. */
    public static GenericKubernetesResource reparsed(GenericKubernetesResource job) {
        return Serialization.unmarshal(Serialization.asJson(job), GenericKubernetesResource.class);
    }

    private static GenericKubernetesResource withCruft(GenericKubernetesResource job) {
        job.getMetadata().setManagedFields(List.of(new ManagedFieldsEntryBuilder().withManager("kubectl")
                .withOperation("Update").withApiVersion(job.getApiVersion()).build()));
        Map<String, String> annotations = new LinkedHashMap<>();
        if (job.getMetadata().getAnnotations() != null) {
            annotations.putAll(job.getMetadata().getAnnotations());
        }
        annotations.put(StrippedItemStore.LAST_APPLIED, "{\"apiVersion\":\"" + job.getApiVersion() + "\"}");
        job.getMetadata().setAnnotations(annotations);
        return reparsed(job);
    }

    private static List<GenericKubernetesResource> load(String resource) {
        try (InputStream in = LiveJobFixtures.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource " + resource);
            }
            return YAML.readerFor(GenericKubernetesResource.class).<GenericKubernetesResource>readValues(in).readAll();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
