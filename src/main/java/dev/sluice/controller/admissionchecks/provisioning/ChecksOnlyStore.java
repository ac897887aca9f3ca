package dev.sluice.controller.admissionchecks.provisioning;

import dev.sluice.api.v1beta2.Workload;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;

/**
 * The room's Workload store keeps only Workloads that carry admission checks (the rest never concern this
 * controller), without managedFields: the session's own cache already holds every Workload, and this one should not
 * hold them twice.
 */
final class ChecksOnlyStore extends BasicItemStore<Workload> {

    ChecksOnlyStore() {
        super(Cache::metaNamespaceKeyFunc);
    }

    @Override
    public Workload put(String key, Workload obj) {
        if (!hasChecks(obj)) {
            return remove(key);
        }
        if (obj.getMetadata() != null) {
            obj.getMetadata().setManagedFields(null);
        }
        return super.put(key, obj);
    }

    static boolean hasChecks(Workload wl) {
        return wl.getStatus() != null && wl.getStatus().getAdmissionChecks() != null
                && !wl.getStatus().getAdmissionChecks().isEmpty();
    }
}
