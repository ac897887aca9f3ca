package dev.sluice.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.crud.Attribute;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReadWriteLock;

/**
 * fabric8's CRUD dispatcher over the {@link IndexedStore}, without two costs that are fabric8's and not an API
 * server's:
 * <ul>
 * <li>Watches cost one encoding per change. fabric8's own parse each changed object and write the event anew for every
 * watch (a full JSON round trip per watcher per change, under the store's lock); here the event text is put together
 * once from the stored JSON and written to every matching watch. What a watch sees is the same: ADDED for every
 * matching stored object when it opens, then ADDED, MODIFIED or DELETED as the object enters, changes within or
 * leaves what the watch selects, in the store's order; the ADDED events of an opening watch in the order of the
 * objects' resource versions, and a DELETED event with a resource version of its own (the deletion's, as
 * kube-apiserver gives it), so that every event a watch sees is newer than the one before.</li>
 * <li>Whether a write changed anything (and so gets a new resource version) is a comparison of the two JSON trees,
 * not a JSON diff whose operations are then thrown away.</li>
 * </ul>
 * And two things an API server does that fabric8's mock does not, so that an informer's start-up costs what it costs
 * against a cluster: a LIST with {@code limit} is paged ({@link ListPages}), and a watch from a resource version sends
 * what changed since (an ADDED for every stored object newer than it), not every stored object again.
 */
final class LeanCrudDispatcher extends KubernetesCrudDispatcher {

    private final IndexedStore store;
    private final Set<Watch> watches = new CopyOnWriteArraySet<>();
    /** Held while a change is stored and told, and while a watch opens: no change falls between the two. */
    private final Object events = new Object();

    /** fabric8's lock around every request (writes exclusive), and its resource version counter. */
    private final ReadWriteLock lock;
    private final AtomicLong resourceVersion;

    LeanCrudDispatcher(IndexedStore store) {
        this.store = store;
        this.lock = field("lock", ReadWriteLock.class);
        this.resourceVersion = field("resourceVersion", AtomicLong.class);
    }

    private <T> T field(String name, Class<T> type) {
        try {
            java.lang.reflect.Field f = KubernetesCrudDispatcher.class.getDeclaredField(name);
            f.setAccessible(true);
            return type.cast(f.get(this));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot reach the mock's " + name + " (fabric8 changed?): " + e, e);
        }
    }

    @Override
    public MockResponse handleGet(String path) {
        ListPages.Query paged;
        try {
            paged = ListPages.of(path);
        } catch (IllegalArgumentException e) {
            return new MockResponse().setResponseCode(400).setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
                    + "\"status\":\"Failure\",\"reason\":\"BadRequest\",\"code\":400,\"message\":\""
                    + e.getMessage().replace("\"", "'") + "\"}");
        }
        AttributeSet query = paged == null ? null : attributeExtractor.fromPath(path);
        Attribute plural = query == null ? null : query.getAttribute("plural");
        if (paged == null || query.containsKey("name") || plural == null || plural.getValues().isEmpty()) {
            return super.handleGet(path); // one object, or not a LIST with a limit: as the mock answers it
        }
        Attribute namespace = query.getAttribute("namespace");
        lock.readLock().lock();
        try {
            String version = paged.token() == null ? String.valueOf(resourceVersion.get()) : paged.token().resourceVersion();
            IndexedStore.Page page = store.page(plural.getValues().get(0).toString(),
                    namespace == null || namespace.getValues().isEmpty() ? null : namespace.getValues().get(0).toString(),
                    paged.token() == null ? null : paged.token().after(), paged.limit(), query);
            String token = page.last() == null ? null : new ListPages.Token(version, page.last()).encode();
            return new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json")
                    .setBody(ListPages.body(page.items(), version, token));
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public MockResponse handleWatch(String path) {
        AttributeSet query = attributeExtractor.fromPath(path);
        String name = nameSelected(path);
        if (name != null) {
            query = query.add(new Attribute("name", name));
        }
        return new MockResponse().withWebSocketUpgrade(new Watch(query, ListPages.watchedFrom(path)));
    }

    /**
     * Stores objects as the mock's own create would (the same key, a new resource version each, watches told), under
     * its write lock, without a request each: {@code objects} gets each object's resource version and answers its
     * JSON, which must carry it as {@code metadata.resourceVersion}. {@code collection} is the path it would be
     * POSTed to. For the benchmark's history: a quarter of a million Workloads in seconds instead of an hour.
     */
    void storeAll(String collection, int count, java.util.function.BiFunction<Integer, Long, String> objects) {
        AttributeSet pathAttributes = getKey(collection);
        lock.writeLock().lock();
        try {
            for (int i = 0; i < count; i++) {
                processEvent(collection, pathAttributes, null, null, objects.apply(i, requestResourceVersion()));
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    private static final com.fasterxml.jackson.core.JsonFactory JSON = new com.fasterxml.jackson.core.JsonFactory();

    /** metadata.resourceVersion of a stored object's JSON as a number, read up to there; -1 when there is none. */
    static long storedVersion(String json) {
        try (var p = JSON.createParser(json)) {
            if (p.nextToken() != com.fasterxml.jackson.core.JsonToken.START_OBJECT) {
                return -1;
            }
            while (p.nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
                String field = p.currentName();
                var t = p.nextToken();
                if (!"metadata".equals(field) || t != com.fasterxml.jackson.core.JsonToken.START_OBJECT) {
                    p.skipChildren();
                    continue;
                }
                while (p.nextToken() == com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
                    String m = p.currentName();
                    p.nextToken();
                    if ("resourceVersion".equals(m)) {
                        return Long.parseLong(p.getText());
                    }
                    p.skipChildren();
                }
                return -1;
            }
            return -1;
        } catch (java.io.IOException | RuntimeException e) {
            return -1;
        }
    }

    /** {@code metadata.name=x} in a watch's field selector. */
    static String nameSelected(String path) {
        int q = path.indexOf('?');
        if (q < 0) {
            return null;
        }
        for (String param : path.substring(q + 1).split("&")) {
            String p = URLDecoder.decode(param, StandardCharsets.UTF_8);
            if (p.startsWith("fieldSelector=") && p.contains("metadata.name=")) {
                String v = p.substring(p.indexOf("metadata.name=") + "metadata.name=".length());
                int comma = v.indexOf(',');
                return comma < 0 ? v : v.substring(0, comma);
            }
        }
        return null;
    }

    @Override
    public void processEvent(String path, AttributeSet pathAttributes, AttributeSet oldAttributes,
                             GenericKubernetesResource resource, String newState) {
        synchronized (events) {
            String existing = oldAttributes == null ? null : map.get(oldAttributes);
            // fabric8 stores the object (and keeps its CRD bookkeeping); it has no watches of its own to tell
            super.processEvent(path, pathAttributes, oldAttributes, resource, newState);
            if (watches.isEmpty() || Objects.equals(existing, newState)) {
                return;
            }
            AttributeSet newAttributes = newState == null ? null : store.lastPut();
            String modified = null;
            String added = null;
            String deleted = null;
            for (Watch w : watches) {
                boolean matchesOld = oldAttributes != null && oldAttributes.matches(w.query);
                boolean matchesNew = newAttributes != null && newAttributes.matches(w.query);
                if (matchesOld && matchesNew) {
                    w.send(modified == null ? modified = event("MODIFIED", newState) : modified);
                } else if (matchesOld) {
                    w.send(deleted == null ? deleted = event("DELETED", deletedAt(existing)) : deleted);
                } else if (matchesNew) {
                    w.send(added == null ? added = event("ADDED", newState) : added);
                }
            }
        }
    }

    /** The deleted object's last state with the deletion's own resource version. */
    private String deletedAt(String existing) {
        try {
            ObjectNode object = (ObjectNode) MAPPER.readTree(existing);
            ((ObjectNode) object.get("metadata")).put("resourceVersion", String.valueOf(requestResourceVersion()));
            return object.toString();
        } catch (java.io.IOException | RuntimeException e) {
            return existing;
        }
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper MAPPER =
            new com.fasterxml.jackson.databind.ObjectMapper();

    @Override
    public void touchResourceVersion(JsonNode currentResource, JsonNode updatedResource) {
        if (!currentResource.equals(updatedResource)) {
            ((ObjectNode) updatedResource.get("metadata")).put("resourceVersion", String.valueOf(requestResourceVersion()));
        }
    }

    IndexedStore store() {
        return store;
    }

    /** Watches open now. */
    int openWatches() {
        return watches.size();
    }

    /** A watch event around a stored object's JSON, as the API server writes it. */
    static String event(String type, String object) {
        return "{\"type\":\"" + type + "\",\"object\":" + object + "}";
    }

    /** One open watch: the objects its query selects. */
    private final class Watch extends WebSocketListener {
        private final AttributeSet query;
        /** The resource version it watches from: objects stored at or before it are not sent on open (null: all). */
        private final Long from;
        private volatile WebSocket socket;

        Watch(AttributeSet query, Long from) {
            this.query = query;
            this.from = from;
        }

        @Override
        public void onOpen(WebSocket webSocket, Response response) {
            synchronized (events) {
                socket = webSocket;
                Attribute plural = query.getAttribute("plural");
                IndexedStore.Hint hint = plural == null || plural.getValues().isEmpty() ? null
                        : new IndexedStore.Hint(plural.getValues().get(0).toString(), null);
                IndexedStore.narrow(hint, () -> {
                    java.util.List<Map.Entry<Long, String>> added = new java.util.ArrayList<>();
                    for (Map.Entry<AttributeSet, String> e : map.entrySet()) {
                        long version = storedVersion(e.getValue());
                        if (e.getKey().matches(query) && (from == null || version > from)) {
                            added.add(Map.entry(version, e.getValue()));
                        }
                    }
                    added.sort(Map.Entry.comparingByKey()); // as the changes were stored
                    for (Map.Entry<Long, String> e : added) {
                        send(event("ADDED", e.getValue()));
                    }
                    return null;
                });
                watches.add(this);
            }
        }

        void send(String text) {
            WebSocket s = socket;
            if (s != null && !s.send(text)) { // Vert.x keeps the order of writes to one socket
                watches.remove(this); // closed under it: a watcher that went away without a word
            }
        }

        @Override
        public void onClosing(WebSocket webSocket, int code, String reason) {
            watches.remove(this);
            webSocket.close(code, reason);
        }

        @Override
        public void onClosed(WebSocket webSocket, int code, String reason) {
            watches.remove(this);
        }

        @Override
        public void onFailure(WebSocket webSocket, Throwable error, Response response) {
            watches.remove(this);
            webSocket.close(1000, String.valueOf(error.getMessage()));
        }
    }
}
