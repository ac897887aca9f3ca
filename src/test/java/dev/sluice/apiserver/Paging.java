package dev.sluice.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * LIST with {@code limit} and {@code continue}, as kube-apiserver pages a collection: fabric8's CRUD mock ignores both
 * and answers every object at once, so a client that did not follow continue tokens would pass a test against it. Here
 * a LIST with a limit gets at most that many objects, in (namespace, name) order, with {@code metadata.continue} and
 * {@code remainingItemCount} while more remain; the next page starts after the object the token names. (Unlike a real
 * server the pages are not one snapshot: an object created between two pages shows if it sorts after the token.) Pages
 * served are counted per collection so tests can assert the client paged.
 */
final class Paging {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Collection path (no query) to the pages served for it, and how many of them were asked for with a token. */
    private static final Map<String, int[]> PAGES = new ConcurrentHashMap<>();

    private Paging() {
    }

    /** A paged answer to a LIST with a limit; null when the request is not one (the mock answers it as it does). */
    static MockResponse page(Dispatcher mock, RecordedRequest request) {
        String path = request.getPath();
        int q = path.indexOf('?');
        if (q < 0 || !"GET".equals(request.getMethod())) {
            return null;
        }
        Long limit = null;
        String token = null;
        StringBuilder rest = new StringBuilder();
        for (String param : path.substring(q + 1).split("&")) {
            int eq = param.indexOf('=');
            String key = eq < 0 ? param : param.substring(0, eq);
            String value = eq < 0 ? "" : URLDecoder.decode(param.substring(eq + 1), StandardCharsets.UTF_8);
            switch (key) {
                case "watch" -> {
                    if ("true".equals(value) || "1".equals(value)) {
                        return null;
                    }
                    rest.append(rest.isEmpty() ? "" : "&").append(param);
                }
                case "limit" -> limit = value.isEmpty() ? null : Long.parseLong(value);
                case "continue" -> token = value.isEmpty() ? null : value;
                default -> rest.append(rest.isEmpty() ? "" : "&").append(param);
            }
        }
        if (limit == null || limit <= 0) {
            return null;
        }
        String collection = path.substring(0, q);
        MockResponse all = mock.dispatch(new RecordedRequest(request.getHttpVersion(), request.method(),
                collection + (rest.isEmpty() ? "" : "?" + rest), request.getHeaders(), new Buffer()));
        if (all.code() != 200) {
            return all;
        }
        try {
            JsonNode list = JSON.readTree(all.getBody().getBytes());
            if (!(list instanceof ObjectNode body) || !(list.get("items") instanceof ArrayNode items)) {
                return all; // one object (a GET by name with a query), not a collection
            }
            List<JsonNode> sorted = new ArrayList<>();
            items.forEach(sorted::add);
            sorted.sort(Comparator.comparing(Paging::key));
            String after = token == null ? null : new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
            int start = 0;
            while (after != null && start < sorted.size() && key(sorted.get(start)).compareTo(after) <= 0) {
                start++;
            }
            int end = (int) Math.min(sorted.size(), start + limit);
            ArrayNode page = body.putArray("items");
            sorted.subList(start, end).forEach(page::add);
            ObjectNode meta = body.has("metadata") && body.get("metadata").isObject() ? (ObjectNode) body.get("metadata")
                    : body.putObject("metadata");
            if (end < sorted.size()) {
                meta.put("continue", Base64.getUrlEncoder().withoutPadding()
                        .encodeToString(key(sorted.get(end - 1)).getBytes(StandardCharsets.UTF_8)));
                meta.put("remainingItemCount", sorted.size() - end);
            } else {
                meta.remove("continue");
                meta.remove("remainingItemCount");
            }
            int[] counts = PAGES.computeIfAbsent(collection, k -> new int[2]);
            synchronized (counts) {
                counts[0]++;
                counts[1] += token == null ? 0 : 1;
            }
            return new MockResponse().setResponseCode(200).setHeader("Content-Type", "application/json")
                    .setBody(body.toString());
        } catch (java.io.IOException | RuntimeException e) {
            return all;
        }
    }

    private static String key(JsonNode item) {
        JsonNode meta = item.path("metadata");
        return meta.path("namespace").asText("") + "/" + meta.path("name").asText("");
    }

    /** Pages served so far for a collection path (e.g. /apis/kueue.x-k8s.io/v1beta2/workloads). */
    static int pages(String collection) {
        int[] counts = PAGES.get(collection);
        return counts == null ? 0 : counts[0];
    }

    /** Of those, pages asked for with a continue token. */
    static int continued(String collection) {
        int[] counts = PAGES.get(collection);
        return counts == null ? 0 : counts[1];
    }
}
