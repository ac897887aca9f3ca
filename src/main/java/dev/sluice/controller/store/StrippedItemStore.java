package dev.sluice.controller.store;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import java.util.Map;

/**
 * An informer store that drops what no decision reads: managedFields and kubectl's last-applied-configuration
 * (often the largest part of an object). Writes are JSON patches computed between two cached copies, so the
 * stripped fields are never written back. The rest of the metadata is compacted ({@link Compact}).
 */
public class StrippedItemStore<T extends HasMetadata> extends BasicItemStore<T> {

    static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

    /** Objects put since the start: how far an informer's initial list has come ({@code ClusterCache#startAndSync}). */
    private final java.util.concurrent.atomic.LongAdder puts = new java.util.concurrent.atomic.LongAdder();

    public StrippedItemStore() {
        super(Cache::metaNamespaceKeyFunc);
    }

    @Override
    public T put(String key, T obj) {
        strip(obj);
        puts.increment();
        return keep(key, toStored(key, obj));
    }

    /** Keeps the stored form of an object; returns the one kept before (a subclass may keep another form). */
    T keep(String key, T stored) {
        return super.put(key, stored);
    }

    public long puts() {
        return puts.sum();
    }

    /** What is stored of each object once stripped: the object itself, or a smaller one in its place (a subclass). */
    T toStored(String key, T obj) {
        return obj;
    }

    static void strip(HasMetadata obj) {
        var meta = obj.getMetadata();
        if (meta == null) {
            return;
        }
        meta.setManagedFields(null);
        Map<String, String> annotations = meta.getAnnotations();
        if (annotations != null && annotations.containsKey(LAST_APPLIED)) {
            annotations.remove(LAST_APPLIED);
        }
        Compact.meta(meta);
    }
}
