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

/**
 * fabric8's CRUD dispatcher over the {@link IndexedStore}, without two costs that are fabric8's and not an API
 * server's:
 * <ul>
 * <li>Watches cost one encoding per change. fabric8's own parse each changed object and write the event anew for every
 * watch (a full JSON round trip per watcher per change, under the store's lock); here the event text is put together
 * once from the stored JSON and written to every matching watch. What a watch sees is the same: ADDED for every
 * matching stored object when it opens, then ADDED, MODIFIED or DELETED as the object enters, changes within or
 * leaves what the watch selects, in the store's order.</li>
 * <li>Whether a write changed anything (and so gets a new resource version) is a comparison of the two JSON trees,
 * not a JSON diff whose operations are then thrown away.</li>
 * </ul>
 */
final class LeanCrudDispatcher extends KubernetesCrudDispatcher {

    private final IndexedStore store;
    private final Set<Watch> watches = new CopyOnWriteArraySet<>();
    /** Held while a change is stored and told, and while a watch opens: no change falls between the two. */
    private final Object events = new Object();

    LeanCrudDispatcher(IndexedStore store) {
        this.store = store;
    }

    @Override
    public MockResponse handleWatch(String path) {
        AttributeSet query = attributeExtractor.fromPath(path);
        String name = nameSelected(path);
        if (name != null) {
            query = query.add(new Attribute("name", name));
        }
        return new MockResponse().withWebSocketUpgrade(new Watch(query));
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
                    w.send(deleted == null ? deleted = event("DELETED", existing) : deleted);
                } else if (matchesNew) {
                    w.send(added == null ? added = event("ADDED", newState) : added);
                }
            }
        }
    }

    @Override
    public void touchResourceVersion(JsonNode currentResource, JsonNode updatedResource) {
        if (!currentResource.equals(updatedResource)) {
            ((ObjectNode) updatedResource.get("metadata")).put("resourceVersion", String.valueOf(requestResourceVersion()));
        }
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
        private volatile WebSocket socket;

        Watch(AttributeSet query) {
            this.query = query;
        }

        @Override
        public void onOpen(WebSocket webSocket, Response response) {
            synchronized (events) {
                socket = webSocket;
                Attribute plural = query.getAttribute("plural");
                IndexedStore.Hint hint = plural == null || plural.getValues().isEmpty() ? null
                        : new IndexedStore.Hint(plural.getValues().get(0).toString(), null);
                IndexedStore.narrow(hint, () -> {
                    for (Map.Entry<AttributeSet, String> e : map.entrySet()) {
                        if (e.getKey().matches(query)) {
                            send(event("ADDED", e.getValue()));
                        }
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
