package dev.sluice.visibility;

import java.util.List;
import java.util.Map;

/**
 * The URL space of {@code visibility.kueue.x-k8s.io}, as Kueue's visibility server lays it out, and the checks on
 * its parameters. Parsing only: nothing here reads state.
 */
final class VisibilityPaths {
    static final String GROUP = "visibility.kueue.x-k8s.io";
    /** Served versions, preferred first (Kueue v0.19 prefers v1beta2). */
    static final List<String> VERSIONS = List.of("v1beta2", "v1beta1");
    /** Kueue's default page size. */
    static final long DEFAULT_LIMIT = 1000;
    /** Beyond this a page would be megabytes of JSON; page with offset instead. */
    static final long MAX_LIMIT = 10_000;

    /** What a GET asks for: a discovery document, a pending list, or nothing this server has. */
    sealed interface Target permits Discovery, Pending, Invalid {
    }

    /** /apis, /apis/GROUP or /apis/GROUP/VERSION (version null for the first two; group null for /apis). */
    record Discovery(String group, String version) implements Target {
    }

    record Pending(PendingQuery query) implements Target {
    }

    record Invalid(ApiStatus status) implements Target {
    }

    private VisibilityPaths() {
    }

    /**
     * @param path the request path, without query
     * @param params the query parameters (first value of each)
     */
    static Target parse(String path, Map<String, String> params) {
        String p = path.endsWith("/") && path.length() > 1 ? path.substring(0, path.length() - 1) : path;
        if (p.equals("/apis")) {
            return new Discovery(null, null);
        }
        String prefix = "/apis/" + GROUP;
        if (!p.startsWith(prefix)) {
            return new Invalid(ApiStatus.pathNotFound(path));
        }
        String rest = p.substring(prefix.length());
        if (rest.isEmpty()) {
            return new Discovery(GROUP, null);
        }
        String[] seg = rest.substring(1).split("/", -1);
        if (!VERSIONS.contains(seg[0])) {
            return new Invalid(ApiStatus.pathNotFound(path));
        }
        String version = seg[0];
        if (seg.length == 1) {
            return new Discovery(GROUP, version);
        }
        String namespace = null;
        String queue;
        if (seg.length == 4 && seg[1].equals("clusterqueues") && seg[3].equals("pendingworkloads")) {
            queue = seg[2];
        } else if (seg.length == 6 && seg[1].equals("namespaces") && seg[3].equals("localqueues")
                && seg[5].equals("pendingworkloads")) {
            namespace = seg[2];
            queue = seg[4];
        } else {
            return new Invalid(ApiStatus.pathNotFound(path));
        }
        if (queue.isEmpty() || (namespace != null && namespace.isEmpty())) {
            return new Invalid(ApiStatus.pathNotFound(path));
        }
        Long limit = number(params, "limit", DEFAULT_LIMIT);
        Long offset = number(params, "offset", 0);
        if (limit == null || offset == null) {
            String name = limit == null ? "limit" : "offset";
            return new Invalid(ApiStatus.badRequest("query parameter " + name + "=" + params.get(name)
                    + " is not a whole number; use e.g. ?limit=100&offset=0"));
        }
        if (limit == 0) {
            limit = DEFAULT_LIMIT; // as Kueue's defaulting: 0 means the default
        }
        if (limit < 0 || limit > MAX_LIMIT) {
            return new Invalid(ApiStatus.badRequest("query parameter limit=" + limit + " is out of range: give 1 to "
                    + MAX_LIMIT + " (default " + DEFAULT_LIMIT + ") and page with offset"));
        }
        if (offset < 0) {
            return new Invalid(ApiStatus.badRequest("query parameter offset=" + offset
                    + " is negative: positions start at 0"));
        }
        return new Pending(new PendingQuery(version, namespace, queue, offset, limit));
    }

    private static Long number(Map<String, String> params, String name, long absent) {
        String v = params.get(name);
        if (v == null || v.isEmpty()) {
            return absent;
        }
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
