package dev.sluice.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Kubeflow training jobs (TFJob, PyTorchJob, XGBoostJob, PaddleJob, JAXJob: {@code kubeflow.org/v1}; MPIJob:
 * {@code kubeflow.org/v2beta1}):
 * one pod set per replica type under {@code spec.<x>ReplicaSpecs}, named by the type in lower case, count =
 * {@code replicas} (default 1, as the training operator defaults it). Types come in the kind's usual order
 * (e.g. Master before Worker), then any other type alphabetically. Held by {@code spec.runPolicy.suspend} (the
 * label way), or by the ack-kube-queue annotation {@code scheduling.x-k8s.io/suspend: "true"}; both are read,
 * and each is re-applied the way it was used. No partial admission (as in Kueue). The priority class is
 * {@code spec.runPolicy.schedulingPolicy.priorityClass} when set, else the first pod set's that sets one (Kueue's rule).
 */
public abstract class KubeflowJobKind extends PodTemplateJobKind {
    private static final HoldStyle HOLD = new HoldStyle(List.of("spec", "runPolicy"), true, false);

    /** The field holding the replica specs, e.g. {@code tfReplicaSpecs}. */
    protected abstract String replicaSpecsField();

    /** Replica types in the order their pod sets come; types not listed follow alphabetically. */
    protected abstract List<String> typeOrder();

    @Override
    public String group() {
        return "kubeflow.org";
    }

    @Override
    protected HoldStyle holdStyle() {
        return HOLD;
    }

    @Override
    public PodIndexLabels podIndexLabels(GenericKubernetesResource job, PodSetTemplate podSet) {
        return new PodIndexLabels(PodIndexLabels.KUBEFLOW_REPLICA_INDEX, null, null);
    }

    @Override
    protected List<RawPodSet> rawPodSets(GenericKubernetesResource job) {
        String ref = Models.ref(job);
        String field = "spec." + replicaSpecsField();
        Map<String, Object> specs = RawTree.object(spec(job), replicaSpecsField(), ref, field);
        if (specs == null || specs.isEmpty()) {
            throw new InvalidJobException(ref, field, "is missing or empty",
                    "give at least one replica type (e.g. Worker) with replicas and a pod template");
        }
        List<String> types = new ArrayList<>();
        typeOrder().stream().filter(specs::containsKey).forEach(types::add);
        new TreeSet<>(specs.keySet()).stream().filter(t -> !types.contains(t)).forEach(types::add);
        List<RawPodSet> out = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (String type : types) {
            String path = field + "." + type;
            String name = type.toLowerCase(Locale.ROOT);
            if (!names.add(name)) {
                throw new InvalidJobException(ref, path, "names the same pod set \"" + name
                        + "\" as another replica type", "spell each replica type once, e.g. Worker");
            }
            Map<String, Object> replica = RawTree.object(specs, type, ref, path);
            Integer replicas = RawTree.count(replica, "replicas", ref, path + ".replicas");
            Map<String, Object> template = RawTree.object(replica, "template", ref, path + ".template");
            if (template == null) {
                throw new InvalidJobException(ref, path + ".template", "is missing",
                        "give the replica type a pod template");
            }
            out.add(new RawPodSet(name, template, path + ".template", replicas == null ? 1 : replicas));
        }
        return out;
    }

    @Override
    protected void setCount(GenericKubernetesResource job, RawPodSet podSet, int count) {
        throw new UnsupportedOperationException(kind() + " has no partial admission");
    }

    @Override
    protected boolean supportsPartialCount() {
        return false;
    }

    @Override
    public Optional<String> priorityClassName(GenericKubernetesResource job) {
        String ref = Models.ref(job);
        Map<String, Object> runPolicy = RawTree.object(spec(job), "runPolicy", ref, "spec.runPolicy");
        Map<String, Object> scheduling = RawTree.object(runPolicy, "schedulingPolicy", ref,
                "spec.runPolicy.schedulingPolicy");
        String priorityClass = RawTree.string(scheduling, "priorityClass", ref,
                "spec.runPolicy.schedulingPolicy.priorityClass");
        if (priorityClass != null && !priorityClass.isEmpty()) {
            return Optional.of(priorityClass);
        }
        return super.priorityClassName(job);
    }

    /** Succeeded or Failed condition with status True (the training operator's job conditions). */
    @Override
    public Optional<JobFinish> finished(GenericKubernetesResource job) {
        return Conditions.terminal(job, "Succeeded", "Failed");
    }

    /** Any {@code status.replicaStatuses.<type>.active > 0}. */
    @Override
    public boolean isActive(GenericKubernetesResource job) {
        String ref = Models.ref(job);
        Map<String, Object> statuses = RawTree.object(status(job), "replicaStatuses", ref, "status.replicaStatuses");
        if (statuses == null) {
            return false;
        }
        for (String type : statuses.keySet()) {
            String path = "status.replicaStatuses." + type;
            Integer active = RawTree.count(RawTree.object(statuses, type, ref, path), "active", ref, path + ".active");
            if (active != null && active > 0) {
                return true;
            }
        }
        return false;
    }

    /**
     * Every replica type's pods running or done: for each type under {@code spec.<x>ReplicaSpecs},
     * {@code status.replicaStatuses.<type>.active + .succeeded} reaches its {@code replicas} (default 1). The
     * training operator counts a running pod as active. Kueue reads the job's Running condition instead, which the
     * operator sets as soon as the master (or launcher) runs; Sluice waits for every replica, which is what a
     * gang-scheduled training job needs.
     */
    @Override
    public boolean podsReady(GenericKubernetesResource job) {
        String ref = Models.ref(job);
        String field = "spec." + replicaSpecsField();
        Map<String, Object> specs = RawTree.object(spec(job), replicaSpecsField(), ref, field);
        if (specs == null || specs.isEmpty()) {
            return false;
        }
        Map<String, Object> statuses = RawTree.object(status(job), "replicaStatuses", ref, "status.replicaStatuses");
        for (String type : specs.keySet()) {
            Integer replicas = RawTree.count(RawTree.object(specs, type, ref, field + "." + type), "replicas", ref,
                    field + "." + type + ".replicas");
            int wanted = replicas == null ? 1 : replicas;
            String path = "status.replicaStatuses." + type;
            Map<String, Object> st = statuses == null ? null : RawTree.object(statuses, type, ref, path);
            Integer active = RawTree.count(st, "active", ref, path + ".active");
            Integer succeeded = RawTree.count(st, "succeeded", ref, path + ".succeeded");
            if ((active == null ? 0 : active) + (succeeded == null ? 0 : succeeded) < wanted) {
                return false;
            }
        }
        return true;
    }
}
