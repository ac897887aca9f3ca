package dev.sluice.bench;

import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * The mock API server's object store with indexes, so that a request costs what it costs in a real API server
 * rather than a scan of every stored object. fabric8's CRUD dispatcher finds objects by scanning
 * {@code map.entrySet()} for keys that match the request's attributes; while a request is being handled,
 * {@link #narrow} names the resource (and namespace and object) it is about, and {@code entrySet()} then yields only
 * the stored objects of that resource (in that namespace, of that name). That is always a superset of what the scan
 * matches, so the answers are the same, only found faster. Writes go to the full map and every index.
 * <p>
 * The benchmark's Workloads have the same names in every namespace (Kueue's generator names them per queue), so an
 * object is found by resource, namespace and name; a request without a namespace (cluster-scoped, or across
 * namespaces) by resource and name. A scan sees a snapshot taken as a list, which costs no hashing of the keys (an
 * AttributeSet computes its hash anew each time).
 */
final class IndexedStore extends AbstractMap<AttributeSet, String> {

    /** What the current request is about: a resource (plural) and perhaps a namespace and one object's name. */
    record Hint(String plural, String namespace, String name) {
        Hint(String plural, String name) {
            this(plural, null, name);
        }
    }

    private static final ThreadLocal<Hint> HINT = new ThreadLocal<>();

    private final Map<AttributeSet, String> all = new LinkedHashMap<>();
    private final Map<String, Map<AttributeSet, String>> byPlural = new HashMap<>();
    private final Map<String, Map<AttributeSet, String>> byName = new HashMap<>();
    /**
     * Per resource, its objects by {@code namespace/name} in that order (a cluster-scoped object's namespace is empty),
     * as kube-apiserver keys them: an object by its name, and the pages of a paged LIST ({@link #page}). Objects of
     * one name in other API versions or groups share a bucket.
     */
    private final Map<String, TreeMap<String, Map<AttributeSet, String>>> sorted = new HashMap<>();
    private AttributeSet lastPut;
    /** Stored objects the pages looked at, since the start (a LIST's pages together should walk the resource once). */
    private long walked;

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

    private static final TreeMap<String, Map<AttributeSet, String>> EMPTY = new TreeMap<>();

    /** {@code namespace/name}: the order of a LIST, as kube-apiserver's keys sort. */
    static String sortKey(String namespace, String name) {
        return (namespace == null ? "" : namespace) + "/" + name;
    }

    /** One page of a LIST: the objects' JSON, and the key of the last one when more may follow (null: the last page). */
    record Page(List<String> items, String last) {
    }

    /**
     * Up to {@code limit} stored objects of a resource that {@code query} selects, in {@code namespace/name} order,
     * after {@code after} (exclusive; null from the first) and within {@code namespace} when one is given. Costs the
     * page and the objects it passes over, not the whole resource: the pages of one LIST together walk it once.
     */
    synchronized Page page(String plural, String namespace, String after, long limit, AttributeSet query) {
        NavigableMap<String, Map<AttributeSet, String>> objects = sorted.getOrDefault(plural, EMPTY);
        String prefix = namespace == null ? null : sortKey(namespace, "");
        if (after != null) {
            objects = objects.tailMap(after, false);
        } else if (prefix != null) {
            objects = objects.tailMap(prefix, true);
        }
        List<String> items = new ArrayList<>();
        for (Entry<String, Map<AttributeSet, String>> bucket : objects.entrySet()) {
            if (prefix != null && !bucket.getKey().startsWith(prefix)) {
                break;
            }
            for (Entry<AttributeSet, String> e : bucket.getValue().entrySet()) {
                walked++;
                if (e.getKey().matches(query)) {
                    items.add(e.getValue());
                }
            }
            if (items.size() >= limit) {
                String next = objects.higherKey(bucket.getKey());
                boolean more = next != null && (prefix == null || next.startsWith(prefix));
                return new Page(items, more ? bucket.getKey() : null);
            }
        }
        return new Page(items, null);
    }

    private static String value(AttributeSet key, String attribute) {
        Attribute a = key.getAttribute(attribute);
        return a == null || a.getValues().isEmpty() ? null : a.getValues().get(0).toString();
    }

    @Override
    public synchronized String put(AttributeSet key, String value) {
        String old = all.put(key, value);
        lastPut = key;
        String plural = value(key, "plural");
        String name = value(key, "name");
        if (plural != null) {
            byPlural.computeIfAbsent(plural, k -> new LinkedHashMap<>()).put(key, value);
            if (name != null) {
                byName.computeIfAbsent(plural + "/" + name, k -> new LinkedHashMap<>()).put(key, value);
                sorted.computeIfAbsent(plural, k -> new TreeMap<>())
                        .computeIfAbsent(sortKey(value(key, "namespace"), name), k -> new LinkedHashMap<>()).put(key, value);
            }
        }
        return old;
    }

    synchronized long walked() {
        return walked;
    }

    /** The key of the object stored last (the dispatcher computes it inside its write; watches need it after). */
    synchronized AttributeSet lastPut() {
        return lastPut;
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
                    TreeMap<String, Map<AttributeSet, String>> objects = sorted.get(plural);
                    if (objects != null) {
                        removeFrom(objects, sortKey(value(k, "namespace"), name), k);
                        if (objects.isEmpty()) {
                            sorted.remove(plural);
                        }
                    }
                }
            }
        }
        return old;
    }

    private static void removeFrom(Map<String, ? extends Map<AttributeSet, String>> index, String bucket, AttributeSet key) {
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
        sorted.clear();
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
            if (hint.name() != null && hint.namespace() != null) {
                source = sorted.getOrDefault(hint.plural(), EMPTY).getOrDefault(sortKey(hint.namespace(), hint.name()), Map.of());
            } else if (hint.name() != null) {
                source = byName.getOrDefault(hint.plural() + "/" + hint.name(), Map.of());
            } else if (byPlural.containsKey(hint.plural()) || !all.isEmpty()) {
                source = byPlural.getOrDefault(hint.plural(), Map.of());
            }
        }
        List<Entry<AttributeSet, String>> copy = new ArrayList<>(source.size());
        for (Entry<AttributeSet, String> e : source.entrySet()) {
            copy.add(new SimpleImmutableEntry<>(e.getKey(), e.getValue()));
        }
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<AttributeSet, String>> iterator() {
                Iterator<Entry<AttributeSet, String>> it = copy.iterator();
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
