package dev.sluice.controller;

import static org.awaitility.Awaitility.await;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.controller.conditions.Conditions;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/** The test API server seen from a test: apply manifests, find a job's Workload, wait for a state. */
public final class Cluster {

    public static final Duration TIMEOUT = Duration.ofSeconds(30);

    final KubernetesClient client;

    public Cluster(KubernetesClient client) {
        this.client = client;
        registerJobSetCrd();
    }

    /** The mock server learns scope and plural of a custom resource from its CRD. */
    private void registerJobSetCrd() {
        var crds = client.apiextensions().v1().customResourceDefinitions();
        if (crds.withName("jobsets.jobset.x-k8s.io").get() != null) {
            return;
        }
        crds.resource(new CustomResourceDefinitionBuilder()
                .withNewMetadata().withName("jobsets.jobset.x-k8s.io").endMetadata()
                .withNewSpec().withGroup("jobset.x-k8s.io").withScope("Namespaced")
                .withNewNames().withKind("JobSet").withPlural("jobsets").withSingular("jobset").endNames()
                .addNewVersion().withName("v1alpha2").withServed(true).withStorage(true)
                .withNewSubresources().withNewStatus().endStatus().endSubresources()
                .withNewSchema().withNewOpenAPIV3Schema().withType("object")
                .withXKubernetesPreserveUnknownFields(true).endOpenAPIV3Schema().endSchema()
                .endVersion().endSpec().build()).create();
    }

    /** Registers a job kind's CRD with the test server (scope, plural, status subresource, discovery). */
    public void registerCrd(dev.sluice.jobs.JobKind kind) {
        var crds = client.apiextensions().v1().customResourceDefinitions();
        String name = kind.plural() + "." + kind.group();
        if (crds.withName(name).get() != null) {
            return;
        }
        crds.resource(new CustomResourceDefinitionBuilder()
                .withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withGroup(kind.group()).withScope("Namespaced")
                .withNewNames().withKind(kind.kind()).withPlural(kind.plural())
                .withSingular(kind.kind().toLowerCase(java.util.Locale.ROOT)).endNames()
                .addNewVersion().withName(kind.version()).withServed(true).withStorage(true)
                .withNewSubresources().withNewStatus().endStatus().endSubresources()
                .withNewSchema().withNewOpenAPIV3Schema().withType("object")
                .withXKubernetesPreserveUnknownFields(true).endOpenAPIV3Schema().endSchema()
                .endVersion().endSpec().build()).create();
    }

    public void namespace(String name) {
        if (client.namespaces().withName(name).get() == null) {
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
                    .create();
        }
    }

    /** Reads a multi-document YAML test resource into objects (unknown kinds as generic resources). */
    public List<HasMetadata> load(String resource) {
        try (InputStream in = Cluster.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource " + resource);
            }
            return client.load(in).items();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Reads a multi-document YAML file (a path from the project's root, e.g. under examples/). */
    List<HasMetadata> loadFile(java.nio.file.Path file) {
        try (InputStream in = java.nio.file.Files.newInputStream(file)) {
            return client.load(in).items();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Removes the jobs' and queues' objects a test made (JobSets and Workloads of the namespace, its LocalQueues, every
     * ClusterQueue and ResourceFlavor) and waits until none is left, so the next test can create the same names.
     */
    void deleteAll(String namespace) {
        client.genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet").inNamespace(namespace).delete();
        client.resources(Workload.class).inNamespace(namespace).delete();
        client.resources(LocalQueue.class).inNamespace(namespace).delete();
        client.resources(ClusterQueue.class).delete();
        client.resources(dev.sluice.api.v1beta2.ResourceFlavor.class).delete();
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(100)).until(() ->
                client.resources(Workload.class).inNamespace(namespace).list().getItems().isEmpty()
                        && client.resources(ClusterQueue.class).list().getItems().isEmpty());
    }

    /** Creates the objects; namespaced ones go to {@code namespace} unless they name their own. */
    void create(String namespace, List<HasMetadata> objects) {
        for (HasMetadata o : objects) {
            client.resource(o).inNamespace(namespace).create();
        }
    }

    GenericKubernetesResource jobSet(String namespace, String name) {
        return client.genericKubernetesResources("jobset.x-k8s.io/v1alpha2", "JobSet").inNamespace(namespace)
                .withName(name).get();
    }

    /** The Workload owned by the job with this uid (or the Workload itself, read again), or null. */
    public Workload workloadOf(HasMetadata job) {
        if (job instanceof Workload wl) {
            return client.resources(Workload.class).inNamespace(wl.getMetadata().getNamespace())
                    .withName(wl.getMetadata().getName()).get();
        }
        return client.resources(Workload.class).inNamespace(job.getMetadata().getNamespace()).list().getItems().stream()
                .filter(w -> w.getMetadata().getLabels() != null
                        && Objects.equals(job.getMetadata().getUid(), w.getMetadata().getLabels().get(WellKnown.JOB_UID)))
                .findFirst().orElse(null);
    }

    public Workload awaitWorkload(HasMetadata job, Predicate<Workload> condition) {
        return await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(50)).until(() -> workloadOf(job),
                w -> w != null && condition.test(w));
    }

    GenericKubernetesResource awaitJobSet(String namespace, String name, Predicate<GenericKubernetesResource> condition) {
        return await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(50)).until(() -> jobSet(namespace, name),
                j -> j != null && condition.test(j));
    }

    ClusterQueue awaitClusterQueue(String name, Predicate<ClusterQueue> condition) {
        return await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(50))
                .until(() -> client.resources(ClusterQueue.class).withName(name).get(), c -> c != null && condition.test(c));
    }

    LocalQueue awaitLocalQueue(String namespace, String name, Predicate<LocalQueue> condition) {
        return await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(50))
                .until(() -> client.resources(LocalQueue.class).inNamespace(namespace).withName(name).get(),
                        c -> c != null && condition.test(c));
    }

    public List<Event> events(HasMetadata about) {
        return client.v1().events().inNamespace(about.getMetadata().getNamespace()).list().getItems().stream()
                .filter(e -> about.getMetadata().getName().equals(e.getInvolvedObject().getName())
                        && about.getKind().equals(e.getInvolvedObject().getKind()))
                .toList();
    }

    /** Sets a condition on a Workload's status as a runner or a user would, replacing the one of its type. */
    static void setCondition(KubernetesClient client, String namespace, String name, Condition c) {
        client.resources(Workload.class).inNamespace(namespace).withName(name).editStatus(w -> {
            List<Condition> conditions = new java.util.ArrayList<>(w.getStatus().getConditions());
            conditions.removeIf(x -> x.getType().equals(c.getType()));
            conditions.add(c);
            w.getStatus().setConditions(conditions);
            return w;
        });
    }

    public static Condition condition(Workload wl, String type) {
        return wl.getStatus() == null ? null : Conditions.find(wl.getStatus().getConditions(), type);
    }

    public static boolean isTrue(Workload wl, String type) {
        Condition c = condition(wl, type);
        return c != null && "True".equals(c.getStatus());
    }

    public static boolean isFalse(Workload wl, String type, String reason) {
        Condition c = condition(wl, type);
        return c != null && "False".equals(c.getStatus()) && reason.equals(c.getReason());
    }

    public static boolean admitted(Workload wl) {
        return isTrue(wl, "QuotaReserved") && isTrue(wl, "Admitted") && wl.getStatus().getAdmission() != null;
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> spec(GenericKubernetesResource job) {
        return (Map<String, Object>) job.getAdditionalProperties().get("spec");
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> status(GenericKubernetesResource job) {
        return (Map<String, Object>) job.getAdditionalProperties().get("status");
    }

    static boolean suspended(GenericKubernetesResource job) {
        return Boolean.TRUE.equals(spec(job).get("suspend"));
    }
}
