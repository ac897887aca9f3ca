package dev.sluice.controller.admissionchecks.provisioning;

import dev.sluice.api.v1beta2.AdmissionCheckState;
import dev.sluice.api.v1beta2.CheckState;
import dev.sluice.api.v1beta2.PodSet;
import dev.sluice.api.v1beta2.PodSetUpdate;
import dev.sluice.api.v1beta2.ProvisioningRequestConfig;
import dev.sluice.api.v1beta2.ProvisioningRequestConfigSpec;
import dev.sluice.api.v1beta2.ProvisioningRequestPodSetUpdatesNodeSelector;
import dev.sluice.api.v1beta2.ProvisioningRequestRetryStrategy;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.controller.conditions.Conditions;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a ProvisioningRequest's conditions make of its admission check's state, as Kueue's {@code syncCheckStates}:
 * Failed retries (state Retry, with backoff) up to backoffLimitCount attempts and is Rejected after; BookingExpired
 * before admission the same; CapacityRevoked of an active Workload is Rejected; Provisioned is Ready with the consume
 * annotations (and the config's node selectors) as podSetUpdates; Accepted carries the Provisioned condition's
 * message (the autoscaler's ETA). Pure: no I/O.
 */
final class CheckStates {

    static final String CHECK_INACTIVE = "the check is not active";
    static final String NO_REQUEST_NEEDED = "the provisioning request is not needed";
    static final int DEFAULT_BACKOFF_LIMIT_COUNT = 3;
    static final int DEFAULT_BACKOFF_BASE_SECONDS = 60;
    static final int DEFAULT_BACKOFF_MAX_SECONDS = 1800;
    /** Kueue's TruncateConditionMessage: a check's message is at most this long. */
    static final int MAX_MESSAGE = 32 * 1024;

    private CheckStates() {
    }

    /** A check's next state and whether anything in it changed. */
    record Next(AdmissionCheckState state, boolean changed) {
    }

    /**
     * The check's next state. {@code config} null: the check is not active. {@code request} is the active (or last)
     * request of the check; null while none exists yet, when nothing is decided ({@code null} is returned).
     */
    static Next next(AdmissionCheckState current, ProvisioningRequestConfig config, Workload wl,
            GenericKubernetesResource request) {
        AdmissionCheckState s = Serialization.clone(current);
        boolean changed = false;
        if (config == null) {
            changed |= setState(s, CheckState.Pending);
            changed |= setMessage(s, CHECK_INACTIVE);
            return new Next(s, changed);
        }
        if (!PodSets.requestNeeded(wl, config.getSpec())) {
            if (setState(s, CheckState.Ready)) {
                s.setMessage(NO_REQUEST_NEEDED);
                s.setPodSetUpdates(null);
                changed = true;
            }
            return new Next(s, changed);
        }
        if (request == null) {
            return null;
        }
        Backoff backoff = Backoff.of(config.getSpec().getRetryStrategy());
        String wlName = wl.getMetadata().getName();
        int attempt = RequestNames.attempt(ProvisioningRequests.name(request), wlName, s.getName());
        int retryCount = s.getRetryCount() == null ? 0 : s.getRetryCount();
        if (ProvisioningRequests.isTrue(request, ProvisioningRequests.FAILED)) {
            changed |= retryOrReject(s, attempt, retryCount, backoff, "Retrying after failure: ",
                    ProvisioningRequests.message(request, ProvisioningRequests.FAILED));
        } else if (ProvisioningRequests.isTrue(request, ProvisioningRequests.CAPACITY_REVOKED)) {
            if (isActive(wl) && !isTrue(wl, "Finished")) {
                // Rejected deactivates the Workload: its replacement pods would wait for nodes the autoscaler removed
                changed |= setState(s, CheckState.Rejected);
                changed |= setMessage(s, ProvisioningRequests.message(request, ProvisioningRequests.CAPACITY_REVOKED));
            }
        } else if (ProvisioningRequests.isTrue(request, ProvisioningRequests.BOOKING_EXPIRED)) {
            if (!isTrue(wl, "Admitted")) {
                changed |= retryOrReject(s, attempt, retryCount, backoff, "Retrying after booking expired: ",
                        ProvisioningRequests.message(request, ProvisioningRequests.BOOKING_EXPIRED));
            }
        } else if (ProvisioningRequests.isTrue(request, ProvisioningRequests.PROVISIONED)) {
            if (setState(s, CheckState.Ready)) {
                changed = true;
                s.setPodSetUpdates(podSetUpdates(wl, request, config.getSpec()));
                setMessage(s, ProvisioningRequests.message(request, ProvisioningRequests.PROVISIONED));
            }
        } else if (ProvisioningRequests.isTrue(request, ProvisioningRequests.ACCEPTED)) {
            if (ProvisioningRequests.condition(request, ProvisioningRequests.PROVISIONED) != null) {
                // the autoscaler's ETA, while it provisions
                changed |= setMessage(s, ProvisioningRequests.message(request, ProvisioningRequests.PROVISIONED));
                changed |= setState(s, CheckState.Pending);
            }
        } else {
            // nothing reported yet: whatever an earlier state left (an error creating the request) no longer holds
            changed |= setMessage(s, "");
            changed |= setState(s, CheckState.Pending);
        }
        return new Next(s, changed);
    }

    private static boolean retryOrReject(AdmissionCheckState s, int attempt, int retryCount, Backoff backoff,
            String retryPrefix, String reason) {
        if (attempt <= backoff.limitCount()) {
            boolean changed = setMessage(s, retryPrefix + reason);
            if (attempt > retryCount) { // an older request's failure is not retried again
                setState(s, CheckState.Retry);
                s.setRequeueAfterSeconds(backoff.requeueAfterSeconds(retryCount + 1));
                changed = true;
            }
            return changed;
        }
        s.setState(CheckState.Rejected);
        s.setMessage(reason);
        return true;
    }

    /** Kueue's retryStrategy, its defaults where a field (or the whole) is unset. */
    record Backoff(int limitCount, int baseSeconds, int maxSeconds) {
        static Backoff of(ProvisioningRequestRetryStrategy r) {
            return new Backoff(
                    r == null || r.getBackoffLimitCount() == null ? DEFAULT_BACKOFF_LIMIT_COUNT : r.getBackoffLimitCount(),
                    r == null || r.getBackoffBaseSeconds() == null ? DEFAULT_BACKOFF_BASE_SECONDS : r.getBackoffBaseSeconds(),
                    r == null || r.getBackoffMaxSeconds() == null ? DEFAULT_BACKOFF_MAX_SECONDS : r.getBackoffMaxSeconds());
        }

        /**
         * The wait before the n-th requeue (n from 1): base, then doubled each time, at most max (0: no bound) from the
         * second on, as Kueue's {@code wait.Backoff} steps it (its jitter of 0.01 % is cut off by the whole seconds).
         */
        int requeueAfterSeconds(int n) {
            long wait = baseSeconds;
            for (int i = 1; i < n; i++) {
                wait *= 2;
                if (maxSeconds > 0 && wait >= maxSeconds) {
                    return maxSeconds;
                }
                if (wait >= Integer.MAX_VALUE) {
                    return Integer.MAX_VALUE;
                }
            }
            return (int) wait;
        }
    }

    /**
     * What the provisioned capacity adds to each pod set's pods: the consume annotations, and the config's node
     * selectors whose value the request's class details give (one a detail lacks is left out).
     */
    static List<PodSetUpdate> podSetUpdates(Workload wl, GenericKubernetesResource request,
            ProvisioningRequestConfigSpec config) {
        String name = ProvisioningRequests.name(request);
        Map<String, String> podSetOfTemplate = new HashMap<>();
        for (PodSet ps : wl.getSpec().getPodSets()) {
            podSetOfTemplate.put(RequestNames.podTemplate(name, PodSets.name(ps)), PodSets.name(ps));
        }
        Map<String, String> details = ProvisioningRequests.classDetails(request);
        List<PodSetUpdate> updates = new ArrayList<>();
        for (ProvisioningRequests.PodSet ps : ProvisioningRequests.podSets(request)) {
            PodSetUpdate u = new PodSetUpdate();
            u.setName(podSetOfTemplate.get(ps.podTemplate()));
            Map<String, String> annotations = new LinkedHashMap<>();
            annotations.put(ProvisioningRequests.CONSUME_ANNOTATION, name);
            annotations.put(ProvisioningRequests.CLASS_ANNOTATION, ProvisioningRequests.className(request));
            u.setAnnotations(annotations);
            if (config.getPodSetUpdates() != null && config.getPodSetUpdates().getNodeSelector() != null) {
                Map<String, String> selector = new LinkedHashMap<>();
                for (ProvisioningRequestPodSetUpdatesNodeSelector ns : config.getPodSetUpdates().getNodeSelector()) {
                    String value = details.get(ns.getValueFromProvisioningClassDetail());
                    if (value != null) {
                        selector.put(ns.getKey(), value);
                    }
                }
                u.setNodeSelector(selector.isEmpty() ? null : selector);
            }
            updates.add(u);
        }
        return updates;
    }

    /** Sets the message, an empty one too; whether it changed (Kueue's updateCheckMessage). */
    static boolean setMessage(AdmissionCheckState s, String message) {
        String current = s.getMessage() == null ? "" : s.getMessage();
        if (current.equals(message)) {
            return false;
        }
        s.setMessage(message);
        return true;
    }

    static boolean setState(AdmissionCheckState s, CheckState state) {
        if (s.getState() == state) {
            return false;
        }
        s.setState(state);
        return true;
    }

    /**
     * Puts {@code next} into {@code checks} (Kueue's SetAdmissionCheckState): an existing entry of that name takes its
     * state (and a new transition time when the state changed), message, podSetUpdates and requeueAfterSeconds; its
     * retryCount stays the framework's. A new entry is added.
     */
    static void put(List<AdmissionCheckState> checks, AdmissionCheckState next, Instant now) {
        String time = now.truncatedTo(ChronoUnit.SECONDS).toString();
        for (AdmissionCheckState existing : checks) {
            if (Objects.equals(existing.getName(), next.getName())) {
                if (existing.getState() != next.getState()) {
                    existing.setState(next.getState());
                    existing.setLastTransitionTime(time);
                }
                existing.setMessage(next.getMessage() == null ? "" : next.getMessage());
                existing.setPodSetUpdates(next.getPodSetUpdates());
                existing.setRequeueAfterSeconds(next.getRequeueAfterSeconds());
                return;
            }
        }
        AdmissionCheckState added = Serialization.clone(next);
        if (added.getLastTransitionTime() == null) {
            added.setLastTransitionTime(time);
        }
        checks.add(added);
    }

    /** Kueue's AdmissionCheckUpdated event message for a change of state. */
    static String updatedMessage(String check, CheckState from, CheckState to, String message) {
        String m = "Admission check " + check + " updated state from " + from + " to " + to;
        return message == null || message.isEmpty() ? m : m + " with message: " + message;
    }

    static String truncate(String message, int max) {
        return message.length() <= max ? message : message.substring(0, max - 3) + "...";
    }

    static boolean isTrue(Workload wl, String type) {
        return wl.getStatus() != null && Conditions.isTrue(wl.getStatus().getConditions(), type);
    }

    static boolean isActive(Workload wl) {
        return wl.getSpec() == null || wl.getSpec().getActive() == null || wl.getSpec().getActive();
    }
}
