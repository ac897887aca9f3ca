package dev.sluice.controller.store;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * A small map keyed by strings in one array, in the order given, that cannot be changed: a cached Workload's labels
 * and annotations, and its admission's flavors and usage per pod set. A LinkedHashMap of two entries costs about 170
 * bytes (the map, its table and an entry object each); this costs about 50. With a quarter of a million Workloads cached, each with a few labels and annotations, that is
 * tens of megabytes. Cached objects are never changed in place (writes change a clone, whose maps Jackson makes
 * anew), so a map that refuses changes is safe, and a change made by mistake fails loudly instead of corrupting the
 * cache. Lookups scan the array: these maps have a handful of entries.
 */
final class PackedMap<V> extends AbstractMap<String, V> {

    /** Larger maps stay as they are: a scan would cost more than the bytes saved. */
    static final int MAX_SIZE = 16;

    /** Keys (strings) at even, values at odd indexes. */
    private final Object[] entries;

    private PackedMap(Object[] entries) {
        this.entries = entries;
    }

    /** The entries of {@code map}, in its order, each key shared ({@link Compact#shared}), each value as given. */
    static <V> PackedMap<V> of(Map<String, V> map, UnaryOperator<V> value) {
        Object[] entries = new Object[map.size() * 2];
        int i = 0;
        for (Map.Entry<String, V> e : map.entrySet()) {
            entries[i++] = Compact.shared(e.getKey());
            entries[i++] = value.apply(e.getValue());
        }
        return new PackedMap<>(entries);
    }

    @Override
    public int size() {
        return entries.length / 2;
    }

    @Override
    public boolean containsKey(Object key) {
        return indexOf(key) >= 0;
    }

    @Override
    @SuppressWarnings("unchecked")
    public V get(Object key) {
        int i = indexOf(key);
        return i < 0 ? null : (V) entries[i + 1];
    }

    private int indexOf(Object key) {
        for (int i = 0; i < entries.length; i += 2) {
            if (entries[i] == null ? key == null : entries[i].equals(key)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public Set<Map.Entry<String, V>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Map.Entry<String, V>> iterator() {
                return new Iterator<>() {
                    private int next;

                    @Override
                    public boolean hasNext() {
                        return next < entries.length;
                    }

                    @Override
                    @SuppressWarnings("unchecked")
                    public Map.Entry<String, V> next() {
                        if (next >= entries.length) {
                            throw new NoSuchElementException();
                        }
                        var e = new AbstractMap.SimpleImmutableEntry<>((String) entries[next], (V) entries[next + 1]);
                        next += 2;
                        return e;
                    }
                };
            }

            @Override
            public int size() {
                return entries.length / 2;
            }
        };
    }
}
