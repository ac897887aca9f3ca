package dev.sluice.visibility;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The discovery documents an aggregated API server serves (legacy, JSON): the API server's aggregator reads
 * /apis/GROUP/VERSION to mark the APIService Available, and kubectl reads them to find the resources.
 */
final class DiscoveryDocuments {

    private DiscoveryDocuments() {
    }

    /** /apis: the one group. */
    static Map<String, Object> groupList() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", "APIGroupList");
        m.put("apiVersion", "v1");
        m.put("groups", List.of(groupBody()));
        return m;
    }

    /** /apis/visibility.kueue.x-k8s.io */
    static Map<String, Object> group() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", "APIGroup");
        m.put("apiVersion", "v1");
        m.putAll(groupBody());
        return m;
    }

    private static Map<String, Object> groupBody() {
        List<Map<String, Object>> versions = new ArrayList<>();
        for (String v : VisibilityPaths.VERSIONS) {
            versions.add(version(v));
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", VisibilityPaths.GROUP);
        m.put("versions", versions);
        m.put("preferredVersion", version(VisibilityPaths.VERSIONS.get(0)));
        return m;
    }

    private static Map<String, Object> version(String v) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("groupVersion", VisibilityPaths.GROUP + "/" + v);
        m.put("version", v);
        return m;
    }

    /** /apis/visibility.kueue.x-k8s.io/VERSION: the queues (no verbs of their own) and their pendingworkloads. */
    static Map<String, Object> resources(String version) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", "APIResourceList");
        m.put("apiVersion", "v1");
        m.put("groupVersion", VisibilityPaths.GROUP + "/" + version);
        m.put("resources", List.of(
                resource("clusterqueues", "clusterqueue", false, List.of()),
                resource("clusterqueues/pendingworkloads", "", false, List.of("get")),
                resource("localqueues", "localqueue", true, List.of()),
                resource("localqueues/pendingworkloads", "", true, List.of("get"))));
        return m;
    }

    private static Map<String, Object> resource(String name, String singular, boolean namespaced, List<String> verbs) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("singularName", singular);
        m.put("namespaced", namespaced);
        m.put("kind", "PendingWorkloadsSummary");
        m.put("verbs", verbs);
        return m;
    }
}
