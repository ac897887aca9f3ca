package dev.sluice.controller.conditions;

import dev.sluice.api.v1beta2.AdmissionCheckState;
import dev.sluice.api.v1beta2.CheckState;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.api.v1beta2.WorkloadStatus;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * A Workload's status.admissionChecks as Kueue v0.19.2 keeps them (pkg/workload/admissionchecks.go, the workload
 * controller's syncAdmissionCheckConditions and buildAdmissionChecksMessage, evict's resetChecksOnEviction). Each
 * function changes the given object; the check controllers write the states, Sluice only adds, drops and resets them.
 */
public final class AdmissionCheckStates {

    /** Kueue's Admitted=False reason while quota is reserved and a check is not Ready, and its message. */
    public static final String UNSATISFIED = "UnsatisfiedAdmissionChecks";
    static final String UNSATISFIED_MESSAGE = "The workload has not all checks ready";
    /** Kueue's eviction reason for a Retry, and the DeactivationTarget reason for a Rejected check. */
    public static final String EVICTION_REASON = "AdmissionCheck";
    /** Kueue's Warning event reason when a Rejected check deactivates the Workload. */
    public static final String REJECTED_EVENT = "AdmissionCheckRejected";

    private AdmissionCheckStates() {
    }

    /**
     * Kueue's syncAdmissionCheckConditions: every check in {@code needed} is present (a new one Pending, now), no
     * other is, sorted by name. True when the list changed.
     */
    public static boolean sync(Workload wl, Collection<String> needed, Instant now) {
        WorkloadStatus status = status(wl);
        List<AdmissionCheckState> current = status.getAdmissionChecks() == null ? List.of() : status.getAdmissionChecks();
        if (needed.isEmpty()) {
            if (status.getAdmissionChecks() == null) {
                return false;
            }
            status.setAdmissionChecks(null);
            return !current.isEmpty();
        }
        Set<String> want = new TreeSet<>(needed);
        List<AdmissionCheckState> next = new ArrayList<>();
        boolean changed = false;
        for (AdmissionCheckState c : current) {
            if (want.remove(c.getName())) {
                next.add(c);
            } else {
                changed = true; // removed from the ClusterQueue (or not for these flavors): dropped
            }
        }
        for (String name : want) {
            AdmissionCheckState c = new AdmissionCheckState();
            c.setName(name);
            c.setState(CheckState.Pending);
            c.setMessage("");
            c.setLastTransitionTime(timestamp(now));
            next.add(c);
            changed = true;
        }
        List<AdmissionCheckState> sorted = new ArrayList<>(next);
        sorted.sort(Comparator.comparing(AdmissionCheckState::getName));
        if (!sorted.equals(next)) {
            changed = true;
        }
        if (changed) {
            status.setAdmissionChecks(sorted);
        }
        return changed;
    }

    /** The checks' names and states, by name; empty when there are none. */
    public static Map<String, CheckState> states(Workload wl) {
        Map<String, CheckState> out = new LinkedHashMap<>();
        for (AdmissionCheckState c : checks(wl)) {
            out.put(c.getName(), c.getState() == null ? CheckState.Pending : c.getState());
        }
        return out;
    }

    /** The names of the checks the Workload lists. */
    public static List<String> names(Workload wl) {
        List<String> out = new ArrayList<>();
        checks(wl).forEach(c -> out.add(c.getName()));
        return out;
    }

    /** Kueue's HasAllChecksReady: every listed check is Ready (true with none). */
    public static boolean allReady(Workload wl) {
        for (AdmissionCheckState c : checks(wl)) {
            if (c.getState() != CheckState.Ready) {
                return false;
            }
        }
        return true;
    }

    /** The checks in {@code state}, sorted by name. */
    public static List<AdmissionCheckState> inState(Workload wl, CheckState state) {
        List<AdmissionCheckState> out = new ArrayList<>();
        for (AdmissionCheckState c : checks(wl)) {
            if (c.getState() == state) {
                out.add(c);
            }
        }
        out.sort(Comparator.comparing(AdmissionCheckState::getName));
        return out;
    }

    /**
     * Kueue's buildAdmissionChecksMessage: {@code AdmissionCheck(s) in <state> state: "a" (message); "b"}.
     */
    public static String message(List<AdmissionCheckState> checks, CheckState state) {
        List<AdmissionCheckState> sorted = new ArrayList<>(checks);
        sorted.sort(Comparator.comparing(AdmissionCheckState::getName));
        List<String> parts = new ArrayList<>();
        for (AdmissionCheckState c : sorted) {
            String quoted = "\"" + c.getName() + "\"";
            parts.add(c.getMessage() == null || c.getMessage().isEmpty() ? quoted : quoted + " (" + c.getMessage() + ")");
        }
        return (sorted.size() > 1 ? "AdmissionChecks" : "AdmissionCheck") + " in " + state + " state: "
                + String.join("; ", parts);
    }

    /**
     * Kueue's GetMaxRetryTime: the latest lastTransitionTime + requeueAfterSeconds of the Retry checks; empty when
     * none says when.
     */
    public static OptionalLong maxRetryTimeMillis(Workload wl) {
        long max = Long.MIN_VALUE;
        for (AdmissionCheckState c : checks(wl)) {
            if (c.getState() != CheckState.Retry || c.getRequeueAfterSeconds() == null) {
                continue;
            }
            Long since = millis(c.getLastTransitionTime());
            if (since == null) {
                continue;
            }
            max = Math.max(max, since + c.getRequeueAfterSeconds() * 1000L);
        }
        return max == Long.MIN_VALUE ? OptionalLong.empty() : OptionalLong.of(max);
    }

    /**
     * Kueue's resetChecksOnEviction: every check not Pending goes back to Pending, saying what it was; a Retry counts
     * one more retry.
     */
    public static void resetOnEviction(Workload wl, Instant now) {
        for (AdmissionCheckState c : checks(wl)) {
            if (c.getState() == CheckState.Pending) {
                continue;
            }
            Integer retryCount = c.getState() == CheckState.Retry
                    ? (c.getRetryCount() == null ? 0 : c.getRetryCount()) + 1 : null;
            c.setMessage("Reset to Pending after eviction. Previously: " + c.getState());
            c.setState(CheckState.Pending);
            c.setLastTransitionTime(timestamp(now));
            c.setRetryCount(retryCount);
            c.setPodSetUpdates(null);
        }
    }

    /**
     * Kueue's SyncAdmittedCondition (with the granular reasons of UnadmittedWorkloadsObservability, as Sluice's other
     * conditions), for a Workload with a reservation: Admitted True when every check is Ready, else False with
     * UnsatisfiedAdmissionChecks. True when the condition changed.
     */
    public static boolean syncAdmitted(Workload wl, Instant now) {
        boolean ready = allReady(wl);
        Condition before = WorkloadConditions.find(wl, WorkloadConditions.ADMITTED);
        String status = before == null ? null : before.getStatus();
        String reason = before == null ? null : before.getReason();
        WorkloadStatus st = status(wl);
        if (ready) {
            st.setConditions(Conditions.set(st.getConditions(), WorkloadConditions.ADMITTED, true, "Admitted",
                    "The workload is admitted", wl.getMetadata().getGeneration(), now));
        } else {
            st.setConditions(Conditions.set(st.getConditions(), WorkloadConditions.ADMITTED, false, UNSATISFIED,
                    UNSATISFIED_MESSAGE, wl.getMetadata().getGeneration(), now));
        }
        Condition after = WorkloadConditions.find(wl, WorkloadConditions.ADMITTED);
        return !Objects.equals(status, after.getStatus()) || !Objects.equals(reason, after.getReason());
    }

    private static List<AdmissionCheckState> checks(Workload wl) {
        return wl.getStatus() == null || wl.getStatus().getAdmissionChecks() == null ? List.of()
                : wl.getStatus().getAdmissionChecks();
    }

    private static WorkloadStatus status(Workload wl) {
        if (wl.getStatus() == null) {
            wl.setStatus(new WorkloadStatus());
        }
        return wl.getStatus();
    }

    private static String timestamp(Instant now) {
        return now.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    private static Long millis(String timestamp) {
        if (timestamp == null || timestamp.isEmpty()) {
            return null;
        }
        try {
            long at = Instant.parse(timestamp).toEpochMilli();
            return at <= 0 ? null : at; // Kueue skips a zero lastTransitionTime
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
