package dev.sluice.visibility;

import java.util.LinkedHashMap;
import java.util.Map;

/** A failure answered the way an API server answers it: a meta/v1 Status object with code, reason and message. */
record ApiStatus(int code, String reason, String message, Map<String, Object> details) {

    static ApiStatus badRequest(String message) {
        return new ApiStatus(400, "BadRequest", message, null);
    }

    static ApiStatus notFound(String kind, String name) {
        return new ApiStatus(404, "NotFound", kind + "." + VisibilityPaths.GROUP + " \"" + name + "\" not found",
                details(kind, name));
    }

    static ApiStatus pathNotFound(String path) {
        return new ApiStatus(404, "NotFound", "the server could not find the requested resource (" + path
                + "); this server serves " + VisibilityPaths.GROUP
                + " clusterqueues/<name>/pendingworkloads and namespaces/<ns>/localqueues/<name>/pendingworkloads", null);
    }

    static ApiStatus unauthorized(String why) {
        return new ApiStatus(401, "Unauthorized", "Unauthorized: " + why, null);
    }

    static ApiStatus forbidden(String resource, String name, String user, String verb, String namespace, String why) {
        String scope = namespace == null ? "at the cluster scope" : "in the namespace \"" + namespace + "\"";
        return new ApiStatus(403, "Forbidden", resource.substring(0, resource.indexOf('/')) + "." + VisibilityPaths.GROUP
                + " \"" + name + "\" is forbidden: User \"" + user + "\" cannot " + verb + " resource \"" + resource
                + "\" in API group \"" + VisibilityPaths.GROUP + "\" " + scope + (why == null || why.isBlank() ? "" : ": " + why),
                details(resource.substring(0, resource.indexOf('/')), name));
    }

    static ApiStatus methodNotAllowed(String method) {
        return new ApiStatus(405, "MethodNotAllowed", "the server does not allow this method on the requested resource: "
                + method + " (the visibility API is read-only: use GET)", null);
    }

    static ApiStatus unavailable(String message) {
        return new ApiStatus(503, "ServiceUnavailable", message, null);
    }

    private static Map<String, Object> details(String kind, String name) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("name", name);
        d.put("group", VisibilityPaths.GROUP);
        d.put("kind", kind);
        return d;
    }

    Map<String, Object> toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", "Status");
        m.put("apiVersion", "v1");
        m.put("metadata", Map.of());
        m.put("status", "Failure");
        m.put("message", message);
        m.put("reason", reason);
        if (details != null) {
            m.put("details", details);
        }
        m.put("code", code);
        return m;
    }
}
