package dev.sluice.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One batch kind Sluice can queue (Job, JobSet, ...): how to read its pod sets and priority, and how to
 * hold, start and restore it. Implementations are stateless and mutate the given object in place; the
 * caller writes it back. Adding a kind is one new implementation plus its registration in {@link JobKinds}.
 */
public interface JobKind {
    /** API group, "" for the core group (batch/v1 Job has group "batch"). */
    String group();

    String version();

    String kind();

    /** Lower-case plural resource name, as in the REST path. */
    String plural();

    /** The kind as a resource context for the client: no discovery call, which fails for a CRD installed after Sluice started. */
    default ResourceDefinitionContext resourceContext() {
        return new ResourceDefinitionContext.Builder().withGroup(group()).withVersion(version())
                .withKind(kind()).withPlural(plural()).withNamespaced(true).build();
    }

    default String apiVersion() {
        return group().isEmpty() ? version() : group() + "/" + version();
    }

    /** Whether this adapter handles the object. */
    default boolean handles(GenericKubernetesResource job) {
        return apiVersion().equals(job.getApiVersion()) && kind().equals(job.getKind());
    }

    /**
     * The job's pod sets in their fixed order, each with a copy of its pod template.
     *
     * @throws InvalidJobException for a manifest the pod sets cannot be read from
     */
    List<PodSetTemplate> podSets(GenericKubernetesResource job);

    /**
     * The labels numbering the pods of one of the job's pod sets (from {@link #podSets}), as Kueue's integration of
     * the kind names them in the pod set's topology request; none by default.
     */
    default PodIndexLabels podIndexLabels(GenericKubernetesResource job, PodSetTemplate podSet) {
        return PodIndexLabels.NONE;
    }

    /**
     * Where in the job the pod template of its pod set {@code podSet} (an index into {@link #podSets}) is, as a field
     * path (e.g. {@code spec.template}); null when the kind does not say.
     */
    default String podTemplatePath(GenericKubernetesResource job, int podSet) {
        return null;
    }

    /** Whether the job is currently held (not allowed to create pods): any hold of the kind is in place. */
    boolean isSuspended(GenericKubernetesResource job);

    /**
     * Holds the job. A job that shows how it was held before (the ack-kube-queue annotation or the suspend
     * field present, even as "false"/false after {@link #start}) is held again the same way; a new job is
     * held the kind's way (Job, JobSet, RayJob, RayCluster, Workflow, AppWrapper: {@code spec.suspend}; the Kubeflow
     * kinds: {@code spec.runPolicy.suspend}; SparkApplication: the annotation unless it uses {@code spec.suspend}).
     */
    void hold(GenericKubernetesResource job);

    /**
     * Starts an admitted job: for each pod set, adds the flavor's node labels to the template's nodeSelector,
     * adds its tolerations (no duplicates) and the {@code kueue.x-k8s.io/podset} label, then releases the
     * hold. Either everything is applied or nothing is.
     *
     * @throws StartConflictException a pod template already selects one of the labels with another value
     * @throws IllegalArgumentException the starts do not name exactly the job's pod sets
     */
    void start(GenericKubernetesResource job, List<PodSetStart> starts);

    /**
     * Puts back the pod templates as they were before {@link #start} (the Workload's pod sets keep them)
     * and holds the job again. A restored template is written in canonical form (e.g. quantity {@code 4}
     * becomes {@code "4"}, as the apiserver stores it); its meaning is the original's.
     *
     * @throws IllegalArgumentException the originals do not name exactly the job's pod sets
     */
    void restore(GenericKubernetesResource job, List<PodSetTemplate> originals);

    /**
     * Whether a job that is held again may have its pod templates restored now. A job is stopped in two writes, because
     * API servers refuse a template change on a running job (batch/v1: {@code spec.template: field is immutable}):
     * first the hold alone, then, once this answers empty, the templates. Empty by default.
     */
    default Optional<RestoreWait> restoreWait(GenericKubernetesResource job) {
        return Optional.empty();
    }

    /**
     * The pod templates in the job's tree, the live maps themselves, in pod-set order, read without checking them (a
     * cache may keep them in another form, {@code JobItemStore}). Empty for kinds whose pod sets are not pod templates
     * (the default).
     *
     * @throws InvalidJobException the tree does not have them where the kind looks (a field of another type)
     */
    default List<Map<String, Object>> podTemplates(GenericKubernetesResource job) {
        return List.of();
    }

    /**
     * Empties the pod templates of a cached copy of a finished job, in place; true when something was dropped. Once a
     * job is finished nothing reads its templates (they are read to build, start, stop or replace a Workload), and
     * they are most of the object, so the job cache keeps finished jobs without them: with a year of history those
     * are nearly all the cached jobs. Every other read ({@link #finished}, {@link #isSuspended}, {@link #isActive},
     * {@link #podsReady}, {@link #restoreWait}, metadata, {@code spec} outside the templates) answers as before.
     * What is dropped is what {@link #podTemplates} names, and only from a job whose pod sets can be read (an
     * unreadable one may have the placeholder Workload quoting why); kinds whose pod sets are not pod templates keep
     * everything.
     */
    default boolean dropPodTemplates(GenericKubernetesResource job) {
        List<Map<String, Object>> templates;
        try {
            templates = podTemplates(job);
            if (templates.isEmpty()) {
                return false;
            }
            podSets(job);
        } catch (InvalidJobException | IllegalArgumentException invalid) {
            return false;
        }
        boolean dropped = false;
        for (Map<String, Object> template : templates) {
            if (!template.isEmpty()) {
                template.clear();
                dropped = true;
            }
        }
        return dropped;
    }

    /** Present once the job reached a terminal state. */
    Optional<JobFinish> finished(GenericKubernetesResource job);

    /** Whether the job still has pods running (or pending). */
    boolean isActive(GenericKubernetesResource job);

    /**
     * Whether all the pods the job was admitted for are ready or done, read from the kind's own status: Sluice watches
     * no Pods (that would cost the memory the controller saves). The Workload's PodsReady condition follows it, and
     * with waitForPodsReady a job that stays unready too long is evicted. Each adapter documents what it reads (also
     * listed in docs/pods-ready.md). A status that cannot be read counts as not ready.
     */
    boolean podsReady(GenericKubernetesResource job);

    /**
     * The PriorityClass named by the pod templates: the first pod set whose template sets
     * {@code spec.priorityClassName} (Kueue's rule).
     */
    default Optional<String> priorityClassName(GenericKubernetesResource job) {
        for (PodSetTemplate ps : podSets(job)) {
            var spec = ps.template().getSpec();
            if (spec != null && spec.getPriorityClassName() != null && !spec.getPriorityClassName().isEmpty()) {
                return Optional.of(spec.getPriorityClassName());
            }
        }
        return Optional.empty();
    }

    /**
     * The name of this kind's switch, {@code sluice.integrations.<name>.enabled}: the kind in lower case
     * (e.g. {@code job}, {@code jobset}, {@code tfjob}, {@code xgboostjob}, {@code rayjob}, {@code sparkapplication},
     * {@code workflow}; {@link JobKinds#standard} has them all).
     */
    default String integrationName() {
        return kind().toLowerCase(Locale.ROOT);
    }

    /**
     * Whether the job was submitted the ack-kube-queue way: already held (any hold of the kind, see
     * {@link #isSuspended}) and carrying no queue label. A job controlled by another object (an
     * {@code ownerReferences} entry with {@code controller: true}, e.g. the child Jobs a suspended JobSet
     * creates) is its owner's business and never counts. The controller queues such a job although it has
     * no queue label.
     */
    default boolean heldTheAckWay(GenericKubernetesResource job) {
        ObjectMeta meta = job.getMetadata();
        if (meta != null) {
            if (meta.getLabels() != null && meta.getLabels().containsKey(WellKnown.QUEUE_NAME)) {
                return false;
            }
            if (meta.getOwnerReferences() != null) {
                for (OwnerReference owner : meta.getOwnerReferences()) {
                    if (Boolean.TRUE.equals(owner.getController())) {
                        return false;
                    }
                }
            }
        }
        return isSuspended(job);
    }
}
