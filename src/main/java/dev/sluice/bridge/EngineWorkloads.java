package dev.sluice.bridge;

import dev.sluice.api.v1beta2.PodSet;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.engine.NodeSelectorRequirement;
import dev.sluice.engine.NodeSelectorTerm;
import dev.sluice.engine.PodSetSpec;
import dev.sluice.engine.WorkloadKey;
import dev.sluice.engine.WorkloadSpec;
import dev.sluice.jobs.InvalidJobException;
import dev.sluice.jobs.PodDemand;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A Workload object as the engine sees it: per-pod demand in milli-units, placement constraints, priority, age. */
public final class EngineWorkloads {

    private EngineWorkloads() {
    }

    public static WorkloadKey key(Workload workload) {
        return new WorkloadKey(workload.getMetadata().getNamespace(), workload.getMetadata().getName());
    }

    /**
     * @param createdMillis creation time; the caller passes the object's creationTimestamp, or the simulator's
     *        virtual submission time
     * @throws InvalidObjectException the Workload cannot be queued (no pod sets, bad quantities)
     */
    public static WorkloadSpec toEngine(Workload workload, long createdMillis) {
        String where = "Workload " + workload.getMetadata().getNamespace() + "/" + workload.getMetadata().getName();
        var spec = workload.getSpec();
        if (spec == null || spec.getPodSets() == null || spec.getPodSets().isEmpty()) {
            throw new InvalidObjectException(where, "spec.podSets", "at least one pod set is required");
        }
        List<PodSetSpec> podSets = new ArrayList<>();
        for (int i = 0; i < spec.getPodSets().size(); i++) {
            podSets.add(podSet(spec.getPodSets().get(i), where, "spec.podSets[" + i + "]"));
        }
        return new WorkloadSpec(key(workload), workload.getMetadata().getUid(), spec.getQueueName(),
                spec.getPriority() == null ? 0 : spec.getPriority(), createdMillis, podSets,
                spec.getActive() == null || spec.getActive());
    }

    /** The object's creationTimestamp in epoch milliseconds, 0 when unset (never before anything else). */
    public static long createdMillis(Workload workload) {
        String ts = workload.getMetadata().getCreationTimestamp();
        if (ts == null || ts.isEmpty()) {
            return 0L;
        }
        try {
            return Instant.parse(ts).toEpochMilli();
        } catch (DateTimeParseException e) {
            return 0L;
        }
    }

    private static PodSetSpec podSet(PodSet ps, String where, String path) {
        String name = ps.getName() == null ? "main" : ps.getName();
        int count = ps.getCount() == null ? 1 : ps.getCount();
        if (count < 0) {
            throw new InvalidObjectException(where, path + ".count", "must not be negative, got " + count);
        }
        if (ps.getMinCount() != null && (ps.getMinCount() < 1 || ps.getMinCount() > count)) {
            throw new InvalidObjectException(where, path + ".minCount",
                    "must be between 1 and count " + count + ", got " + ps.getMinCount());
        }
        PodSpec pod = ps.getTemplate() == null ? null : ps.getTemplate().getSpec();
        if (pod == null) {
            throw new InvalidObjectException(where, path + ".template.spec", "a pod template is required");
        }
        Map<String, Long> demand;
        try {
            demand = PodDemand.milliOf(pod);
        } catch (InvalidJobException e) {
            throw new InvalidObjectException(where, path + ".template." + e.field(), e.problem());
        }
        return new PodSetSpec(name, count, ps.getMinCount(), demand, pod.getNodeSelector(), requiredNodeAffinity(pod),
                QueueObjects.tolerations(pod.getTolerations()), Topologies.request(ps.getTopologyRequest()));
    }

    private static List<NodeSelectorTerm> requiredNodeAffinity(PodSpec pod) {
        var affinity = pod.getAffinity();
        if (affinity == null || affinity.getNodeAffinity() == null
                || affinity.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() == null) {
            return List.of();
        }
        List<NodeSelectorTerm> terms = new ArrayList<>();
        for (var term : affinity.getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution().getNodeSelectorTerms()) {
            List<NodeSelectorRequirement> requirements = new ArrayList<>();
            if (term.getMatchExpressions() != null) {
                term.getMatchExpressions().forEach(e -> requirements.add(
                        new NodeSelectorRequirement(e.getKey(), e.getOperator(), e.getValues() == null ? List.of() : e.getValues())));
            }
            terms.add(new NodeSelectorTerm(requirements));
        }
        return terms;
    }
}
