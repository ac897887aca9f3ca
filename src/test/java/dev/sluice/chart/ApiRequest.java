package dev.sluice.chart;

import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One API request as RBAC sees it: verb, API group, resource (with "/subresource"), where, and the object's name for
 * cluster-scoped requests (rules may list resourceNames). Scope: {@code cluster} (no namespace), {@code namespaced}
 * (any namespace: the ClusterRole must grant it), {@code release-namespace} (the Lease, which the controller only
 * uses in its own namespace: the Role there or the ClusterRole may grant it). Discovery ({@code /api}, {@code /apis},
 * {@code /apis/group/version}) is a non-resource URL every authenticated user may read (system:discovery).
 */
record ApiRequest(String verb, String group, String resource, String scope, String name) {

    static final String DISCOVERY = "discovery";

    /** The API server's mapping of method and path to an RBAC verb and resource. */
    static ApiRequest of(String method, URI uri, boolean releaseNamespace) {
        List<String> path = new ArrayList<>(Arrays.asList(uri.getRawPath().replaceAll("^/+|/+$", "").split("/")));
        String group;
        if (!path.isEmpty() && path.get(0).equals("api")) {
            group = "";
            path = path.subList(Math.min(2, path.size()), path.size()); // api, v1
        } else if (!path.isEmpty() && path.get(0).equals("apis") && path.size() >= 3) {
            group = path.get(1);
            path = path.subList(3, path.size()); // apis, group, version
        } else {
            return new ApiRequest(method.toLowerCase(), "", uri.getRawPath(), DISCOVERY, "-");
        }
        if (path.isEmpty()) {
            return new ApiRequest(method.toLowerCase(), group, uri.getRawPath(), DISCOVERY, "-");
        }
        String namespace = null;
        if (path.get(0).equals("namespaces") && path.size() >= 3) {
            namespace = path.get(1);
            path = path.subList(2, path.size());
        }
        String resource = path.get(0);
        String name = path.size() > 1 ? path.get(1) : null;
        if (path.size() > 2) {
            resource = resource + "/" + path.get(2);
        }
        boolean watch = uri.getRawQuery() != null && uri.getRawQuery().matches("(.*&)?watch=(true|1)(&.*)?");
        String verb = switch (method) {
            case "GET" -> watch ? "watch" : name == null ? "list" : "get";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> name == null ? "deletecollection" : "delete";
            default -> method.toLowerCase();
        };
        String scope = namespace == null ? "cluster" : releaseNamespace ? "release-namespace" : "namespaced";
        return new ApiRequest(verb, group, resource, scope, namespace == null && name != null ? name : "-");
    }

    String line() {
        return String.join("\t", verb, group.isEmpty() ? "core" : group, resource, scope, name);
    }

    static ApiRequest parse(String line) {
        String[] f = line.split("\t");
        if (f.length != 5) {
            throw new IllegalArgumentException("not verb, group, resource, scope, name: '" + line + "'");
        }
        return new ApiRequest(f[0], f[1].equals("core") ? "" : f[1], f[2], f[3], f[4]);
    }

    @Override
    public String toString() {
        return verb + " " + (group.isEmpty() ? "" : group + "/") + resource + " (" + scope
                + (name.equals("-") ? "" : ", " + name) + ")";
    }
}
