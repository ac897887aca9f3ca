package dev.sluice.bridge;

import dev.sluice.api.v1beta2.AdmissionCheckState;
import dev.sluice.api.v1beta2.PodSetUpdate;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.jobs.PodSetStart;
import dev.sluice.jobs.StartConflictException;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The admission checks' podSetUpdates merged into what a pod set starts with, as Kueue v0.19.2's
 * getPodSetsInfoFromStatus and podset.PodSetInfo.Merge: each check's update for the pod set adds labels,
 * annotations, node selector entries and tolerations (a toleration given twice is added once); a key already set to
 * another value (by the flavor or another check) is a conflict, and the job cannot start.
 */
public final class PodSetUpdates {

    private PodSetUpdates() {
    }

    /** {@code start} with every check's update for its pod set merged in, checks in name order. */
    public static PodSetStart merge(PodSetStart start, Workload wl) {
        List<AdmissionCheckState> checks = wl.getStatus() == null || wl.getStatus().getAdmissionChecks() == null
                ? List.of() : new ArrayList<>(wl.getStatus().getAdmissionChecks());
        if (checks.isEmpty()) {
            return start;
        }
        checks.sort(Comparator.comparing(AdmissionCheckState::getName));
        Map<String, String> labels = new LinkedHashMap<>(start.labels());
        Map<String, String> annotations = new LinkedHashMap<>(start.annotations());
        Map<String, String> nodeSelector = new LinkedHashMap<>(start.nodeSelector());
        List<Toleration> tolerations = new ArrayList<>(start.tolerations());
        for (AdmissionCheckState check : checks) {
            if (check.getPodSetUpdates() == null) {
                continue;
            }
            for (PodSetUpdate u : check.getPodSetUpdates()) {
                if (!start.podSet().equals(u.getName())) {
                    continue;
                }
                merge(start.podSet(), check.getName(), "annotations", annotations, u.getAnnotations());
                merge(start.podSet(), check.getName(), "labels", labels, u.getLabels());
                merge(start.podSet(), check.getName(), "nodeSelector", nodeSelector, u.getNodeSelector());
                if (u.getTolerations() != null) {
                    for (Toleration t : u.getTolerations()) {
                        if (!tolerations.contains(t)) {
                            tolerations.add(t);
                        }
                    }
                }
                break; // Kueue takes a check's first update for the pod set
            }
        }
        return new PodSetStart(start.podSet(), nodeSelector, tolerations, start.count(), labels, annotations,
                start.schedulingGates());
    }

    private static void merge(String podSet, String check, String field, Map<String, String> into,
            Map<String, String> update) {
        if (update == null) {
            return;
        }
        for (Map.Entry<String, String> e : update.entrySet()) {
            String have = into.get(e.getKey());
            if (have != null && !have.equals(e.getValue())) {
                throw new StartConflictException(podSet, e.getKey(), "in admission check \"" + check
                        + "\": invalid admission check PodSetUpdate: conflict for " + field + ": conflict for key="
                        + e.getKey() + ", value1=" + have + ", value2=" + e.getValue());
            }
        }
        into.putAll(update);
    }
}
