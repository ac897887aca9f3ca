package dev.sluice.controller.store;

import dev.sluice.api.v1beta2.PodSet;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.api.v1beta2.WorkloadSpec;
import dev.sluice.bridge.JobWorkloads;
import dev.sluice.jobs.JobKind;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.util.List;
import java.util.Map;

/**
 * The Workload of a job whose pod sets cannot be read (e.g. an Argo Workflow without {@code kube-queue/min-resources}).
 * Kueue would create none; Sluice creates one that is never admitted, so {@code kubectl get workloads} and its
 * QuotaReserved condition (False, Inadmissible) say what is wrong: the annotation {@value #INVALID_JOB} carries the
 * message, the Workload cache takes it as the reason it cannot be queued, and the engine never sees it. It has one
 * pod set {@code main} of one empty pod (a Workload needs a pod set). When the job is fixed, the Workload is replaced.
 */
public final class InvalidJobWorkloads {

    static final String INVALID_JOB = "sluice.dev/invalid-job";

    private InvalidJobWorkloads() {
    }

    public static Workload placeholder(JobKind kind, GenericKubernetesResource job, String queue, String problem) {
        var meta = job.getMetadata();
        Workload wl = new Workload();
        wl.setMetadata(new ObjectMetaBuilder()
                .withName(JobWorkloads.workloadName(kind, job))
                .withNamespace(meta.getNamespace())
                .addToLabels(WellKnown.JOB_UID, meta.getUid() == null ? "" : meta.getUid())
                .withAnnotations(Map.of(INVALID_JOB, problem))
                .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(kind.apiVersion()).withKind(kind.kind())
                        .withName(meta.getName()).withUid(meta.getUid()).withController(true)
                        .withBlockOwnerDeletion(true).build())
                .build());
        PodSet main = new PodSet();
        main.setName("main");
        main.setCount(1);
        main.setTemplate(new PodTemplateSpec());
        WorkloadSpec spec = new WorkloadSpec();
        spec.setPodSets(List.of(main));
        spec.setQueueName(queue);
        spec.setActive(Boolean.TRUE);
        wl.setSpec(spec);
        return wl;
    }

    public static boolean isPlaceholder(Workload wl) {
        return problem(wl) != null;
    }

    /** The message of a placeholder, null for any other Workload. */
    public static String problem(Workload wl) {
        Map<String, String> annotations = wl.getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(INVALID_JOB);
    }
}
