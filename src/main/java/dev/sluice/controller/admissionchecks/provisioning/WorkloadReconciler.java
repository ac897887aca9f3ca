package dev.sluice.controller.admissionchecks.provisioning;

import dev.sluice.api.v1beta2.AdmissionCheck;
import dev.sluice.api.v1beta2.AdmissionCheckState;
import dev.sluice.api.v1beta2.CheckState;
import dev.sluice.api.v1beta2.Kueue;
import dev.sluice.api.v1beta2.ProvisioningRequestConfig;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.controller.write.EventRecorder;
import dev.sluice.controller.write.Writes;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * Kueue's provisioning {@code Controller.Reconcile} for one Workload, level-triggered: everything is computed from the
 * Workload, its ProvisioningRequests, the checks and their configs as the caches show them, so a restart rebuilds from
 * the cluster. The check states are written as a JSON patch of the Workload's status that touches only this
 * controller's entries, with the resourceVersion as precondition (a conflict re-reads and recomputes:
 * {@link Writes#workloadStatus}). Throws when something must be tried again later (the room backs off).
 */
final class WorkloadReconciler {

    private static final Logger LOG = Logger.getLogger(WorkloadReconciler.class);
    static final String CONTROLLER_NAME = "kueue.x-k8s.io/provisioning-request";
    static final String MANAGED_LABEL = "kueue.x-k8s.io/managed";
    /** Workload annotations with this prefix are passed to the request as parameters. */
    static final String PARAMETER_ANNOTATION_PREFIX = dev.sluice.bridge.JobWorkloads.PROVREQ_ANNOTATION_PREFIX;
    /** Kueue's TruncateEventMessage. */
    static final int MAX_EVENT_MESSAGE = 1024;

    private final KubernetesClient client;
    private final ProvisioningCache cache;
    private final Writes writes;
    private final EventRecorder events;
    private final Clock clock;

    WorkloadReconciler(KubernetesClient client, ProvisioningCache cache, Writes writes, EventRecorder events, Clock clock) {
        this.client = client;
        this.cache = cache;
        this.writes = writes;
        this.events = events;
        this.clock = clock;
    }

    void reconcile(String namespace, String name) {
        Workload wl = cache.workload(namespace, name);
        if (wl == null) {
            return;
        }
        boolean finished = CheckStates.isTrue(wl, "Finished");
        boolean evicted = CheckStates.isTrue(wl, "Evicted");
        if (!CheckStates.isTrue(wl, "QuotaReserved") && !finished && !evicted) {
            return;
        }
        List<GenericKubernetesResource> owned = cache.requestsOwnedBy(namespace, name);
        if (finished || evicted) {
            // Kueue's CleanupProvisioningRequestsOnEviction (beta, on): the capacity is not needed any more
            deleteUnused(owned, Map.of());
            return;
        }
        Map<String, ProvisioningRequestConfig> checkConfig = new LinkedHashMap<>();
        for (String check : relevantChecks(wl)) {
            checkConfig.put(check, configOf(check));
        }
        if (checkConfig.isEmpty()) {
            return;
        }
        Map<String, GenericKubernetesResource> activeOrLast = activeOrLastRequests(wl, checkConfig, owned);
        Workload written = syncCheckStates(wl, checkConfig, activeOrLast);
        if (written == null) {
            return; // gone
        }
        deleteUnused(owned, activeOrLast);
        syncOwnedRequests(written, checkConfig, activeOrLast);
    }

    /** The Workload's checks that this controller decides (Kueue's FilterForController). */
    List<String> relevantChecks(Workload wl) {
        List<String> out = new ArrayList<>();
        for (AdmissionCheckState s : checks(wl)) {
            AdmissionCheck ac = cache.admissionCheck(s.getName());
            if (ac != null && ac.getSpec() != null && CONTROLLER_NAME.equals(ac.getSpec().getControllerName())) {
                out.add(s.getName());
            }
        }
        return out;
    }

    /**
     * The check's config, or null when it is not there (the check is not active). A reference that cannot name a
     * config fails the reconcile, as Kueue's (the AdmissionCheck's Active condition says why).
     */
    private ProvisioningRequestConfig configOf(String check) {
        AdmissionCheck ac = cache.admissionCheck(check);
        if (ac == null) {
            return null;
        }
        String problem = ParametersRef.problem(ac.getSpec().getParameters());
        if (problem != null) {
            throw new IllegalStateException("admission check " + check + ": " + problem);
        }
        return cache.config(ac.getSpec().getParameters().getName());
    }

    /** Per check, its request of the highest attempt that is still in line with its config (Kueue's activeOrLastPRForChecks). */
    static Map<String, GenericKubernetesResource> activeOrLastRequests(Workload wl,
            Map<String, ProvisioningRequestConfig> checkConfig, List<GenericKubernetesResource> owned) {
        Map<String, GenericKubernetesResource> out = new LinkedHashMap<>();
        String wlName = wl.getMetadata().getName();
        for (var e : checkConfig.entrySet()) {
            String check = e.getKey();
            ProvisioningRequestConfig prc = e.getValue();
            if (prc == null) {
                continue;
            }
            boolean needed = PodSets.requestNeeded(wl, prc.getSpec());
            for (GenericKubernetesResource pr : owned) {
                String prName = ProvisioningRequests.name(pr);
                if (RequestNames.matches(prName, wlName, check) && needed && syncedWithConfig(pr, prc)) {
                    GenericKubernetesResource current = out.get(check);
                    if (current == null || RequestNames.attempt(ProvisioningRequests.name(current), wlName, check)
                            < RequestNames.attempt(prName, wlName, check)) {
                        out.put(check, pr);
                    }
                }
            }
        }
        return out;
    }

    /** The request has the config's class and every parameter of the config (Kueue's provReqSyncedWithConfig). */
    static boolean syncedWithConfig(GenericKubernetesResource pr, ProvisioningRequestConfig prc) {
        if (!Objects.equals(ProvisioningRequests.className(pr), nz(prc.getSpec().getProvisioningClassName()))) {
            return false;
        }
        Map<String, String> params = ProvisioningRequests.parameters(pr);
        if (prc.getSpec().getParameters() != null) {
            for (var p : prc.getSpec().getParameters().entrySet()) {
                if (!Objects.equals(params.get(p.getKey()), p.getValue())) {
                    return false;
                }
            }
        }
        return true;
    }

    private Workload syncCheckStates(Workload wl, Map<String, ProvisioningRequestConfig> checkConfig,
            Map<String, GenericKubernetesResource> activeOrLast) {
        List<String> told = new ArrayList<>();
        Writes.Written w = writes.workloadStatus(wl, base -> {
            told.clear();
            List<AdmissionCheckState> checks = base.getStatus().getAdmissionChecks();
            List<AdmissionCheckState> next = new ArrayList<>();
            for (var e : checkConfig.entrySet()) {
                AdmissionCheckState current = find(checks, e.getKey());
                if (current == null) {
                    continue; // no longer on the Workload
                }
                CheckStates.Next n = CheckStates.next(current, e.getValue(), base, activeOrLast.get(e.getKey()));
                if (n == null) {
                    return base; // a needed request is not there yet: nothing is decided (as Kueue)
                }
                if (n.changed()) {
                    next.add(n.state());
                    if (current.getState() != n.state().getState()) {
                        told.add(CheckStates.updatedMessage(e.getKey(), current.getState(), n.state().getState(),
                                n.state().getMessage()));
                    }
                }
            }
            for (AdmissionCheckState s : next) {
                CheckStates.put(checks, s, clock.instant());
            }
            return base;
        });
        if (w.gone()) {
            return null;
        }
        if (w.changed()) {
            for (String message : told) {
                events.normal(w.workload(), "AdmissionCheckUpdated", CheckStates.truncate(message, MAX_EVENT_MESSAGE));
            }
        }
        return w.workload();
    }

    private void deleteUnused(List<GenericKubernetesResource> owned, Map<String, GenericKubernetesResource> keep) {
        Set<String> names = new HashSet<>();
        keep.values().forEach(pr -> names.add(ProvisioningRequests.name(pr)));
        for (GenericKubernetesResource pr : owned) {
            if (!names.contains(ProvisioningRequests.name(pr))) {
                client.genericKubernetesResources(ProvisioningRequests.CONTEXT)
                        .inNamespace(pr.getMetadata().getNamespace()).withName(ProvisioningRequests.name(pr)).delete();
            }
        }
    }

    private void syncOwnedRequests(Workload wl, Map<String, ProvisioningRequestConfig> checkConfig,
            Map<String, GenericKubernetesResource> activeOrLast) {
        String wlName = wl.getMetadata().getName();
        for (var e : checkConfig.entrySet()) {
            String check = e.getKey();
            ProvisioningRequestConfig prc = e.getValue();
            if (prc == null || !PodSets.requestNeeded(wl, prc.getSpec())) {
                continue;
            }
            AdmissionCheckState ac = find(checks(wl), check);
            if (ac != null && ac.getState() == CheckState.Ready) {
                continue;
            }
            GenericKubernetesResource req = activeOrLast.get(check);
            // after a cleanup deleted the last request, the check's retry count still names the next attempt
            int attempt = ac == null ? 1 : (ac.getRetryCount() == null ? 0 : ac.getRetryCount()) + 1;
            boolean create = false;
            if (req != null) {
                boolean failed = ProvisioningRequests.isTrue(req, ProvisioningRequests.FAILED)
                        || (ProvisioningRequests.isTrue(req, ProvisioningRequests.BOOKING_EXPIRED)
                                && !CheckStates.isTrue(wl, "Admitted"));
                // in Retry or Rejected no new request is made: the framework requeues (and sets Pending) first
                if (failed && ac != null && ac.getState() == CheckState.Pending) {
                    attempt = RequestNames.attempt(ProvisioningRequests.name(req), wlName, check) + 1;
                    create = true;
                }
            } else {
                create = true;
            }
            if (create) {
                String requestName = RequestNames.request(wlName, check, attempt);
                req = createRequest(wl, ac, prc, requestName);
                activeOrLast.put(check, req);
            }
            syncPodTemplates(wl, req);
        }
    }

    private GenericKubernetesResource createRequest(Workload wl, AdmissionCheckState ac, ProvisioningRequestConfig prc,
            String requestName) {
        String ns = wl.getMetadata().getNamespace();
        LOG.debugf("creating ProvisioningRequest %s/%s", ns, requestName);
        Map<String, String> parameters = new LinkedHashMap<>();
        if (prc.getSpec().getParameters() != null) {
            parameters.putAll(prc.getSpec().getParameters());
        }
        if (wl.getMetadata().getAnnotations() != null) {
            wl.getMetadata().getAnnotations().forEach((k, v) -> {
                if (k.startsWith(PARAMETER_ANNOTATION_PREFIX)) {
                    parameters.put(k.substring(PARAMETER_ANNOTATION_PREFIX.length()), v);
                }
            });
        }
        List<Map<String, Object>> podSets = new ArrayList<>();
        for (PodSets.Merged m : PodSets.merge(wl, prc.getSpec())) {
            String ptName = RequestNames.podTemplate(requestName, m.name());
            if (cache.podTemplate(ns, ptName) == null) {
                try {
                    client.v1().podTemplates().inNamespace(ns).resource(Templates.podTemplate(wl, ptName, m, cache))
                            .create();
                } catch (KubernetesClientException | Templates.CannotMerge ex) {
                    throw failedCreate(wl, ac, ptName, "Error creating PodTemplate \"" + ptName + "\": " + words(ex), ex,
                            () -> cache.podTemplate(ns, ptName) == null);
                }
            }
            podSets.add(Map.of("podTemplateRef", Map.of("name", ptName), "count", m.count()));
        }
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("provisioningClassName", nz(prc.getSpec().getProvisioningClassName()));
        if (!parameters.isEmpty()) {
            spec.put("parameters", parameters);
        }
        spec.put("podSets", podSets);
        GenericKubernetesResource pr = new GenericKubernetesResource();
        pr.setApiVersion(ProvisioningRequests.API_VERSION);
        pr.setKind(ProvisioningRequests.KIND);
        pr.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withNamespace(ns).withName(requestName)
                .withLabels(Map.of(MANAGED_LABEL, "true")).withOwnerReferences(controllerOf(wl)).build());
        pr.setAdditionalProperty("spec", spec);
        GenericKubernetesResource created;
        try {
            created = client.genericKubernetesResources(ProvisioningRequests.CONTEXT).inNamespace(ns).resource(pr).create();
        } catch (KubernetesClientException ex) {
            throw failedCreate(wl, ac, requestName, "Error creating ProvisioningRequest \"" + requestName + "\": "
                    + words(ex), ex, () -> cache.request(ns, requestName) == null);
        }
        events.normal(wl, "ProvisioningRequestCreated", "Created ProvisioningRequest: \"" + requestName + "\"");
        return created;
    }

    /**
     * A create failed: told on the Workload (Warning FailedCreate, and the check's message), and thrown to be tried again.
     * An object that exists although the cache does not show it yet was made by an earlier pass: nothing is told then,
     * since the message would outlive what it describes (Kueue's isMissingInCache).
     */
    private RuntimeException failedCreate(Workload wl, AdmissionCheckState ac, String object, String message,
            RuntimeException ex, java.util.function.BooleanSupplier missingInCache) {
        if (ex instanceof KubernetesClientException k && k.getCode() == 409 && missingInCache.getAsBoolean()) {
            LOG.debugf("%s exists but is not in the cache yet: not told", object);
            return new Told(message, ex);
        }
        LOG.warnf("%s/%s: %s", wl.getMetadata().getNamespace(), wl.getMetadata().getName(), message);
        events.warning(wl, "FailedCreate", CheckStates.truncate(message, MAX_EVENT_MESSAGE));
        if (ac != null) {
            writes.workloadStatus(wl, base -> {
                AdmissionCheckState s = find(base.getStatus().getAdmissionChecks(), ac.getName());
                if (s != null) {
                    s.setMessage(CheckStates.truncate(message, CheckStates.MAX_MESSAGE));
                }
                return base;
            });
        }
        return new Told(message, ex);
    }

    /** A failure already logged and shown on the Workload: the room only tries again. */
    static final class Told extends RuntimeException {
        Told(String message, RuntimeException cause) {
            super(message, cause);
        }
    }

    /** The PodTemplates of the request are controlled by it (made controlled by the Workload, then handed over). */
    private void syncPodTemplates(Workload wl, GenericKubernetesResource req) {
        String ns = req.getMetadata().getNamespace();
        for (ProvisioningRequests.PodSet ps : ProvisioningRequests.podSets(req)) {
            PodTemplate pt = cache.podTemplate(ns, ps.podTemplate());
            if (pt == null || req.getMetadata().getUid() == null) {
                continue; // not seen yet: its event brings the Workload back here
            }
            List<OwnerReference> refs = new ArrayList<>(pt.getMetadata().getOwnerReferences() == null ? List.of()
                    : pt.getMetadata().getOwnerReferences());
            boolean update = refs.removeIf(r -> Boolean.TRUE.equals(r.getController())
                    && Objects.equals(r.getUid(), wl.getMetadata().getUid()));
            boolean controlledByRequest = refs.stream().anyMatch(r -> Boolean.TRUE.equals(r.getController())
                    && Objects.equals(r.getUid(), req.getMetadata().getUid()));
            if (!controlledByRequest) {
                refs.add(new OwnerReferenceBuilder().withApiVersion(ProvisioningRequests.API_VERSION)
                        .withKind(ProvisioningRequests.KIND).withName(ProvisioningRequests.name(req))
                        .withUid(req.getMetadata().getUid()).withController(true).withBlockOwnerDeletion(true).build());
                update = true;
            }
            if (update) {
                PodTemplate next = io.fabric8.kubernetes.client.utils.Serialization.clone(pt);
                next.getMetadata().setOwnerReferences(refs);
                // a PUT with the cached resourceVersion: a conflict is tried again on fresher caches
                client.v1().podTemplates().inNamespace(ns).resource(next).update();
            }
        }
    }

    static OwnerReference controllerOf(Workload wl) {
        return new OwnerReferenceBuilder().withApiVersion(Kueue.API_VERSION).withKind("Workload")
                .withName(wl.getMetadata().getName()).withUid(wl.getMetadata().getUid()).withController(true)
                .withBlockOwnerDeletion(true).build();
    }

    static List<AdmissionCheckState> checks(Workload wl) {
        return wl.getStatus() == null || wl.getStatus().getAdmissionChecks() == null ? List.of()
                : wl.getStatus().getAdmissionChecks();
    }

    static AdmissionCheckState find(List<AdmissionCheckState> checks, String name) {
        if (checks != null) {
            for (AdmissionCheckState s : checks) {
                if (Objects.equals(s.getName(), name)) {
                    return s;
                }
            }
        }
        return null;
    }

    /** What went wrong in the API server's words (its Status message). */
    static String words(RuntimeException e) {
        if (e instanceof KubernetesClientException k && k.getStatus() != null && k.getStatus().getMessage() != null
                && !k.getStatus().getMessage().isBlank()) {
            return k.getStatus().getMessage();
        }
        return String.valueOf(e.getMessage());
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
