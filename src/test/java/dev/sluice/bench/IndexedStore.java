package dev.sluice.bench;

import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The mock API server's object store with two indexes, so that a request costs what it costs in a real API server
 * rather than a scan of every stored object. fabric8's CRUD dispatcher finds objects by scanning
 * {@code map.entrySet()} for keys that match the request's attributes; while a request is being handled,
 * {@link #narrow} names the resource (and object) it is about, and {@code entrySet()} then yields only the stored
 * objects of that resource (and name). That is always a superset of what the scan matches, so the answers are the
 * same, only found faster. Writes go to the full map and both indexes.
 */
final class IndexedStore extends AbstractMap<AttributeSet, String> {

    /** What the current request is about: a resource (plural) and perhaps one object's name. */
    record Hint(String plural, String name) {
    }

    private static final ThreadLocal<Hint> HINT = new ThreadLocal<>();

    private final Map<AttributeSet, String> all = new LinkedHashMap<>();
    private final Map<String, Map<AttributeSet, String>> byPlural = new HashMap<>();
    private final Map<String, Map<AttributeSet, String>> byName = new HashMap<>();

    /** Runs {@code request} with entrySet() narrowed to {@code hint} (null: no narrowing). */
    static <T> T narrow(Hint hint, java.util.function.Supplier<T> request) {
        Hint before = HINT.get();
        HINT.set(hint);
        try {
            return request.get();
        } finally {
            HINT.set(before);
        }
    }

    private static String value(AttributeSet key, String attribute) {
        Attribute a = key.getAttribute(attribute);
        return a == null || a.getValues().isEmpty() ? null : a.getValues().get(0).toString();
    }

    @Override
    public synchronized String put(AttributeSet key, String value) {
        String old = all.put(key, value);
        String plural = value(key, "plural");
        String name = value(key, "name");
        if (plural != null) {
            byPlural.computeIfAbsent(plural, k -> new LinkedHashMap<>()).put(key, value);
            if (name != null) {
                byName.computeIfAbsent(plural + "/" + name, k -> new LinkedHashMap<>()).put(key, value);
            }
        }
        return old;
    }

    @Override
    public synchronized String remove(Object key) {
        String old = all.remove(key);
        if (old != null && key instanceof AttributeSet k) {
            String plural = value(k, "plural");
            String name = value(k, "name");
            if (plural != null) {
                removeFrom(byPlural, plural, k);
                if (name != null) {
                    removeFrom(byName, plural + "/" + name, k);
                }
            }
        }
        return old;
    }

    private static void removeFrom(Map<String, Map<AttributeSet, String>> index, String bucket, AttributeSet key) {
        Map<AttributeSet, String> m = index.get(bucket);
        if (m != null) {
            m.remove(key);
            if (m.isEmpty()) {
                index.remove(bucket);
            }
        }
    }

    @Override
    public synchronized String get(Object key) {
        return all.get(key);
    }

    @Override
    public synchronized boolean containsKey(Object key) {
        return all.containsKey(key);
    }

    @Override
    public synchronized void clear() {
        all.clear();
        byPlural.clear();
        byName.clear();
    }

    @Override
    public synchronized int size() {
        return all.size();
    }

    /** The stored objects the current request can be about; a snapshot, so a scan never sees a concurrent write. */
    @Override
    public synchronized Set<Entry<AttributeSet, String>> entrySet() {
        Hint hint = HINT.get();
        Map<AttributeSet, String> source = all;
        if (hint != null && hint.plural() != null) {
            if (hint.name() != null) {
                source = byName.getOrDefault(hint.plural() + "/" + hint.name(), Map.of());
            } else if (byPlural.containsKey(hint.plural()) || !all.isEmpty()) {
                source = byPlural.getOrDefault(hint.plural(), Map.of());
            }
        }
        Map<AttributeSet, String> copy = new LinkedHashMap<>(source);
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<AttributeSet, String>> iterator() {
                Iterator<Entry<AttributeSet, String>> it = copy.entrySet().iterator();
                return new Iterator<>() {
                    private Entry<AttributeSet, String> last;

                    @Override
                    public boolean hasNext() {
                        return it.hasNext();
                    }

                    @Override
                    public Entry<AttributeSet, String> next() {
                        last = it.next();
                        return last;
                    }

                    @Override
                    public void remove() {
                        it.remove();
                        IndexedStore.this.remove(last.getKey());
                    }
                };
            }

            @Override
            public int size() {
                return copy.size();
            }
        };
    }
}
