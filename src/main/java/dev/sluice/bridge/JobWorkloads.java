package dev.sluice.bridge;

import dev.sluice.api.v1beta2.PodSet;
import dev.sluice.api.v1beta2.PodSetTopologyRequest;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.api.v1beta2.WorkloadSpec;
import dev.sluice.jobs.InvalidJobException;
import dev.sluice.jobs.JobKind;
import dev.sluice.jobs.PodSetTemplate;
import dev.sluice.jobs.WellKnown;
import dev.sluice.jobs.WorkloadNames;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The Workload that stands for a queued job: what the controller creates and the simulator queues. */
public final class JobWorkloads {

    private JobWorkloads() {
    }

    public static String workloadName(JobKind kind, GenericKubernetesResource job) {
        return WorkloadNames.forJob(kind.kind(), kind.group(), job.getMetadata().getName(), job.getMetadata().getUid());
    }

    public static String queueName(GenericKubernetesResource job) {
        Map<String, String> labels = job.getMetadata().getLabels();
        return labels == null ? null : labels.get(WellKnown.QUEUE_NAME);
    }

    /**
     * Builds the Workload for a job: Kueue's name, an owner reference to the job, the job-uid label, the job's pod
     * sets with their original templates, its queue and its resolved priority.
     *
     * @throws dev.sluice.jobs.InvalidJobException the job's pod sets cannot be read
     * @throws InvalidObjectException a named priority class does not exist
     */
    private static PodSetTopologyRequest topologyRequest(JobKind kind, GenericKubernetesResource job, PodSetTemplate t,
            String jobRef) {
        var annotations = t.template().getMetadata() == null ? null : t.template().getMetadata().getAnnotations();
        try {
            return TopologyRequests.build(annotations, kind.podIndexLabels(job, t));
        } catch (TopologyRequests.BadAnnotationException e) {
            throw new InvalidJobException(jobRef, "pod set " + t.name() + ": metadata.annotations[" + e.annotation() + "]",
                    e.getMessage(), "fix the annotation of the pod template (see Kueue's topology-aware scheduling)");
        }
    }

    /** Job annotations with this prefix are copied to the Workload: the ProvisioningRequest check's parameters. */
    public static final String PROVREQ_ANNOTATION_PREFIX = "provreq.kueue.x-k8s.io/";

    public static Workload forJob(JobKind kind, GenericKubernetesResource job, PriorityClasses classes) {
        var meta = job.getMetadata();
        String jobRef = kind.kind() + " " + meta.getNamespace() + "/" + meta.getName();
        List<PodSetTemplate> templates = kind.podSets(job);
        Map<String, String> labels = meta.getLabels() == null ? Map.of() : meta.getLabels();
        Priority priority = Priority.resolve(jobRef, labels.get(WellKnown.PRIORITY_CLASS), kind.priorityClassName(job),
                classes);

        Workload workload = new Workload();
        workload.setMetadata(new ObjectMetaBuilder()
                .withName(workloadName(kind, job))
                .withNamespace(meta.getNamespace())
                .addToLabels(WellKnown.JOB_UID, meta.getUid() == null ? "" : meta.getUid())
                .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(kind.apiVersion()).withKind(kind.kind())
                        .withName(meta.getName()).withUid(meta.getUid()).withController(true)
                        .withBlockOwnerDeletion(true).build())
                .build());
        // as Kueue's NewWorkload: the job's ProvisioningRequest parameters travel on its Workload
        Map<String, String> provreq = new java.util.LinkedHashMap<>();
        if (meta.getAnnotations() != null) {
            meta.getAnnotations().forEach((k, v) -> {
                if (k.startsWith(PROVREQ_ANNOTATION_PREFIX)) {
                    provreq.put(k, v);
                }
            });
        }
        if (!provreq.isEmpty()) {
            workload.getMetadata().setAnnotations(provreq);
        }
        WorkloadSpec spec = new WorkloadSpec();
        List<PodSet> podSets = new ArrayList<>();
        for (PodSetTemplate t : templates) {
            PodSet ps = new PodSet();
            ps.setName(t.name());
            ps.setCount(t.count());
            ps.setMinCount(t.minCount());
            ps.setTemplate(t.template());
            ps.setTopologyRequest(topologyRequest(kind, job, t, jobRef));
            podSets.add(ps);
        }
        spec.setPodSets(podSets);
        spec.setQueueName(labels.get(WellKnown.QUEUE_NAME));
        spec.setPriorityClassRef(priority.ref());
        spec.setPriority(priority.value());
        spec.setActive(Boolean.TRUE);
        workload.setSpec(spec);
        return workload;
    }
}
